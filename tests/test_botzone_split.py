"""The Botzone block splitter (records cut a megabyte at a time, a block's newlines found with
numpy) against the splitter it replaced (tests/botzone_split_oracle.py) and the line-by-line
reference: the same records, cuts and first-line numbers for any layout of blank lines, white
space lines, Match lines without a blank line before them, CRLF, bad UTF-8 and long records."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjstats.formats import botzone
from tests import botzone_split_oracle as oracle

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "botzone" / "sample.txt"
_RECORDS = [r.strip("\n") for r in SAMPLE.read_text(encoding="utf-8").split("\n\n") if r.strip()]
_SHORT = sorted(_RECORDS, key=len)[:3]  # real records, whole (the shortest, to keep examples small)

# pieces of a file: whole records, their first lines (a record cut short), and odd lines
_LINES = [
    "", "", "", " ", "\t", "  \t", "\r", "\x0b", "\x0c", "\u3000", "Match 0123456789abcdef01234567",
    "Match", "Matchless", " Match x", "Wind 1", "Player 0 Draw W1", "Huang", "Score 0 0 0 0",
    "Fan 8 平和*1", "x\udcff", "\ufeffMatch y",
]  # fmt: skip
_PIECES = st.one_of(
    st.sampled_from(_SHORT),
    st.builds(lambda r, k: "\n".join(r.split("\n")[:k]), st.sampled_from(_SHORT), st.integers(1, 12)),
    st.sampled_from(_LINES),
)


def _file(pieces: list[str], newline: bytes, final_newline: bool, bom: bool) -> bytes:
    text = "\n".join(pieces) + ("\n" if final_newline and pieces else "")
    data = text.encode("utf-8", "surrogateescape").replace(b"\n", newline)
    return (b"\xef\xbb\xbf" if bom else b"") + data


def _old_split(data: bytes, limit: int | None, monkeypatch: pytest.MonkeyPatch) -> list:
    """What split_records gave before: the same block loop, the old cut of each block."""
    with monkeypatch.context() as m:
        m.setattr(botzone, "_records_of_block",
                  lambda block, first, lim: (list(oracle.records_of_block(block, first, lim)),
                                             block.count(b"\n")))  # fmt: skip
        return list(botzone.split_records(io.BytesIO(data), limit))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(_PIECES, max_size=30),
    st.sampled_from([b"\n", b"\r\n"]),
    st.booleans(),
    st.booleans(),
    st.sampled_from([1 << 20, 1, 7, 64, 300, 2_000]),
    st.sampled_from([None, 40, 250, 1_500]),
)
def test_blank_line_layouts_cut_as_before(monkeypatch, pieces, newline, final_newline, bom, block, limit):
    data = _file(pieces, newline, final_newline, bom)
    monkeypatch.setattr(botzone, "_BLOCK", block)
    got = list(botzone.split_records(io.BytesIO(data), limit))
    assert got == _old_split(data, limit, monkeypatch)
    assert all(type(line) is int for line, _ in got)
    # no record cut: the block splitter is the line splitter (but for a byte-order mark split
    # across read blocks, which it keeps, as before: real blocks are a megabyte)
    if limit is None and not (bom and block < 3):
        assert got == list(botzone._split_lines(botzone._as_bytes(io.BytesIO(data)), 1))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_PIECES, min_size=1, max_size=30), st.integers(1, 10_000), st.sampled_from([30, 500, 1 << 24])
)
def test_a_block_gives_the_old_records_and_line_count(pieces, first, limit):
    block = _file(pieces, b"\n", True, False)
    expected = (list(oracle.records_of_block(block, first, limit)), block.count(b"\n"))
    assert botzone._records_of_block(block, first, limit) == expected


def test_the_sample_renumbered_is_cut_regularly_and_as_before(monkeypatch):
    # every block of a large regular file takes the fast cut (none is irregular), as before
    data = ("\n\n".join(_RECORDS * 40) + "\n").encode()
    seen = []
    monkeypatch.setattr(botzone, "_split_lines", lambda *a: seen.append(a) or iter(()))
    monkeypatch.setattr(botzone, "_BLOCK", 64 << 10)
    got = list(botzone.split_records(io.BytesIO(data)))
    assert not seen and len(got) == 16 * 40
    monkeypatch.undo()
    monkeypatch.setattr(botzone, "_BLOCK", 64 << 10)
    assert got == _old_split(data, None, monkeypatch)


def test_a_second_byte_order_mark_stays_in_its_line() -> None:
    """A file opening with two byte-order marks, the second on a line a Match line follows (the
    block goes through the line splitter): only the file's own mark is dropped, as line by line."""
    data = b"\xef\xbb\xbf\xef\xbb\xbfMatch y\n" + _SHORT[0].encode("utf-8") + b"\n"
    got = list(botzone.split_records(io.BytesIO(data)))
    assert got == list(botzone._split_lines(botzone._as_bytes(io.BytesIO(data)), 1))
    assert got[0] == (1, b"\xef\xbb\xbfMatch y\n")
