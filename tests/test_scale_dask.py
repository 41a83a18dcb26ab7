"""The audit on Dask and over fsspec URLs gives the process-pool audit's tables, row for row.

The dataset: the Botzone sample, faulted copies of its hands, and simulated Guobiao and Fuzhou
hands with injected faults, ingested in small part files so that tasks, part files and output
files all come several to a table. Skipped where Dask is not installed (``mjstats[dask]``),
except the checks that Dask stays optional.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjstats.audit import AUDIT_SCHEMAS, AuditSummary, audit_dataset
from mjstats.errors import MjstatsError
from mjstats.formats.botzone import read_botzone
from mjstats.records import Hand
from mjstats.store import SourceInput, ingest_sources, open_dataset
from tests.conftest import SAMPLE
from tests.faults import FAULTS

SIM_HANDS = {"guobiao": 160, "fuzhou": 160}  # whole matches: 10 of 16, 20 of 8


def _simulated(ruleset: str) -> list[Hand]:
    from mjstats.sim import SimConfig, simulate_with_faults

    config = SimConfig(ruleset, SIM_HANDS[ruleset], seed=7)
    return [hand for hand, _ in simulate_with_faults(config, 0.15)]


@pytest.fixture(scope="module")
def base_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("scale")
    sample = list(read_botzone(SAMPLE))
    faulted = [
        replace(f, match_id=f"fault{k}-{f.match_id}")
        for k, fault in enumerate(FAULTS[:4])
        for hand in sample
        if isinstance(hand, Hand) and (f := fault.make(hand)) is not None
    ]
    inputs = [SourceInput(SAMPLE, "botzone", read_botzone)]
    for name, hands in (("faulted", faulted), *((r, _simulated(r)) for r in SIM_HANDS)):
        marker = tmp / f"{name}.src"  # a distinct file per source (the manifest keys on SHA-256)
        marker.write_text(name, encoding="utf-8")
        inputs.append(SourceInput(marker, "canonical", lambda _, h=hands: iter(h)))
    out = tmp / "ds"
    ingest_sources(inputs, out, chunk_hands=60)
    return out


@pytest.fixture
def datasets(base_dataset: Path, tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """Two copies of the dataset: the process-pool reference (audited) and one to audit."""
    reference, other = tmp_path / "reference", tmp_path / "other"
    shutil.copytree(base_dataset, reference)
    shutil.copytree(base_dataset, other)
    yield reference, other


@pytest.fixture(scope="module")
def client() -> Iterator[object]:
    pytest.importorskip("distributed")
    from mjstats.distributed import connect

    with connect("local:2") as c:
        yield c


def _audit_tables(path: Path) -> dict[str, pa.Table]:
    ds = open_dataset(path)
    return {name: ds.arrow(name) for name in AUDIT_SCHEMAS}


def _same(summary: AuditSummary, other: AuditSummary) -> None:
    assert (summary.hands, summary.clean, summary.statuses, summary.findings_by_check, summary.rejects) == (
        other.hands,
        other.clean,
        other.statuses,
        other.findings_by_check,
        other.rejects,
    )


def _assert_tables_equal(got: dict[str, pa.Table], want: dict[str, pa.Table]) -> None:
    for name in AUDIT_SCHEMAS:
        g, w = got[name], want[name]
        assert g.column_names == w.column_names, name
        assert g.num_rows == w.num_rows, name
        # same rows in the same order (partition keys compared as plain strings)
        assert g.to_pandas().astype(str).values.tolist() == w.to_pandas().astype(str).values.tolist(), name


def test_local_cluster_gives_the_process_pool_tables(datasets: tuple[Path, Path], client: object) -> None:
    from mjstats.distributed import audit_distributed

    reference, other = datasets
    want = audit_dataset(reference, jobs=2, batch_hands=40)
    got = audit_distributed(other, scheduler=client, batch_hands=40, flush_hands=150, window=3)
    _same(got, want)
    assert want.findings_total > 0 and {"fuzhou", "guobiao"} <= set(
        open_dataset(reference).table("audited_hands")["ruleset"]
    )
    tables = _audit_tables(other)
    _assert_tables_equal(tables, _audit_tables(reference))
    # several output files per table: the tables were written as the results came in
    assert len(list((open_dataset(other).path / "audited_hands").rglob("*.parquet"))) > 2
    assert open_dataset(other).manifest["tables"] == open_dataset(reference).manifest["tables"]


def test_workers_read_a_file_url_through_fsspec(datasets: tuple[Path, Path], client: object) -> None:
    from mjstats.distributed import audit_distributed

    reference, other = datasets
    want = audit_dataset(reference, jobs=1)
    got = audit_distributed(other.as_uri(), scheduler=client)
    _same(got, want)
    _assert_tables_equal(_audit_tables(other), _audit_tables(reference))


def test_memory_url_dataset_is_read_and_written_through_fsspec(
    datasets: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    fsspec = pytest.importorskip("fsspec")
    from mjstats.distributed import audit_distributed
    from mjstats.store.remote import open_remote

    reference, other = datasets
    fs = fsspec.filesystem("memory")
    url = "memory://mjstats-test-scale/ds"
    fs.rm("/mjstats-test-scale", recursive=True) if fs.exists("/mjstats-test-scale") else None
    fs.put(str(other), "/mjstats-test-scale/ds", recursive=True)
    want = audit_dataset(reference, jobs=1)
    for grace in ("600", "0"):  # a rerun replaces the tables in a new version
        monkeypatch.setenv("MJSTATS_VERSION_GRACE", grace)
        got = audit_distributed(url, flush_hands=100)
        _same(got, want)
        if grace == "600":  # the superseded version stays for readers during the grace period
            assert fs.exists("/mjstats-test-scale/ds/v000001/manifest.json")
    remote = open_remote(url)
    listed = [p for p in fs.ls("/mjstats-test-scale/ds", detail=False) if "/." not in p]
    assert remote.path.endswith("v000003") and listed == [  # past it, old versions are collected
        "/mjstats-test-scale/ds/CURRENT",
        "/mjstats-test-scale/ds/v000003",
    ]
    assert not fs.exists("/mjstats-test-scale/ds/LOCK")  # the lock is released
    _assert_tables_equal({n: remote.arrow(n) for n in AUDIT_SCHEMAS}, _audit_tables(reference))
    assert remote.arrow("hands").num_rows == open_dataset(reference).arrow("hands").num_rows
    fs.rm("/mjstats-test-scale", recursive=True)


def test_a_failed_remote_write_leaves_the_live_version(datasets: tuple[Path, Path]) -> None:
    fsspec = pytest.importorskip("fsspec")
    from mjstats.store.remote import new_remote_version, open_remote

    _, other = datasets
    fs = fsspec.filesystem("memory")
    fs.put(str(other), "/mjstats-test-fail/ds", recursive=True)
    url = "memory://mjstats-test-fail/ds"
    with pytest.raises(RuntimeError), new_remote_version(url) as (_, target, _manifest):
        assert fs.exists(f"{target}/hands")
        raise RuntimeError("stopped")
    assert open_remote(url).path.endswith("v000001")
    assert [p for p in fs.ls("/mjstats-test-fail/ds", detail=False) if "/." not in p] == [
        "/mjstats-test-fail/ds/CURRENT",
        "/mjstats-test-fail/ds/v000001",
    ]
    fs.rm("/mjstats-test-fail", recursive=True)


def test_dask_stays_optional(monkeypatch: pytest.MonkeyPatch) -> None:
    code = "import sys, mjstats.audit, mjstats.distributed; sys.exit('distributed' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    from mjstats.distributed import connect

    with pytest.raises(MjstatsError, match=r"pip install mjstats\[dask\]"), connect("local:2"):
        pass


def test_cli_scheduler_option(datasets: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    from mjstats.cli import main

    reference, other = datasets
    assert main(["audit", str(reference), "--jobs", "1", "-q"]) == 0
    want = capsys.readouterr().out.splitlines()[1:]  # the summary without the timing line
    assert main(["audit", str(other), "--scheduler", "local:2", "-q"]) == 0
    got = capsys.readouterr().out.splitlines()
    assert "2 jobs" in got[0] and got[1:] == want
    _assert_tables_equal(_audit_tables(other), _audit_tables(reference))
    assert main(["audit", str(other), "--scheduler", "local:0", "-q"]) == 2
    assert main(["audit", str(other), "--scheduler", "local:2", "--jobs", "2", "-q"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and "local:N needs a worker count" in err[0] and "--jobs" in err[1]


def test_cli_without_dask_says_how_to_install(
    sample_dataset_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mjstats.cli import main

    monkeypatch.setitem(sys.modules, "distributed", None)
    assert main(["audit", str(sample_dataset_path), "--scheduler", "local:2", "-q"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["mjstats audit: error: running on a Dask scheduler needs Dask: pip install mjstats[dask]"]


@pytest.fixture
def sample_dataset_path(tmp_path: Path) -> Path:
    out = tmp_path / "sample"
    ingest_sources([SourceInput(SAMPLE, "botzone", read_botzone)], out)
    return out


def test_rejects_are_counted_in_process(tmp_path: Path) -> None:
    from mjstats.distributed import audit_distributed

    broken = tmp_path / "broken.txt"
    broken.write_text(SAMPLE.read_text(encoding="utf-8") + "\nMatch 0123456789abcdef01234567\nWind 9\n")
    ingest_sources([SourceInput(broken, "botzone", read_botzone)], tmp_path / "ds")
    summary = audit_distributed(str(tmp_path / "ds"))
    assert (summary.hands, summary.rejects, summary.jobs) == (16, 1, 1)
    assert "Wind" in summary.reject_errors[0]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    tasks=st.lists(st.lists(st.sampled_from(["fuzhou", "guobiao"]), max_size=7), max_size=6),
    flush=st.integers(1, 12),
)
def test_streamed_files_read_back_in_task_order(tmp_path: Path, tasks: list[list[str]], flush: int) -> None:
    """Whatever the flush size, each table reads back as the tasks' rows in order, per ruleset."""
    import pyarrow.dataset as pads

    from mjstats.audit import PartWriter

    folder = tmp_path / f"w{uuid.uuid4().hex}"

    def put(rel: str, table: pa.Table) -> None:
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(table, folder / rel)

    writer = PartWriter(put, flush, AUDIT_SCHEMAS)
    rows: list[tuple[str, str, int]] = []
    for t, rulesets in enumerate(tasks):
        hands = {
            "match_id": [f"m{t}"] * len(rulesets),
            "hand_no": list(range(len(rulesets))),
            "ruleset": rulesets,
            "profile": ["p"] * len(rulesets),
            "status": ["clean"] * len(rulesets),
            "findings": [0] * len(rulesets),
        }
        rows.extend(zip(rulesets, hands["match_id"], hands["hand_no"], strict=True))
        tables = {n: s.empty_table() for n, s in AUDIT_SCHEMAS.items()}
        tables["audited_hands"] = pa.Table.from_pydict(hands, schema=AUDIT_SCHEMAS["audited_hands"])
        writer.add(tables, len(rulesets))
    writer.flush()
    want = sorted(rows, key=lambda r: r[0])  # stable: task order within each ruleset
    if not want:
        assert not folder.exists()
        return
    got = pads.dataset(folder / "audited_hands", format="parquet", partitioning="hive").to_table()
    assert list(zip(got.column("ruleset").to_pylist(), got.column("match_id").to_pylist(),
                    got.column("hand_no").to_pylist(), strict=True)) == want  # fmt: skip
