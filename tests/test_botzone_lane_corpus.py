"""A fixed corpus of mutated Botzone records, ingested through the fast lane and through the
reference parser alone: the same summaries, rejects and tables, file by file.

The corpus is generated from a fixed seed (the bundled sample's records and the reader tests'
quirky ones, each mutated line by line, then laid out with odd blank lines, CRLF, bad UTF-8 and
a huge line), so it pins the lane's behaviour on thousands of hostile records for every change.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from mjstats.formats.limits import InputLimits
from mjstats.store import SourceInput, batches, ingest_sources
from tests.test_botzone_lane import (
    _SAMPLE_RECORDS,
    _WORDS,
    DRAWN,
    GOOD,
    ROB_KONG,
    _dataset,
    _mutated,
)

SEED = 20261202
N_RECORDS = 3_000
_OP_NAMES = ["drop", "duplicate", "swap", "garble", "word", "ignore", "insert", "before_hu"]


def _record(rng: random.Random, i: int) -> bytes:
    """One record: a sample or quirky record under a fresh match id, mutated by 0-3 operations
    (a third left intact, so that most batches mix lane hands and reference ones)."""
    base = rng.choice([*_SAMPLE_RECORDS, GOOD, ROB_KONG, DRAWN])
    lines = base.split("\n")
    if lines[0].startswith("Match "):
        lines[0] = f"Match {i:024x}"
    record = "\n".join(lines)
    ops = [
        (rng.choice(_OP_NAMES), rng.randrange(301), rng.randrange(301), rng.choice(_WORDS))
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3]))
    ]
    data = _mutated(record, ops)
    kind = rng.randrange(40)
    if kind == 0:  # CRLF line ends
        data = data.replace(b"\n", b"\r\n")
    elif kind == 1:  # a byte that is not UTF-8 somewhere
        at = rng.randrange(len(data))
        data = data[:at] + b"\xff" + data[at:]
    elif kind == 2:  # a huge deal line (cut where a record limit applies)
        data = data.replace(b" Deal ", b" Deal " + b"W1 " * 20_000, 1)
    elif kind == 3:  # cut short
        data = data[: rng.randrange(len(data))] + b"\n"
    return data


def _corpus(rng: random.Random) -> bytes:
    """The records, each followed by one of a few layouts of blank and white space lines."""
    gaps = [b"\n", b"\n", b"\n", b"\n\n\n", b" \n", b"\t\n\n", b"\r\n", b""]
    return b"".join(_record(rng, i) + rng.choice(gaps) for i in range(N_RECORDS))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("corpus") / "mutated.txt"
    path.write_bytes(_corpus(random.Random(SEED)))
    return path


@pytest.mark.parametrize("max_record_bytes", [None, 20_000], ids=["default-limit", "20000-byte-limit"])
def test_mutated_corpus_ingests_the_same_through_both_paths(corpus, tmp_path, monkeypatch, max_record_bytes):
    limits = InputLimits() if max_record_bytes is None else InputLimits(max_record_bytes=max_record_bytes)
    inputs = [SourceInput(corpus, "botzone")]
    # odd batch and part sizes: runs of lane hands and reference hands, parts cut mid-batch
    fast = ingest_sources(inputs, tmp_path / "fast", batch_records=97, chunk_hands=331, limits=limits)
    monkeypatch.setattr(batches, "_FAST_LANES", {})
    slow = ingest_sources(inputs, tmp_path / "slow", batch_records=97, chunk_hands=331, limits=limits)
    assert json.dumps(fast.as_dict()) == json.dumps(slow.as_dict())
    assert fast.reject_samples == slow.reject_samples
    # the corpus stays hostile and mostly readable: both paths see many hands and many rejects
    assert fast.hands > N_RECORDS // 3 and fast.rejects > N_RECORDS // 5
    a, b = _dataset(tmp_path / "fast"), _dataset(tmp_path / "slow")
    assert a["sources"] == b["sources"]
    for name, files in a["tables"].items():
        assert [f for f, _ in files] == [f for f, _ in b["tables"][name]], name
        for (path, x), (_, y) in zip(files, b["tables"][name], strict=True):
            assert x.schema == y.schema, path
            assert x.equals(y), path
