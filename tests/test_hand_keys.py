"""The ingest's duplicate key (store.hand_keys): 128 bits, the same in every process, distinct for
distinct hands; a re-ingest into an existing dataset still finds its duplicates, without pandas."""

from __future__ import annotations

import os
import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from mjstats.store.hand_keys import hand_key, hand_keys

_ids = st.text(max_size=30)  # any text, lone surrogates included (a JSON record may hold one)
_nos = st.integers(-(2**40), 2**40)


@given(_ids, _nos, _ids, _nos)
def test_distinct_hands_have_distinct_keys(a: str, i: int, b: str, j: int) -> None:
    assert (hand_key(a, i) == hand_key(b, j)) == ((a, i) == (b, j))
    assert 0 <= hand_key(a, i) < 2**128


def test_the_keys_of_columns_are_the_keys_of_their_pairs() -> None:
    ids, nos = ["m1", "m1", "m2", "\ud800"], [0, 1, 0, 3]
    assert hand_keys(ids, nos) == {hand_key(m, n) for m, n in zip(ids, nos, strict=True)}
    assert len(hand_keys(ids, nos)) == 4


def test_a_key_is_the_same_in_every_process() -> None:
    """Unlike ``hash``, whose seed changes per process: the duplicates an ingest finds cannot
    depend on the run."""
    code = "from mjstats.store.hand_keys import hand_key; print(hand_key('61602cb45ddc087351c04358', 2))"
    seen = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                       env={**os.environ, "PYTHONHASHSEED": seed}).stdout.strip()
        for seed in ("1", "2", "random")
    }
    assert seen == {str(hand_key("61602cb45ddc087351c04358", 2))}


def test_a_reingest_finds_its_duplicates_without_importing_pandas(tmp_path, sample_path) -> None:
    """The same records under another file name, into the dataset that holds them: every hand a
    duplicate reject; the existing keys are read without ``pq.read_table`` (pyarrow.dataset and
    pandas, ~0.4 s of the command)."""
    copy = tmp_path / "again.txt"
    copy.write_bytes(sample_path.read_bytes() + b"\n")  # another file (its SHA-256), the same hands
    ds = tmp_path / "ds"
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from mjstats.store import SourceInput, ingest_sources\n"
        f"ingest_sources([SourceInput(Path({str(sample_path)!r}), 'botzone')], Path({str(ds)!r}))\n"
        f"s = ingest_sources([SourceInput(Path({str(copy)!r}), 'botzone')], Path({str(ds)!r}))\n"
        "print(s.hands, s.rejects, 'pandas' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "16", "False"]
