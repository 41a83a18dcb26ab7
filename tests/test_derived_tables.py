"""The audit's derived tables read with their schema's columns whether the audit wrote rows,
wrote none (a clean audit has no findings file) or never ran."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from mjstats.audit import AUDIT_SCHEMAS, audit_dataset
from mjstats.errors import DatasetError
from mjstats.store import SourceInput, ingest_sources, open_dataset
from mjstats.store.derived_schema import DERIVED_SCHEMAS, read_schema
from tests.test_report_data import BOTZONE_SAMPLE


@pytest.fixture(scope="module")
def sample_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("derived") / "ds"
    ingest_sources([SourceInput(BOTZONE_SAMPLE, "botzone")], path)
    return path


def test_the_audit_writes_the_registered_tables() -> None:
    assert AUDIT_SCHEMAS is DERIVED_SCHEMAS
    assert set(DERIVED_SCHEMAS) == {
        "findings", "computed_wins", "computed_fans", "computed_payments", "audited_hands"
    }  # fmt: skip


def test_unaudited_dataset_reads_every_derived_table_with_its_columns(sample_dataset: Path) -> None:
    ds = open_dataset(sample_dataset)
    for name in DERIVED_SCHEMAS:
        assert not ds.has_table(name)
        table = ds.arrow(name)
        assert table.num_rows == 0 and table.schema == read_schema(name), name
        assert list(ds.table(name).columns) == read_schema(name).names
    assert ds.arrow("findings", columns=["match_id", "seq"]).schema.names == ["match_id", "seq"]
    with pytest.raises(DatasetError, match="no table 'nonsense'"):
        ds.arrow("nonsense")


def test_clean_audit_reads_findings_with_columns(sample_dataset: Path, tmp_path: Path) -> None:
    import shutil

    path = tmp_path / "ds"
    shutil.copytree(sample_dataset, path, symlinks=True)
    summary = audit_dataset(path, jobs=1)
    assert summary.findings_by_check == {}  # the Botzone sample replays cleanly
    ds = open_dataset(path)
    assert ds.has_table("findings")  # the folder exists, without a part file
    findings = ds.table("findings")
    assert list(findings.columns) == read_schema("findings").names and findings.empty
    merged = findings.merge(ds.table("audited_hands")[["match_id", "hand_no"]], on=["match_id", "hand_no"])
    assert merged.empty
    # tables with rows read back exactly as the registry says (types and column order)
    for name in ("computed_wins", "computed_fans", "computed_payments", "audited_hands"):
        table = ds.arrow(name)
        assert table.num_rows > 0 and table.schema == read_schema(name), name


def test_read_schema_puts_the_partition_key_last() -> None:
    schema = read_schema("audited_hands")
    assert schema.names[-1] == "ruleset" and schema.field("ruleset").type == pa.string()
    assert set(schema.names) == set(DERIVED_SCHEMAS["audited_hands"].names)
