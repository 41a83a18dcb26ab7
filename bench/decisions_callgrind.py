"""The decisions judge's instructions per hand, for callgrind (a count the machine's load does not move).

Run: ``PYTHONPATH=build/compiled valgrind --tool=callgrind --collect-atstart=no
--toggle-collect=CPyPy_judge___hand_decision_columns --callgrind-out-file=F python -P
bench/decisions_callgrind.py [--hands 300] [--steady]``, then ``callgrind_annotate F``: the total
is the judge's (the collection runs only inside ``hand_decision_columns`` called from here; the
compiled build's entry point is the toggle). The hands: the Botzone sample, then the bundled
simulated Guobiao hands (``data/sim/guobiao.jsonl.gz``) up to ``--hands``; ``--steady`` first
judges as many further hands through ``hand_decisions`` (not collected) to fill the tables.
"""

from __future__ import annotations

import argparse
import itertools
import time
from pathlib import Path

from mjstats.compiled import describe_build
from mjstats.decision.judge import DecisionColumns, hand_decision_columns, hand_decisions
from mjstats.formats.botzone import read_botzone
from mjstats.formats.canonical import read_canonical
from mjstats.gc_pause import paused_collection
from mjstats.records import Hand

DATA = Path(__file__).resolve().parent.parent / "data"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--steady", action="store_true", help="judge as many other hands first")
    args = parser.parse_args()
    hands = [h for h in read_botzone(DATA / "botzone" / "sample.txt") if isinstance(h, Hand)]
    simulated = itertools.islice(read_canonical(DATA / "sim" / "guobiao.jsonl.gz"), 2 * args.hands)
    sim = [h for h in simulated if isinstance(h, Hand)]
    hands += sim[: args.hands - len(hands)]
    out = DecisionColumns()
    with paused_collection():
        if args.steady:
            for hand in sim[args.hands :]:
                hand_decisions(hand)
        start = time.process_time()
        for hand in hands:
            hand_decision_columns(hand, out)
        seconds = time.process_time() - start
    print(f"{describe_build()}: {len(hands)} hands, {len(out)} decisions, {seconds:.2f} s of CPU")


if __name__ == "__main__":
    main()
