"""Summary figures of a simulated run, as docs/simulation.md reports them.

``python -m mjstats.sim.figures --rules RULESET --hands 10000 --seed 1`` prints them; the
figures are plain counts over the records (the stats package computes the same and more from a
dataset, with intervals).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterable, Sequence

from mjstats.records import EventKind, Hand, WinKind
from mjstats.sim.matches import SimConfig, simulate, simulated_rulesets

__all__ = ["figures", "main"]


def figures(hands: Iterable[Hand]) -> dict[str, object]:
    """Win rate, self-draw share, fan and pattern shares, dealer runs and streaks, by style."""
    n = wins = self_drawn = fan_sum = 0
    kinds: Counter[str] = Counter()
    patterns: Counter[str] = Counter()
    style_wins: Counter[str] = Counter()
    style_seats: Counter[str] = Counter()
    style_deal_ins: Counter[str] = Counter()
    streaks: Counter[int] = Counter()
    runs: Counter[int] = Counter()
    fans: Counter[str] = Counter()
    run, last = 0, None
    for hand in hands:
        n += 1
        r = hand.result
        for style in hand.styles:
            style_seats[style] += 1
        streaks[hand.streak] += 1
        key = (hand.match_id, hand.dealer)
        if key == last:
            run += 1
        else:
            if run:
                runs[run] += 1
            run, last = 1, key
        if not r.is_win:
            continue
        wins += 1
        self_drawn += r.self_drawn
        fan_sum += r.fan_total or 0
        style_wins[hand.styles[r.winner]] += 1  # type: ignore[index]
        if r.loser is not None and not r.self_drawn:
            style_deal_ins[hand.styles[r.loser]] += 1
        hu = next(e for e in hand.events if e.kind is EventKind.HU)
        kinds[hu.win.value if isinstance(hu.win, WinKind) else "plain"] += 1
        patterns[r.pattern or "-"] += 1
        for fan in r.fans:
            fans[fan.name] += 1
    if run:
        runs[run] += 1
    return {
        "hands": n,
        "wins": wins,
        "win_rate": wins / n if n else 0.0,
        "draw_rate": (n - wins) / n if n else 0.0,
        "self_draw_share": self_drawn / wins if wins else 0.0,
        "mean_fan": fan_sum / wins if wins else 0.0,
        "win_kinds": dict(kinds.most_common()),
        "patterns": dict(patterns.most_common()),
        "fans_top": dict(fans.most_common(12)),
        "style_win_rate": {s: style_wins[s] / style_seats[s] for s in sorted(style_seats)},
        "style_deal_in_rate": {s: style_deal_ins[s] / style_seats[s] for s in sorted(style_seats)},
        "streaks": dict(sorted(streaks.items())),
        "dealer_runs": dict(sorted(runs.items())),
    }


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m mjstats.sim.figures", description=__doc__)
    p.add_argument("--rules", required=True, choices=simulated_rulesets())
    p.add_argument("--hands", type=int, default=10_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--profile", default=None)
    args = p.parse_args(argv)
    result = figures(simulate(SimConfig(args.rules, args.hands, args.seed, args.profile)))
    for key, value in result.items():
        if isinstance(value, float):
            print(f"{key}: {value:.4f}")
        elif isinstance(value, dict):
            shown = ", ".join(
                f"{k}: {v:.4f}" if isinstance(v, float) else f"{k}: {v}" for k, v in value.items()
            )
            print(f"{key}: {shown}")
        else:
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
