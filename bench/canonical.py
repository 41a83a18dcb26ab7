"""Canonical JSON Lines throughput: read and write, beside a bare ``json.loads`` / ``json.dumps``.

Run: ``python bench/canonical.py [--repeat 3]``. Two corpora: the Botzone sample's hands
renumbered to 2,000, and the bundled simulated Guobiao hands (data/sim/guobiao.jsonl.gz). Each
is written once to a plain file; then reading (``read_canonical``, every check) and writing
(``write_canonical``) are timed in CPU seconds, best of ``--repeat``, against the bare JSON
parse / dump of the same lines measured in the same run (what any reader must at least pay).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from botzone_corpus import write_renumbered

from mjstats.formats.botzone import read_botzone
from mjstats.formats.canonical import read_canonical, write_canonical
from mjstats.records import Hand

ROOT = Path(__file__).resolve().parent.parent


def _best(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def _measure(name: str, hands: list[Hand], tmp: Path, repeat: int) -> None:
    path = tmp / f"{name}.jsonl"
    write_canonical(hands, path)
    lines = path.read_bytes().splitlines()[1:]  # without the header line
    n = len(hands)
    read = _best(lambda: sum(1 for r in read_canonical(path) if isinstance(r, Hand)), repeat)
    parse = _best(lambda: [json.loads(line) for line in lines], repeat)
    write = _best(lambda: write_canonical(hands, tmp / "out.jsonl"), repeat)
    objects = [json.loads(line) for line in lines]
    dump = _best(lambda: [json.dumps(o, ensure_ascii=False) for o in objects], repeat)
    size = path.stat().st_size / n / 1000
    print(f"{name:<10} {n:>6,} hands  {size:4.1f} kB/line  "
          f"read {n / read:7,.0f}/s ({read / parse:4.2f}x json.loads)  "
          f"write {n / write:7,.0f}/s ({write / dump:4.2f}x json.dumps)", flush=True)


def main() -> None:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        botzone = [r for r in read_botzone(write_renumbered(tmp / "bz.txt", 2000)) if isinstance(r, Hand)]
        sim = ROOT / "data" / "sim" / "guobiao.jsonl.gz"
        simulated = [r for r in read_canonical(sim) if isinstance(r, Hand)]
        _measure("botzone", botzone, tmp, args.repeat)
        _measure("simulated", simulated, tmp, args.repeat)


if __name__ == "__main__":
    main()
