"""The published JSON Schemas (mjstats/schemas/canonical-v1.json, -v2.json) agree with the
reader: each accepts every golden and generated hand of its version and rejects the
structurally bad golden lines."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings

from mjstats.formats.canonical import EVENT_KEYS, HAND_KEYS, RESULT_KEYS, hand_to_json
from mjstats.records import EventKind, WinKind
from tests.strategies import hands

jsonschema = pytest.importorskip("jsonschema")

DATA = Path(__file__).parent / "data" / "canonical"
SCHEMAS = {
    v: json.loads(resources.files("mjstats").joinpath(f"schemas/canonical-v{v}.json").read_text("utf-8"))
    for v in (1, 2)
}
SCHEMA = SCHEMAS[2]  # the newest: the one the code's key lists follow
VALIDATORS = {v: jsonschema.Draft202012Validator(schema) for v, schema in SCHEMAS.items()}


class _ByVersion:
    """Validates a line with the schema of its own ``v`` (the newest for anything else)."""

    @staticmethod
    def _for(obj: object) -> jsonschema.Draft202012Validator:
        v = obj.get("v") if isinstance(obj, dict) else None
        return VALIDATORS[v] if v in VALIDATORS and type(v) is int else VALIDATORS[2]

    def validate(self, obj: object) -> None:
        self._for(obj).validate(obj)

    def is_valid(self, obj: object) -> bool:
        return self._for(obj).is_valid(obj)


VALIDATOR = _ByVersion()
# Rules the reader checks that JSON Schema cannot express: an ISO 8601 timestamp, and the
# decoder's limits (nesting depth); a bare NaN is not JSON at all to strict parsers.
SCHEMA_BLIND = {"started_at: not an ISO 8601 timestamp"}


@pytest.mark.parametrize("version", [1, 2])
def test_schema_is_valid_draft_2020_12(version: int) -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMAS[version])
    assert SCHEMAS[version]["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize("name", ["guobiao.jsonl", "fuzhou.jsonl"])
def test_schema_accepts_golden_files(name: str) -> None:
    for line in (DATA / name).read_text("utf-8").splitlines():
        VALIDATOR.validate(json.loads(line))


@settings(max_examples=150, deadline=None)
@given(hands())
def test_schema_accepts_generated_hands(hand) -> None:
    VALIDATOR.validate(json.loads(hand_to_json(hand)))


def test_schema_rejects_the_bad_golden_lines() -> None:
    expected = {r["line"]: r["error"] for r in map(
        json.loads, (DATA / "bad.rejects.jsonl").read_text("utf-8").splitlines())}
    lines = (DATA / "bad.jsonl").read_bytes().split(b"\n")
    checked = 0
    for number, error in expected.items():
        try:
            obj = json.loads(lines[number - 1].decode("utf-8"))
        except (ValueError, RecursionError):
            continue  # not JSON (or not UTF-8): nothing for a schema to judge
        if any(error.startswith(blind) for blind in SCHEMA_BLIND):
            assert VALIDATOR.is_valid(obj)
            continue
        assert not VALIDATOR.is_valid(obj), (number, error)
        checked += 1
    assert checked >= 25


def test_schema_lists_the_same_fields_and_values_as_the_code() -> None:
    assert list(SCHEMA["properties"]) == list(HAND_KEYS)
    assert list(SCHEMA["$defs"]["event"]["properties"]) == list(EVENT_KEYS)
    assert list(SCHEMA["$defs"]["result"]["properties"]) == list(RESULT_KEYS)
    assert SCHEMA["$defs"]["event"]["properties"]["k"]["enum"] == [k.value for k in EventKind]
    assert SCHEMA["$defs"]["event"]["properties"]["win"]["enum"] == [w.value for w in WinKind]


def test_version_2_schema_accepts_several_wins_and_rejects_the_bad_v2_lines() -> None:
    lines = (DATA / "bad-v2.jsonl").read_text("utf-8").splitlines()
    VALIDATOR.validate(json.loads(lines[0]))  # two wins on one discard
    # the reader's arithmetic checks are beyond a schema: a ledger that does not add up, a
    # win_no past the last win
    blind = ("result.payments: payments sum to", "result.payments[0].win_no: 5 names no win")
    for row in map(json.loads, (DATA / "bad-v2.rejects.jsonl").read_text("utf-8").splitlines()):
        obj = json.loads(lines[row["line"] - 1])
        assert VALIDATOR.is_valid(obj) == row["error"].startswith(blind), row
