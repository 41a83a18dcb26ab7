"""The tables the audit derives from a dataset, and their Arrow schemas.

One registry for the writer (``mjstats.audit``) and the reader: a derived table that was never
written, or that the audit left without a file (a clean audit has no findings), still reads with
these columns, so code joining on ``match_id`` works before and after any audit.
"""

from __future__ import annotations

import pyarrow as pa

__all__ = ["DERIVED_SCHEMAS", "read_schema"]

PARTITION_KEY = "ruleset"  # derived tables are Hive-partitioned by ruleset only

_str, _i32, _i8 = pa.string(), pa.int32(), pa.int8()

# The columns the audit produces per table (``ruleset`` included: the writer moves it into the
# partition folder name).
DERIVED_SCHEMAS: dict[str, pa.Schema] = {
    "findings": pa.schema(
        [
            ("match_id", _str),
            ("hand_no", _i32),
            ("seq", _i32),
            ("check", _str),
            ("severity", _str),
            ("expected", _str),
            ("recorded", _str),
            ("message", _str),
            ("ruleset", _str),
        ]
    ),
    "computed_wins": pa.schema(
        [
            ("match_id", _str),
            ("hand_no", _i32),
            ("win_no", pa.int16()),  # the recorded win rescored (0-based, as in wins)
            ("winner", _i8),
            ("discarder", _i8),
            ("win_tile", pa.int16()),
            ("self_drawn", pa.bool_()),
            ("fan_total", _i32),
            ("recorded_fan_total", _i32),
            ("meets_minimum", pa.bool_()),
            ("fourth_tile", pa.bool_()),
            ("kong_win", pa.bool_()),
            ("last_tile", pa.bool_()),
            ("ruleset", _str),
        ]
    ),
    "computed_fans": pa.schema(
        [
            ("match_id", _str),
            ("hand_no", _i32),
            ("win_no", pa.int16()),
            ("winner", _i8),
            ("name", _str),
            ("count", pa.int16()),
            ("points", _i32),
            ("ruleset", _str),
        ]
    ),
    "computed_payments": pa.schema(
        [
            ("match_id", _str),
            ("hand_no", _i32),
            ("win_no", pa.int16()),
            ("seat", _i8),
            ("score", pa.int64()),
            ("recorded_score", pa.int64()),
            ("ruleset", _str),
        ]
    ),
    "audited_hands": pa.schema(
        [
            ("match_id", _str),
            ("hand_no", _i32),
            ("ruleset", _str),
            ("profile", _str),
            ("status", _str),
            ("findings", _i32),
        ]
    ),
}


def read_schema(name: str) -> pa.Schema:
    """A derived table's schema as it reads back: the file columns, then the partition key
    (which is how a Hive-partitioned dataset orders them)."""
    schema = DERIVED_SCHEMAS[name]
    key = schema.field(PARTITION_KEY)
    return schema.remove(schema.get_field_index(PARTITION_KEY)).append(key)
