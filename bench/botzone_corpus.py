"""Build large Botzone-format files by renumbering the bundled sample's records (new match ids)."""

from __future__ import annotations

from pathlib import Path

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "botzone" / "sample.txt"


def sample_records(sample: Path = SAMPLE) -> list[list[str]]:
    """The sample's records as lists of lines (without the Match line's id)."""
    records: list[list[str]] = []
    current: list[str] = []
    for line in sample.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            if current:
                records.append(current)
                current = []
            continue
        current.append(line)
    if current:
        records.append(current)
    return records


def write_renumbered(path: Path, hands: int, sample: Path = SAMPLE, *, first: int = 0) -> Path:
    """Write ``hands`` records cycling through the sample, each under a fresh 24-hex match id
    (numbered from ``first``, so files written with different ``first`` never share a hand)."""
    records = sample_records(sample)
    with path.open("w", encoding="utf-8") as fh:
        for i in range(hands):
            body = records[i % len(records)]
            fh.write(f"Match {first + i:024x}\n")
            fh.write("\n".join(body[1:]))
            fh.write("\n\n")
    return path
