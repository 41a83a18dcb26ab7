"""Every stage on shared storage: the pipeline on a ``memory://`` and an S3 dataset equals the
local run's (the same tables, exports and report pages but for the dataset's path)."""

from __future__ import annotations

import io
import json
import sys
import uuid
from collections.abc import Iterator
from contextlib import redirect_stdout
from pathlib import Path

import pyarrow as pa
import pytest

from mjstats.cli import main
from mjstats.errors import DatasetError
from mjstats.store import open_dataset
from tests.conftest import SAMPLE

fsspec = pytest.importorskip("fsspec")

TABLES = ("hands", "events", "wins", "fans", "payments", "matches", "rejects",
          "audited_hands", "findings", "computed_wins", "computed_fans", "computed_payments")


@pytest.fixture(scope="module")
def sim_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small simulated canonical file: Guobiao hands with rule faults (audit findings) and one
    unreadable line (a reject)."""
    out = tmp_path_factory.mktemp("sim") / "gb.jsonl"
    assert main(["simulate", "--rules", "guobiao", "--hands", "30", "--seed", "5", "--faults", "0.2",
                 "--out", str(out)]) == 0
    with out.open("a", encoding="utf-8") as fh:
        fh.write('{"format": "mjstats-canonical", "broken\n')
    return out


def run_pipeline(dataset: str, work: Path, sim_file: Path) -> dict:
    """Ingest, audit, stats, export and report through the CLI; what each stage produced."""
    work.mkdir(parents=True, exist_ok=True)
    out: dict = {}
    with redirect_stdout(io.StringIO()):
        assert main(["ingest", str(SAMPLE), str(sim_file), "--out", dataset, "-q"]) == 0
        assert main(["ingest", str(SAMPLE), "--out", dataset, "-q"]) == 0  # idempotent: skipped
        assert main(["audit", dataset, "-q", "--jobs", "1"]) == 0
    with redirect_stdout(io.StringIO()) as stats:
        assert main(["stats", dataset, "--json", "-q"]) == 0
    out["stats"] = json.loads(stats.getvalue())
    with redirect_stdout(io.StringIO()):
        assert main(["export", dataset, "--out", str(work / "export.jsonl")]) == 0
        # one period page (all time) keeps the test fast; every page kind is still written
        assert main(["report", dataset, "--out", str(work / "report"), "-q", "--period", "all-time"]) == 0
    out["export"] = (work / "export.jsonl").read_bytes()
    out["pages"] = {
        p.relative_to(work / "report").as_posix(): p.read_bytes()
        for p in sorted((work / "report").rglob("*")) if p.is_file()
    }
    with open_dataset(dataset) as ds:
        out["version"] = ds.path.name
        out["tables"] = {name: ds.arrow(name) for name in TABLES}
        out["sources"] = [(s["name"], s["sha256"], s["hands"], s["rejects"]) for s in ds.manifest["sources"]]
    return out


@pytest.fixture(scope="module")
def local_run(tmp_path_factory: pytest.TempPathFactory, sim_file: Path) -> tuple[dict, str]:
    """The pipeline on a local dataset folder, once for the module: (results, dataset path)."""
    work = tmp_path_factory.mktemp("local")
    return run_pipeline(str(work / "ds"), work / "out", sim_file), str(work / "ds")


def assert_same_run(local: dict, remote: dict, local_path: str, url: str) -> None:
    assert remote["version"] == local["version"] == "v000002"
    assert remote["sources"] == local["sources"]
    for name in TABLES:
        assert remote["tables"][name].equals(local["tables"][name]), name
    assert local["tables"]["hands"].num_rows > 16 and local["tables"]["rejects"].num_rows > 0
    assert local["tables"]["findings"].num_rows > 0
    assert remote["stats"] == local["stats"]
    assert remote["export"] == local["export"]
    assert sorted(remote["pages"]) == sorted(local["pages"])
    for page, data in local["pages"].items():
        # the pages name the dataset they were made from; nothing else may differ
        assert remote["pages"][page].replace(url.encode(), b"DATASET") == data.replace(
            local_path.encode(), b"DATASET"
        ), page


@pytest.fixture()
def memory_url() -> Iterator[str]:
    url = f"memory://mjstats-pipeline-{uuid.uuid4().hex[:8]}/ds"
    yield url
    fs = fsspec.filesystem("memory")
    root = url.removeprefix("memory:/")
    if fs.exists(root.rsplit("/", 1)[0]):
        fs.rm(root.rsplit("/", 1)[0], recursive=True)


def test_the_pipeline_on_a_memory_url_equals_the_local_run(
    tmp_path: Path, sim_file: Path, memory_url: str, local_run: tuple[dict, str]
) -> None:
    local, local_ds = local_run
    remote = run_pipeline(memory_url, tmp_path / "remote-out", sim_file)
    assert_same_run(local, remote, local_ds, memory_url)
    # the snapshots readers took are gone once closed; the remote dataset holds only mjstats' objects
    fs = fsspec.filesystem("memory")
    root = memory_url.removeprefix("memory:/")
    names = {p.rsplit("/", 1)[-1] for p in fs.ls(root, detail=False)}
    assert names <= {"CURRENT", "v000001", "v000002", ".pins"}
    assert not fs.exists(f"{root}/LOCK")  # released


def test_a_url_reader_keeps_its_version_while_a_writer_publishes(
    sim_file: Path, memory_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MJSTATS_VERSION_GRACE", "0")
    assert main(["ingest", str(SAMPLE), "--out", memory_url, "-q"]) == 0
    reader = open_dataset(memory_url)
    before = reader.arrow("hands")
    assert main(["ingest", str(sim_file), "--out", memory_url, "-q"]) == 0  # v000002; v000001 collected
    assert not reader.is_current
    assert reader.arrow("hands").equals(before)  # its snapshot: the writer cannot break it
    fresh = reader.refresh()
    assert fresh.path.name == "v000002" and fresh.arrow("hands").num_rows > before.num_rows
    snapshot = reader.path
    reader.close()
    assert not snapshot.exists()
    fresh.close()
    root = memory_url.removeprefix("memory:/")
    assert not fsspec.filesystem("memory").exists(f"{root}/v000001")  # grace 0, no pin: collected


def test_a_failed_remote_ingest_leaves_the_live_version(
    tmp_path: Path, memory_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["ingest", str(SAMPLE), "--out", memory_url, "-q"]) == 0
    from mjstats.store import remote_ingest

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError("connection reset by peer")

    monkeypatch.setattr(remote_ingest, "_upload", broken)
    more = tmp_path / "more.txt"
    more.write_bytes(SAMPLE.read_bytes() + b"\n")  # new bytes: a source not yet in the dataset
    assert main(["ingest", str(more), "--out", memory_url, "-q"]) == 2
    assert "connection reset by peer" in capsys.readouterr().err
    root = memory_url.removeprefix("memory:/")
    fs = fsspec.filesystem("memory")
    assert fs.cat_file(f"{root}/CURRENT").strip() == b"v000001"
    assert not fs.exists(f"{root}/v000002") and not fs.exists(f"{root}/LOCK")


def test_a_remote_ingest_refuses_a_folder_of_other_objects(
    memory_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    fs = fsspec.filesystem("memory")
    root = memory_url.removeprefix("memory:/")
    fs.pipe_file(f"{root}/notes.txt", b"mine")
    assert main(["ingest", str(SAMPLE), "--out", memory_url, "-q"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("folder is not empty and is not an mjstats dataset (holds notes.txt); "
                         "choose a new or empty folder")
    assert fs.find(root) == [f"{root}/notes.txt"]


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("nosuchproto://bucket/ds", "nosuchproto://bucket/ds: fsspec knows no protocol nosuchproto://"),
        ("memory://mjstats-absent/ds", "memory://mjstats-absent/ds: no such dataset"),
    ],
)
@pytest.mark.parametrize("command", ["stats", "report", "export", "audit", "findings"])
def test_bad_urls_are_one_line_errors(
    tmp_path: Path, url: str, message: str, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [command, url]
    if command in ("report", "export"):
        args += ["--out", str(tmp_path / "out")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.strip().endswith(message), err


def test_a_protocol_without_its_package_names_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    from mjstats.store.fs import url_filesystem

    registry = sys.modules["fsspec.registry"]

    monkeypatch.setitem(registry.known_implementations, "gs", {
        "class": "mjstats_absent_module.GCSFileSystem", "err": "Please install gcsfs",
    })
    monkeypatch.delitem(registry._registry, "gs", raising=False)
    with pytest.raises(DatasetError, match=r"^gs://b/ds: no fsspec filesystem for gs:// is installed: "
                                           r"pip install gcsfs$"):
        url_filesystem("gs://b/ds")


def test_the_python_api_takes_urls(memory_url: str, sim_file: Path) -> None:
    from mjstats.audit import audit_dataset
    from mjstats.store import SourceInput, ingest_sources
    from mjstats.store.writer import write_derived

    summary = ingest_sources([SourceInput(sim_file, "canonical")], memory_url)
    assert summary.hands > 0
    audit = audit_dataset(memory_url, jobs=1)
    assert audit.hands == summary.hands
    write_derived(memory_url, {"notes": pa.table({"ruleset": ["fuzhou"], "n": [1]})})
    with open_dataset(memory_url) as ds:
        assert ds.path.name == "v000003"
        assert ds.table("notes").to_dict("records") == [{"n": 1, "ruleset": "fuzhou"}]
        assert ds.arrow("audited_hands").num_rows == summary.hands
        assert ds.root == memory_url and ds.root.name == "ds"
    assert not Path("memory:").exists()  # nothing went to a local folder named like the URL



def test_a_remote_reingest_finds_its_duplicates(memory_url: str, sample_path: Path, tmp_path: Path) -> None:
    """The same hands under another file (another SHA-256) into a URL dataset that holds them:
    each a duplicate reject, found from the stored keys read at the URL."""
    from mjstats.store import SourceInput, ingest_sources

    copy = tmp_path / "again.txt"
    copy.write_bytes(sample_path.read_bytes() + b"\n")
    ingest_sources([SourceInput(sample_path, "botzone")], memory_url)
    summary = ingest_sources([SourceInput(copy, "botzone")], memory_url)
    assert (summary.hands, summary.rejects) == (0, 16)


def test_decisions_on_a_url_equal_the_local_run(memory_url: str, tmp_path: Path) -> None:
    """``mjstats.decisions`` writes its table into the next version at a URL, as the audit does,
    and the table equals the one a local dataset of the same hands gets."""
    from mjstats.decision.stage import decisions
    from mjstats.store import SourceInput, ingest_sources

    local = tmp_path / "ds"
    for target in (str(local), memory_url):
        ingest_sources([SourceInput(SAMPLE, "botzone")], target)
        assert decisions(target, jobs=1).decisions > 0
    with open_dataset(local) as here, open_dataset(memory_url) as there:
        assert there.path.name == "v000002"
        assert there.table("decisions").equals(here.table("decisions"))
    assert not Path("memory:").exists()

# --- an S3-compatible server ----------------------------------------------------------------------
@pytest.fixture()
def s3_bucket(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A moto S3 server on a free local port, holding one new empty bucket: its name."""
    pytest.importorskip("s3fs", reason="the S3 test needs s3fs (pip install s3fs)")
    server_module = pytest.importorskip("moto.server", reason="the S3 test needs moto[server]")
    import s3fs

    server = server_module.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    for key, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                       "AWS_SESSION_TOKEN": "testing", "AWS_DEFAULT_REGION": "us-east-1",
                       "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost"}.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setitem(fsspec.config.conf, "s3", {"endpoint_url": endpoint, "skip_instance_cache": True})
    s3fs.S3FileSystem.clear_instance_cache()
    fs = s3fs.S3FileSystem(endpoint_url=endpoint, skip_instance_cache=True)
    bucket = f"mjstats-test-{uuid.uuid4().hex[:8]}"
    fs.mkdir(bucket)
    try:
        yield bucket
    finally:
        s3fs.S3FileSystem.clear_instance_cache()
        server.stop()


def test_the_pipeline_on_s3_equals_the_local_run(
    tmp_path: Path, sim_file: Path, s3_bucket: str, local_run: tuple[dict, str]
) -> None:
    local, local_ds = local_run
    url = f"s3://{s3_bucket}/datasets/ds"
    remote = run_pipeline(url, tmp_path / "remote-out", sim_file)
    assert_same_run(local, remote, local_ds, url)


def test_s3_errors_are_one_line(s3_bucket: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ingest", str(SAMPLE), "--out", "s3://mjstats-no-bucket/ds", "-q"]) == 2
    err = capsys.readouterr().err
    assert err == ("mjstats ingest: error: s3://mjstats-no-bucket/ds: bucket 'mjstats-no-bucket' "
                   "does not exist or cannot be reached\n")
    assert main(["stats", "s3://mjstats-no-bucket/ds"]) == 2
    assert capsys.readouterr().err == ("mjstats stats: error: s3://mjstats-no-bucket/ds: bucket "
                                       "'mjstats-no-bucket' does not exist or cannot be reached\n")
    assert main(["stats", f"s3://{s3_bucket}/absent"]) == 2
    assert capsys.readouterr().err == f"mjstats stats: error: s3://{s3_bucket}/absent: no such dataset\n"


def test_an_unreachable_store_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    """A store that does not answer (here: every call refused) fails each stage with one line."""
    from fsspec.implementations.memory import MemoryFileSystem
    from fsspec.registry import register_implementation

    class Unreachable(MemoryFileSystem):
        protocol = "mjstats-down"

        def cat_file(self, path: str, *args: object, **kwargs: object) -> bytes:
            raise ConnectionRefusedError(111, "Could not connect to the endpoint URL")

        def pipe_file(self, path: str, *args: object, **kwargs: object) -> None:
            raise ConnectionRefusedError(111, "Could not connect to the endpoint URL")

    register_implementation("mjstats-down", Unreachable, clobber=True)
    url = "mjstats-down://store/ds"
    assert main(["stats", url]) == 2
    assert capsys.readouterr().err == (
        f"mjstats stats: error: {url}: cannot read the dataset: "
        "[Errno 111] Could not connect to the endpoint URL\n"
    )
    assert main(["ingest", str(SAMPLE), "--out", url, "-q"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Could not connect to the endpoint URL" in err


def test_the_remote_collector_keeps_pinned_versions_and_others_objects(
    sim_file: Path, memory_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mjstats.store.remote_pins import pin_remote, unpin_remote

    monkeypatch.setenv("MJSTATS_VERSION_GRACE", "0")
    fs = fsspec.filesystem("memory")
    root = memory_url.removeprefix("memory:/")
    assert main(["ingest", str(SAMPLE), "--out", memory_url, "-q"]) == 0
    pin = pin_remote(fs, root, "v000001")  # a reader still copying v000001
    fs.pipe_file(f"{root}/v000009/notes.txt", b"not ours: no manifest, no staging marker")
    fs.pipe_file(f"{root}/.pins/notes.txt", b"not a pin name")
    assert main(["ingest", str(sim_file), "--out", memory_url, "-q"]) == 0
    assert fs.exists(f"{root}/v000001/manifest.json")  # pinned: kept past the grace period
    unpin_remote(fs, pin)
    assert main(["audit", memory_url, "-q"]) == 0
    assert not fs.exists(f"{root}/v000001") and not fs.exists(f"{root}/v000002")  # collected
    assert fs.cat_file(f"{root}/CURRENT").strip() == b"v000003"
    assert fs.cat_file(f"{root}/v000009/notes.txt").startswith(b"not ours")
    assert fs.exists(f"{root}/.pins/notes.txt")


def test_an_interrupted_remote_run_is_cleaned_up_by_the_next(
    sim_file: Path, memory_url: str
) -> None:
    fs = fsspec.filesystem("memory")
    root = memory_url.removeprefix("memory:/")
    assert main(["ingest", str(SAMPLE), "--out", memory_url, "-q"]) == 0
    # a run killed while filling v000002: its marker is there, its manifest is not
    fs.pipe_file(f"{root}/v000002/.mjstats-staging", b"")
    fs.pipe_file(f"{root}/v000002/hands/ruleset=guobiao/period=undated/part-999999-00000.parquet", b"half")
    with open_dataset(memory_url) as ds:
        assert ds.path.name == "v000001"  # readers follow CURRENT, never the half-made folder
    assert main(["ingest", str(sim_file), "--out", memory_url, "-q"]) == 0
    assert not fs.exists(f"{root}/v000002/hands/ruleset=guobiao/period=undated/part-999999-00000.parquet")
    assert not fs.exists(f"{root}/v000002/.mjstats-staging")
    with open_dataset(memory_url) as ds:
        assert ds.path.name == "v000002" and len(ds.manifest["sources"]) == 2


def test_a_second_remote_writer_waits_then_names_the_holder(
    memory_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import json as json_module
    import time

    fs = fsspec.filesystem("memory")
    root = memory_url.removeprefix("memory:/")
    assert main(["ingest", str(SAMPLE), "--out", memory_url, "-q"]) == 0
    holder = {"token": "x", "pid": 1, "host": "other-host", "command": "mjstats audit",
              "since": "2026-11-30T00:00:00+0000", "expires": time.time() + 60}
    fs.pipe_file(f"{root}/LOCK", json_module.dumps(holder).encode())
    assert main(["audit", memory_url, "-q", "--wait", "0.3"]) == 2
    err = capsys.readouterr().err
    assert "another writer is changing this dataset (pid 1 on other-host (mjstats audit))" in err
    assert fs.cat_file(f"{root}/CURRENT").strip() == b"v000001"


def test_a_killed_readers_snapshot_is_removed_by_the_next_opening(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """kill -9 leaves no chance to clean up: the next opening on the host removes the snapshots
    whose process is gone, and nothing else in the temporary folder."""
    import os
    import signal
    import subprocess
    import tempfile

    from mjstats.store.snapshot import remove_orphan_snapshots

    dataset = tmp_path / "ds"
    with redirect_stdout(io.StringIO()):
        assert main(["ingest", "-q", str(SAMPLE), "--out", str(dataset)]) == 0
    url = f"local://{dataset}"  # fsspec's local filesystem, read as a URL (file:// is a folder)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    others = [scratch / "mjstats-snapshot-notours", scratch / "user-folder"]
    for folder in others:
        folder.mkdir()
    killed = subprocess.run(
        [
            sys.executable,
            "-c",
            (
                "import os, signal\nfrom mjstats.store import open_dataset\n"
                f"ds = open_dataset({url!r})\nassert len(ds.table('hands')) > 0\n"
                "os.kill(os.getpid(), signal.SIGKILL)\n"
            ),
        ],
        env={**os.environ, "TMPDIR": str(scratch)},
        capture_output=True,
        text=True,
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    left = [p for p in scratch.iterdir() if p not in others]
    assert len(left) == 1 and left[0].name.startswith("mjstats-snapshot-")
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    with open_dataset(url) as ds:
        assert not left[0].exists()  # the orphan went when this reader opened
        mine = [p for p in scratch.iterdir() if p not in others]
        assert len(mine) == 1 and (mine[0] / ds.path.name / "manifest.json").is_file()
        assert remove_orphan_snapshots(scratch) == []  # a running reader's snapshot stays
    assert sorted(scratch.iterdir()) == sorted(others)
