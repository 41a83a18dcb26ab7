"""Replay viewer cost: building the table views and the viewer HTML of a hand, against the
explained replay it rests on (measured in the same run), and the viewer's size per hand.

Run: ``python bench/viewer.py [--hands 200]``. Simulates that many Guobiao and Fuzhou hands,
replays each with ``explain=True`` (the reference: what a report hand page needed before), then
builds ``table_views`` and ``viewer_html`` from those replays. Printed: CPU ms per hand for each
step, the views+HTML cost as a ratio of the replay, and the viewer's median and largest size.
"""

from __future__ import annotations

import argparse
import statistics
import time

from mjstats.replay import replay_hand
from mjstats.sim import SimConfig, simulate
from mjstats.viewer import table_views
from mjstats.viewer.page import viewer_html


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    args = parser.parse_args()
    for ruleset in ("guobiao", "fuzhou"):
        hands = list(simulate(SimConfig(ruleset, args.hands, seed=1)))
        start = time.process_time()
        results = [replay_hand(h, explain=True) for h in hands]
        replay = time.process_time() - start
        start = time.process_time()
        views = [table_views(h, r) for h, r in zip(hands, results, strict=True)]
        build = time.process_time() - start
        start = time.process_time()
        pages = [viewer_html(h, v) for h, v in zip(hands, views, strict=True)]
        html = time.process_time() - start
        sizes = [len(p.encode("utf-8")) for p in pages]
        per = 1000 / len(hands)
        print(
            f"{ruleset:8} {len(hands)} hands: replay(explain) {replay * per:6.1f} ms/hand (reference), "
            f"views {build * per:5.1f}, html {html * per:5.1f} ms/hand "
            f"(ratio {(build + html) / replay:.2f}); "
            f"viewer {statistics.median(sizes) / 1024:.0f} KiB median, {max(sizes) / 1024:.0f} KiB max"
        )


if __name__ == "__main__":
    main()
