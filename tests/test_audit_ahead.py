"""``ingest --audit`` replays ahead (audit.audit_ahead, store.part_cache): while the ingest's last
part files are encoded on its writer thread, the audit's tasks are replayed, and the audit takes a
result only for the very table its part file was written from. The tables are the same as an
audit of its own, whatever happens ahead."""

from __future__ import annotations

import gzip
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import mjstats.audit as audit_module
from mjstats.cli import main
from mjstats.store import open_dataset, part_cache
from mjstats.store.part_cache import (
    WrittenPart,
    derived,
    keep_derived,
    keeping_parts,
    remember,
    while_writing,
    written,
)
from mjstats.store.schema import HAND_TABLES

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from botzone_corpus import write_renumbered  # noqa: E402

SAMPLE = ROOT / "data" / "botzone" / "sample.txt"
SIMULATED = ROOT / "data" / "sim" / "guobiao.jsonl.gz"


@pytest.fixture(scope="module")
def botzone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """1,200 Botzone hands: three audit tasks (500 hands at most each)."""
    return write_renumbered(tmp_path_factory.mktemp("botzone") / "b.txt", 1_200)


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first 300 simulated Guobiao hands, canonical records (the records' lane)."""
    path = tmp_path_factory.mktemp("sim") / "guobiao.jsonl"
    with gzip.open(SIMULATED, "rt", encoding="utf-8") as fh:
        path.write_text("".join(line for _, line in zip(range(300), fh, strict=False)), encoding="utf-8")
    return path


def _tables(dataset: Path) -> dict[str, bytes]:
    """Every file of the live version but the manifest, by path: the bytes written."""
    version = dataset / (dataset / "CURRENT").read_text().strip()
    return {str(p.relative_to(version)): p.read_bytes() for p in sorted(version.rglob("*.parquet"))}


def _audit_rows(dataset: Path) -> dict[str, list[dict[str, Any]]]:
    version = dataset / (dataset / "CURRENT").read_text().strip()
    return {
        folder.name: [r for f in sorted(folder.rglob("*.parquet")) for r in pq.read_table(f).to_pylist()]
        for folder in sorted(version.iterdir())
        if folder.is_dir() and folder.name not in HAND_TABLES and folder.name != "rejects"
    }


class _Replays:
    """Counts the replays (``audit_hands`` calls) made before and after the ingest commits."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, fail_ahead: bool = False) -> None:
        self.ahead = 0
        self.audit = 0
        self.fail_ahead = fail_ahead
        self.committed = False
        real = audit_module.audit_hands

        def counted(*args: Any, **kwargs: Any) -> Any:
            if self.committed:
                self.audit += 1
            else:
                self.ahead += 1
                if self.fail_ahead:
                    raise RuntimeError("a replay ahead went wrong")
            return real(*args, **kwargs)

        real_audit = audit_module.audit_dataset

        def audit_dataset(*args: Any, **kwargs: Any) -> Any:
            self.committed = True  # the audit proper starts once the ingest's version is live
            return real_audit(*args, **kwargs)

        monkeypatch.setattr(audit_module, "audit_hands", counted)
        monkeypatch.setattr(audit_module, "audit_dataset", audit_dataset)


@pytest.mark.parametrize("fmt", ["botzone", "canonical"])
def test_replayed_ahead_and_the_same_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str, botzone: Path, simulated: Path
) -> None:
    source = botzone if fmt == "botzone" else simulated
    separate = tmp_path / "separate"
    assert main(["ingest", "-q", "--format", fmt, str(source), "--out", str(separate)]) == 0
    assert main(["audit", "-q", str(separate)]) == 0
    replays = _Replays(monkeypatch)
    together = tmp_path / "together"
    assert main(["ingest", "-q", "--format", fmt, str(source), "--out", str(together), "--audit"]) == 0
    with open_dataset(separate) as dataset:  # the tasks the audit cuts
        tasks, _ = audit_module.plan_run(dataset.path, dataset.parts(), None, None, 5_000)
    assert len(tasks) == (3 if fmt == "botzone" else 6)  # 1,200 hands; 300 in six months
    assert replays.ahead == len(tasks)
    assert replays.audit == 0  # every task taken from the replays ahead
    assert _tables(together) == _tables(separate)  # byte for byte, audit tables included


def test_a_failed_replay_ahead_is_done_again_by_the_audit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    separate = tmp_path / "separate"
    assert main(["ingest", "-q", "--format", "botzone", str(SAMPLE), "--out", str(separate)]) == 0
    assert main(["audit", "-q", str(separate)]) == 0
    replays = _Replays(monkeypatch, fail_ahead=True)
    together = tmp_path / "together"
    assert main(["ingest", "-q", "--format", "botzone", str(SAMPLE), "--out", str(together), "--audit"]) == 0
    assert replays.ahead == 1 and replays.audit > 0
    assert _tables(together) == _tables(separate)


def test_nothing_ahead_into_a_dataset_that_held_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, simulated: Path
) -> None:
    """The audit then cuts its tasks over every part, old ones included: no guess is made."""
    dataset = tmp_path / "ds"
    assert main(["ingest", "-q", "--format", "canonical", str(simulated), "--out", str(dataset)]) == 0
    replays = _Replays(monkeypatch)
    assert main(["ingest", "-q", "--format", "botzone", str(SAMPLE), "--out", str(dataset), "--audit"]) == 0
    assert replays.ahead == 0 and replays.audit > 0
    rows = _audit_rows(dataset)
    assert main(["audit", "-q", str(dataset)]) == 0
    assert _audit_rows(dataset) == rows


def test_nothing_ahead_for_a_pool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, botzone: Path) -> None:
    replays = _Replays(monkeypatch)
    dataset = tmp_path / "ds"
    args = ["ingest", "-q", "--format", "botzone", str(botzone), "--out", str(dataset), "--audit"]
    assert main([*args, "--jobs", "2"]) == 0
    assert replays.ahead == 0  # the pool's workers replay (the parent's audit_hands is not called)


def _part(tmp_path: Path, n: int) -> tuple[Path, pa.Table]:
    path = tmp_path / "hands.parquet"
    table = pa.table({"x": pa.array(range(n), pa.int64())})
    pq.write_table(table, path)
    return path, table


def test_the_callback_runs_once_on_the_parts_handed_over(tmp_path: Path) -> None:
    seen: list[tuple[list[WrittenPart], bool]] = []
    part = WrittenPart("guobiao", "undated", "part-1.parquet", {})
    written(part)  # outside the block: nothing kept
    with keeping_parts(ahead=lambda parts, whole: seen.append((parts, whole))):
        while_writing(True)  # nothing handed over: not called
        written(part)
        while_writing(False)
        while_writing(True)  # already given
    assert seen == [([part], False)]
    with keeping_parts():  # no callback: nothing to keep
        written(part)
        while_writing(True)


def test_what_was_derived_lives_with_the_block_and_an_error_drops_it(tmp_path: Path) -> None:
    def failing(parts: list[WrittenPart], whole: bool) -> None:
        keep_derived("k", 1)
        raise ValueError("broken")

    keep_derived("k", 0)  # outside the block: not kept
    assert derived("k") is None
    with keeping_parts(ahead=failing):
        keep_derived("j", 2)
        written(WrittenPart("guobiao", "undated", "p", {}))
        while_writing(True)  # the error is the callback's: what it derived is dropped
        assert derived("k") is None and derived("j") is None
        keep_derived("k", 3)
        assert derived("k") == 3
    assert derived("k") is None
    with keeping_parts(ahead=lambda parts, whole: (_ for _ in ()).throw(KeyboardInterrupt)):
        written(WrittenPart("guobiao", "undated", "p", {}))
        with pytest.raises(KeyboardInterrupt):  # Ctrl-C is never swallowed
            while_writing(True)


def test_a_result_ahead_is_taken_only_for_the_table_its_file_was_written_from(tmp_path: Path) -> None:
    version = tmp_path / "v000001"
    sub = version / "hands" / "ruleset=guobiao" / "period=undated"
    sub.mkdir(parents=True)
    path, table = _part(tmp_path, 5)
    path = path.rename(sub / "part-1.parquet")
    task = (str(version), "guobiao", "undated", "part-1.parquet", 0, 5)
    result = ({}, None, None, 5)
    with keeping_parts():
        remember(path, table)
        keep_derived(("audit", *task[1:]), (table, result))
        assert audit_module._done_ahead(task) is result
        assert audit_module._done_ahead((*task[:4], 0, 4)) is None  # other bounds
        assert audit_module._done_ahead(("memory://ds/v000001", *task[1:])) is None  # a URL
        keep_derived(("audit", *task[1:]), (pa.table({"x": [1]}), result))  # from another table
        assert audit_module._done_ahead(task) is None
        keep_derived(("audit", *task[1:]), (table, result))
        pq.write_table(pa.table({"x": pa.array(range(6), pa.int64())}), path)  # the file replaced
        assert audit_module._done_ahead(task) is None


def test_the_python_calls_of_the_readme(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, botzone: Path
) -> None:
    """``ingest_sources`` then ``audit_dataset`` inside ``keeping_parts(ahead=audit_ahead(None))``:
    the replays are made ahead, the audit tables those of a separate audit."""
    from mjstats.audit import audit_ahead, audit_dataset
    from mjstats.store import SourceInput, ingest_sources

    separate = tmp_path / "separate"
    ingest_sources([SourceInput(botzone, "botzone")], separate)
    audit_dataset(separate)
    replays = _Replays(monkeypatch)
    dataset = tmp_path / "ds"
    with keeping_parts(ahead=audit_ahead(None)):
        ingest_sources([SourceInput(botzone, "botzone")], dataset)
        replays.committed = True
        summary = audit_dataset(dataset)
        kept = part_cache._kept.derived  # (table, result, seconds) by task, as audit_ahead kept
        ahead = sum(value[2] for key, value in kept.items() if key[0] == "audit")
    assert replays.ahead == 3 and replays.audit == 0
    assert summary.hands == 1_200
    assert ahead > 0 and summary.seconds >= ahead  # the replays ahead counted in its time
    assert _tables(dataset) == _tables(separate)


def test_the_audit_plans_a_part_just_written_from_memory(
    botzone: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Within ``keeping_parts`` the audit's plan of a part this process wrote reads neither its
    footer nor its match ids from the file, and is the plan read from disk."""
    from mjstats.store import SourceInput, ingest_sources

    with keeping_parts():
        ingest_sources([SourceInput(botzone, "botzone")], tmp_path / "ds")
        with open_dataset(tmp_path / "ds") as data:
            version, parts = data.path, data.parts()
            opened: list[object] = []
            real = audit_module.pq.ParquetFile

            def counted(*args: object, **kwargs: object) -> object:
                opened.append(args)
                return real(*args, **kwargs)

            monkeypatch.setattr(audit_module.pq, "ParquetFile", counted)
            from_memory = audit_module.plan_tasks(version, parts, 2, None)
            assert opened == []
    with open_dataset(tmp_path / "ds") as data:
        from_disk = audit_module.plan_tasks(data.path, data.parts(), 2, None)
    assert opened and from_memory == from_disk and len(from_disk) == 3
