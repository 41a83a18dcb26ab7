"""The Botzone block splitter's record cutting as it was before it found a block's newlines with
numpy (a regular-expression pass for lines starting with white space, Match lines counted, a
newline count per record): the oracle that tests/test_botzone_split.py holds the new one to."""

from __future__ import annotations

import re
from collections.abc import Iterator

from mjstats.formats.botzone import _split_lines
from mjstats.formats.limits import HEAD_BYTES, Cut, too_long

_SPACE_START = re.compile(rb"\n[ \t\r\x0b\x0c]")


def irregular(block: bytes) -> bool:
    """Whether cutting at "\\n\\n" could differ from the line splitter (the old checks)."""
    if block[:1].isspace() and block[:1] != b"\n":
        return True
    if _SPACE_START.search(block):
        return True
    framed = b"\n\n" + block  # the block starts on a line after a blank line (or the file's first)
    return framed.count(b"\nMatch ") != framed.count(b"\n\nMatch ")


def records_of_block(block: bytes, first: int, limit: int) -> Iterator[tuple[int, bytes | Cut]]:
    """The records of a block ending in a newline, lines numbered from ``first`` (the old cut)."""
    if irregular(block):
        yield from _split_lines((line + b"\n" for line in block.split(b"\n")[:-1]), first, limit, bom=False)
        return
    line = first
    for part in block.split(b"\n\n"):
        stripped = part.lstrip(b"\n")
        if stripped:
            record: bytes | Cut = stripped if stripped.endswith(b"\n") else stripped + b"\n"
            if len(record) > limit:
                record = Cut(record[:HEAD_BYTES], too_long(limit))
            yield line + len(part) - len(stripped), record
        line += part.count(b"\n") + 2
