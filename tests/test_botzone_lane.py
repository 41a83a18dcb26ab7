"""The Botzone ingest fast lane against the reference parser: the same batches (hands, rejects,
every table's rows and values) and the same datasets, on real records, faulted records and
records mutated by hypothesis."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjstats.formats.botzone import parse_record, split_records
from mjstats.formats.limits import input_limits
from mjstats.store import SourceInput, batches, botzone_lane, ingest_sources, writer
from mjstats.store.batches import ParsedBatch, batch_from_records
from mjstats.store.layout import current_version, manifest
from mjstats.store.schema import INGEST_TABLES
from tests.test_botzone_reader import GOOD

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "botzone" / "sample.txt"
SHARED_SAMPLE = Path("/work/shared/data/botzone/sample.txt")  # the real sample where present

_DEALS = "\n".join(GOOD.splitlines()[2:6])  # the reader tests' four deals

ROB_KONG = f"""Match bbbbbbbbbbbbbbbbbbbbbbbb
Wind 2
{_DEALS}
Player 0 Draw J1
Player 0 Play J1
Player 1 Peng J1 Ignore Player 3 Chi J1 ignore Player 2 PENG J1
Player 1 Play T9
Player 2 Chi B6
Player 2 Play W5
Player 3 Gang W5
Player 3 Draw J1
Player 3 AnGang W2
Player 3 Draw T8
Player 3 Play J1
Player 0 Draw W9
Player 0 Play W5
Player 1 Draw J1
Player 1 BuGang J1
Player 2 Hu J1 Ignore Player 0 Hu J1
Fan 9 抢杠和*1
Score 0 -9 9 0
"""

DRAWN = f"""Match cccccccccccccccccccccccc
Wind 3
{_DEALS}
Player 0 Draw W5
Player 0 Play W5
Player 1 Chi W4 Ignore Player 3 Peng W5
Player 1 Play T1
Huang
Score 0 0 0 0
"""


def _items(data: bytes) -> list:
    return list(split_records(io.BytesIO(data)))


def _reference(items: list, source: str = "src.txt") -> ParsedBatch:
    return batch_from_records((parse_record(r, s, source) for s, r in items), keep_raw=False)


def assert_same_batch(data: bytes) -> ParsedBatch:
    """Both lanes on ``data``: the same hands, rejects and tables (schemas and values)."""
    items = _items(data)
    expected = _reference(items)
    got = botzone_lane.parse_batch("src.txt", items)
    assert got.records == expected.records
    assert got.hands == expected.hands
    assert got.rejects == expected.rejects
    assert got.tables.keys() == expected.tables.keys()
    for key, tables in expected.tables.items():
        assert got.tables[key].keys() == tables.keys()
        for name, table in tables.items():
            assert got.tables[key][name].schema == table.schema, name
            assert got.tables[key][name].equals(table), (name, got.tables[key][name].to_pylist()[:3])
    return got


def _read_by_the_lane(record: str) -> bool:
    """Whether the fast lane reads the record itself (not through the reference parser)."""
    return botzone_lane._Lane("src.txt").add(record.encode(), 1) is not None


@pytest.mark.parametrize("path", [SAMPLE, SHARED_SAMPLE], ids=["bundled", "shared"])
def test_real_samples_are_read_by_the_lane_and_equal(path):
    if not path.exists():
        pytest.skip(f"{path} is not on this machine")
    data = path.read_bytes()
    batch = assert_same_batch(data)
    assert len(batch.hands) == 16 and not batch.rejects
    records = data.decode().split("\n\n")
    assert all(_read_by_the_lane(r.strip("\n") + "\n") for r in records if r.strip())


@pytest.mark.parametrize("record", [GOOD, ROB_KONG, DRAWN], ids=["self-drawn", "rob-kong", "draw"])
def test_quirks_are_read_by_the_lane_and_equal(record):
    # self-drawn Hu naming the discard, robbing a kong, Ignore clauses mid-hand and on the Hu
    # line (any case), every claim verb, an exhaustive draw
    assert _read_by_the_lane(record)
    batch = assert_same_batch(record.encode())
    assert len(batch.hands) == 1


def _read_as_a_block(record: str) -> bool:
    """Whether the lane keeps the record's action lines as a block (classified per batch)."""
    lane = botzone_lane._Lane("src.txt")
    return lane.add(record.encode(), 1) is not None and len(lane.middles) == 1


# ROB_KONG without its Ignore clauses mid-hand: its action lines are a block, its robbed kong
# resolved per batch; and its Hu on a discard (the payer: the latest discard's seat)
ROB_KONG_PLAIN = ROB_KONG.replace("b" * 24, "d" * 24).replace(
    " Ignore Player 3 Chi J1 ignore Player 2 PENG J1", ""
)
ON_DISCARD = ROB_KONG_PLAIN.replace("d" * 24, "e" * 24).replace("Player 1 BuGang J1", "Player 1 Play T5")


@pytest.mark.parametrize(
    ("record", "win"),
    [
        (GOOD, (True, None, None, 4)),  # self-drawn: the tile of the Draw before (W5)
        (ROB_KONG_PLAIN, (False, 1, "rob_kong", 31)),
        (ON_DISCARD, (False, 1, None, 31)),  # the latest discard's seat pays
        (DRAWN.replace(" Ignore Player 3 Peng W5", ""), None),
    ],
    ids=["self-drawn", "rob-kong", "on-discard", "draw"],
)
def test_plain_records_are_read_as_blocks_and_equal(record, win):
    assert _read_as_a_block(record)
    batch = assert_same_batch(record.encode() + b"\n" + ROB_KONG.encode() + b"\n" + record.encode())
    assert len(batch.hands) == 3 and not batch.rejects
    wins = batch.tables[("guobiao", "undated")]["wins"].to_pylist()
    got = [(w["self_drawn"], w["loser"], w["win_kind"], w["win_tile"]) for w in wins]
    mine = [] if win is None else [win]
    assert got == [*mine, (False, 1, "rob_kong", 31), *mine]  # ROB_KONG's between


def test_most_real_records_are_read_as_blocks():
    records = [r.strip("\n") + "\n" for r in SAMPLE.read_text().split("\n\n") if r.strip()]
    assert sum(map(_read_as_a_block, records)) >= len(records) // 2


@pytest.mark.parametrize(
    "line",
    [
        "Player 0 Drew W5", "Player 5 Draw W5", "Player 0 Draw W0", "Player 0 Draw\tW5",
        "Player 0 Draw  W5", "Player 0 Chi W55", "Player 0 AnGang W", "PlayerX0 Draw W5",
        "Player 0 Draw W5\x00", "Player 0 BuGanq W5", "Player 0 Draw w5",
    ],
)  # fmt: skip
def test_action_lines_of_a_plain_shape_that_do_not_match_are_the_reference_s(line):
    # the lane classifies a block's lines per batch; a failed check reads the batch line by line
    lines = GOOD.splitlines()
    bad = "\n".join([lines[0].replace("a" * 24, "e" * 24), *lines[1:6], line, *lines[6:]]) + "\n"
    data = GOOD.encode() + b"\n" + bad.encode() + b"\n" + ROB_KONG.encode()
    assert _read_as_a_block(bad)
    batch = assert_same_batch(data)
    assert len(batch.hands) + len(batch.rejects) == 3
    assert botzone_lane._parse_batch("src.txt", _items(data), strict=False) is None


def test_action_lines_are_classified_as_the_line_table_reads_them():
    # near misses of every kind (a byte changed, dropped or added) against the table's lookup
    rng = random.Random(18)
    keys = sorted(botzone_lane._LINE_CODE)
    alphabet = b"Player 0123 DrawPlyChiPengGAnBuWTBFJ45678\x00\xff\t"
    lines = []
    for _ in range(6_000):
        line = bytearray(rng.choice(keys))
        op = rng.randrange(4)
        if op == 1:
            line[rng.randrange(len(line))] = rng.choice(alphabet) if rng.random() < 0.8 else rng.choice(
                [b for b in range(256) if b != 10]
            )
        elif op == 2:
            del line[rng.randrange(len(line))]
        elif op == 3:
            line.insert(rng.randrange(len(line) + 1), rng.choice(alphabet))
        lines.append(bytes(line))
    for line in lines:
        got = botzone_lane._action_templates([line + b"\n"], 1)
        assert (None if got is None else int(got[0])) == botzone_lane._LINE_CODE.get(line), line
    good = [line for line in lines if line in botzone_lane._LINE_CODE]
    codes = botzone_lane._action_templates([line + b"\n" for line in good], len(good))
    assert codes is not None and codes.tolist() == [botzone_lane._LINE_CODE[line] for line in good]
    assert len(good) > 1_000 and len(lines) - len(good) > 3_000


def test_faulted_records_become_the_same_rejects():
    good = GOOD.splitlines()
    faults = [
        [*good[:7], "Player 0 Dance W5", *good[7:]],
        good[:8],
        [*good[:6], "Player 0 Draw X9", *good[7:]],
        [*good[:6], "Player 4 Draw W5", *good[7:]],
        [*good[:6], "Player 0 Draw W5 Ignore Player 1 Peng W5", *good[7:]],
        [*good[:6], "Player 0 Peng W5 Ignore Player 1 Peng", *good[7:]],
        [*good[:6], "Player 0 Peng W5 Ignore Player 1 Dance W5", *good[7:]],
        [*good[:5], *good[6:]],  # three deals
        [*good[:3], "Player 1 Deal W1 W2", *good[4:]],
        [*good[:9], "Score 1 2 3"],
        [*good[:9], f"Score {2**64} 0 0 0"],
        [*good[:8], f"Fan {2**40} 平和*1", good[9]],
        [*good[:8], "Fan 8 平和*x", good[9]],
        [*good[:8], "Fan 8 平和*0", good[9]],
        [*good[:8], "Fan 8 平和*99999", good[9]],
        [*good[:8], good[9]],  # no Fan line
        [*good, "Player 0 Draw W1"],  # a line after Score
        [*good[:8], "Player 1 Draw W1", *good[8:]],  # an action after the Hu
        [*good[:7], "Huang", *good[8:]],  # Fan after an exhaustive draw
        [good[0], "Wind 5", *good[2:]],
        ["Match", *good[1:]],
        [*good[:7], "Player 0 Hu", *good[8:]],
        [*good[:6], "Player 0  Draw  W5", *good[7:]],  # odd spacing: read by the reference
        [*good[:6], "Player 0 Draw W5\r", *good[7:]],
        [*good[:6], "Player\u30000 Draw W5", *good[7:]],
        [*good[:6], "Player 0 Draw W5", "Player 0 Play W5", "Player 1 Peng W5 ignore player 2 Hu W5",
         *good[6:]],
    ]  # fmt: skip
    records = [GOOD.replace("a" * 24, f"{i:024x}") for i in range(len(faults) + 1)]
    for i, lines in enumerate(faults):
        records.insert(2 * i + 1, "\n".join(lines).replace("a" * 24, f"f{i:023x}") + "\n")
    data = "\n".join(records).encode() + b"\xff\xfe garbage\n\nMatch x\nWind \xff\n"
    batch = assert_same_batch(data)
    assert len(batch.rejects) >= 20 and len(batch.hands) >= len(faults) + 1


def test_cut_records_and_duplicates_in_a_batch_are_the_same():
    long_record = "Match 0123456789abcdef01234567\nWind 0\nPlayer 0 Deal " + "W1 " * 3_000 + "\n"
    data = (GOOD + "\n" + long_record + "\n" + GOOD + "\n" + ROB_KONG).encode()
    with input_limits(max_record_bytes=4_096):
        assert_same_batch(data)


def _mutated(record: str, ops: list[tuple[str, int, int, str]]) -> bytes:
    lines = record.rstrip("\n").split("\n")
    for op, i, j, word in ops:
        n = len(lines)
        i, j = i % n, j % n
        words = lines[i].split(" ")
        if op == "drop":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "garble":
            lines[i] = lines[i][:j] + word + lines[i][j + 1 :]
        elif op == "word":  # a tile, seat, number or verb replaced
            words[j % len(words)] = word
            lines[i] = " ".join(words)
        elif op == "ignore":
            lines[i] += f" {word} Player {j % 5} {['Peng', 'HU', 'chi', 'gang', 'Dance'][j % 5]} W{j % 9 + 1}"
        elif op == "insert":
            lines.insert(i, word)
        elif op == "before_hu":  # a Draw or BuGang just before the Hu (self-drawn / robbed kong)
            hu = next((k for k, line in enumerate(lines) if " Hu " in line), None)
            if hu is not None:
                seat = lines[hu].split(" ")[1]
                other = str((int(seat) + 1) % 4) if seat in ("0", "1", "2", "3") else "0"
                extra = f"Player {seat} Draw {word}" if j % 2 else f"Player {other} BuGang {word}"
                lines.insert(hu, extra)
        if not lines:
            lines = ["Match"]
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape")


_SAMPLE_RECORDS = [
    r.strip("\n") + "\n" for r in SAMPLE.read_text(encoding="utf-8").split("\n\n") if r.strip()
]
_WORDS = [
    "W1", "T9", "J3", "F4", "X9", "W0", "w1", "H1", "0", "1", "3", "4", "-1", "01", "+5", "-8",
    "1e3", str(2**63), str(2**63 - 1), str(2**64), "9" * 30, "٣", "Ignore", "IGNORE", "ignor",
    "Huang", "Fan 8 平和*1", "Score 0 0 0 0", "Player 1 Hu W1", "Player 2 Deal W1", "",
    "  ", "\t", "\r", "\u3000", "\udcff", "Peng", "BuGang", "AnGang", "Gang", "Chi", "Hu", "Play",
]  # fmt: skip
_OPS = st.tuples(
    st.sampled_from(["drop", "duplicate", "swap", "garble", "word", "ignore", "insert", "before_hu"]),
    st.integers(0, 300),
    st.integers(0, 300),
    st.sampled_from(_WORDS),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([*_SAMPLE_RECORDS, GOOD, ROB_KONG, DRAWN]),
    st.lists(_OPS, min_size=1, max_size=3),
    st.sampled_from(_SAMPLE_RECORDS),
)
def test_mutated_records_give_the_same_batch(record, ops, neighbour):
    mutated = _mutated(record, ops)
    data = neighbour.encode() + b"\n" + mutated + b"\n" + ROB_KONG.encode() + b"\n" + mutated
    assert_same_batch(data)


def _dataset(folder: Path) -> dict:
    version = folder / current_version(folder)
    tables = {}
    for name in (*INGEST_TABLES, "rejects"):
        files = sorted((version / name).rglob("*.parquet"))
        tables[name] = [(str(f.relative_to(version)), pq.read_table(f)) for f in files]
    info = manifest(version)
    for source in info["sources"]:
        source.pop("path")
    return {"tables": tables, "sources": info["sources"]}


def test_ingest_with_and_without_the_lane_writes_the_same_dataset(tmp_path, monkeypatch):
    first = tmp_path / "a.txt"
    first.write_bytes(SAMPLE.read_bytes() + b"\n" + GOOD.encode() + b"\nMatch x\nWind 9\n\n" + DRAWN.encode())
    second = tmp_path / "b.txt"  # a hand of a.txt again (a duplicate) and new ones
    second.write_bytes(GOOD.encode() + b"\n" + ROB_KONG.encode())
    inputs = [SourceInput(first, "botzone"), SourceInput(second, "botzone")]
    fast = ingest_sources(inputs, tmp_path / "fast", batch_records=7, chunk_hands=9)
    monkeypatch.setattr(writer, "PARALLEL_MIN_BYTES", 0)  # the lane in worker processes too
    ingest_sources(inputs, tmp_path / "workers", jobs=2, batch_records=7, chunk_hands=9)
    monkeypatch.setattr(batches, "_FAST_LANES", {})
    slow = ingest_sources(inputs, tmp_path / "slow", batch_records=7, chunk_hands=9)
    assert json.dumps(fast.as_dict()) == json.dumps(slow.as_dict())
    assert fast.hands == 19 and fast.rejects == 2
    assert fast.reject_samples == slow.reject_samples
    b = _dataset(tmp_path / "slow")
    for a in (_dataset(tmp_path / "fast"), _dataset(tmp_path / "workers")):
        assert a["sources"] == b["sources"]
        for name, files in a["tables"].items():
            assert [f for f, _ in files] == [f for f, _ in b["tables"][name]], name
            for (_, x), (_, y) in zip(files, b["tables"][name], strict=True):
                assert x.equals(y), name


@pytest.mark.parametrize(
    "deal",
    [
        "Player 4 Deal W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4",  # seat
        "Player 0 Deak W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4",  # verb
        "Player 0 Deal W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 X4",  # a code
        "Player 0 Deal W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T0",
        "Player 0 Deal W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3\tT4",  # a separator
        "Player 0 Deal W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 \udcff\udcfe",  # not UTF-8 (same length)
        "player 0 Deal W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4",
    ],
)
def test_deal_lines_of_the_right_length_that_do_not_match_are_the_reference_s(deal):
    # the lane checks deal lines per batch; a failed check reads the batch again line by line
    lines = GOOD.splitlines()
    assert len(deal.encode("utf-8", "surrogateescape")) == len(lines[2])
    bad = "\n".join([lines[0].replace("a" * 24, "e" * 24), lines[1], deal, *lines[3:]]) + "\n"
    data = GOOD.encode() + b"\n" + bad.encode("utf-8", "surrogateescape") + b"\n" + ROB_KONG.encode()
    batch = assert_same_batch(data)
    assert len(batch.hands) + len(batch.rejects) == 3
    assert botzone_lane._parse_batch("src.txt", _items(data), strict=False) is None
