"""Reading canonical lines from every kind of source; bad lines become rejects and reading goes on."""

from __future__ import annotations

import io
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjstats.errors import RecordError
from mjstats.formats import canonical
from mjstats.formats.canonical import EVENT_KEYS, hand_from_json, hand_to_json, read_canonical
from mjstats.records import Hand, Reject
from tests.strategies import hands, random_hand

LINES = [hand_to_json(random_hand(random.Random(seed))) for seed in range(3)]
TEXT = "".join(line + "\n" for line in LINES)


def test_reads_a_path_with_its_name(tmp_path) -> None:
    path = tmp_path / "hands.jsonl"
    path.write_text(TEXT, encoding="utf-8")
    items = list(read_canonical(path))
    assert len(items) == 3 and all(isinstance(h, Hand) for h in items)
    assert [hand_to_json(h) for h in items] == [
        hand_to_json(h) for h in (hand_from_json(x, source=str(path), line=i)
                                  for i, x in enumerate(LINES, 1))]
    assert list(read_canonical(str(path))) == items


@pytest.mark.parametrize(
    "make",
    [
        lambda: TEXT.splitlines(),  # lines without endings
        lambda: TEXT.splitlines(keepends=True),
        lambda: io.StringIO(TEXT),
        lambda: io.BytesIO(TEXT.encode("utf-8")),
        lambda: [x.encode("utf-8") for x in TEXT.splitlines(keepends=True)],
        lambda: io.BytesIO(TEXT.replace("\n", "\r\n").encode("utf-8")),  # CRLF
        lambda: io.BytesIO(b"\xef\xbb\xbf" + TEXT.encode("utf-8")),  # a BOM before line 1
    ],
)
def test_reads_lines_and_streams(make) -> None:
    items = list(read_canonical(make(), name="src"))
    assert [type(x) for x in items] == [Hand] * 3
    assert items == [hand_from_json(x, source="src", line=1) for x in LINES]


def test_default_names() -> None:
    stream = io.BytesIO(TEXT.encode("utf-8"))
    stream.name = "upload.jsonl"
    line = LINES[0]
    obj = json.loads(line)
    obj.pop("source", None)
    bare = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    (from_list,) = read_canonical([bare])
    assert from_list.provenance.source == "<lines>"
    stream = io.BytesIO(bare.encode("utf-8"))
    stream.name = "upload.jsonl"
    (from_stream,) = read_canonical(stream)
    assert (from_stream.provenance.source, from_stream.provenance.line) == ("upload.jsonl", 1)


def test_blank_lines_are_skipped_and_line_numbers_kept() -> None:
    source = ["", LINES[0], "   ", "\n", "{oops", LINES[1], "\t\n"]
    items = list(read_canonical(source, name="src"))
    assert [type(x) for x in items] == [Hand, Reject, Hand]
    assert items[1].line == 5 and items[1].raw == "{oops" and items[1].source == "src"


def test_bad_utf8_is_one_reject_and_reading_goes_on() -> None:
    data = LINES[0].encode() + b"\n" + b'{"v":1,"match_id":"m\xc3(","x":1}\n' + LINES[1].encode()
    items = list(read_canonical(io.BytesIO(data), name="src"))
    assert [type(x) for x in items] == [Hand, Reject, Hand]
    reject = items[1]
    assert reject.line == 2 and reject.error.startswith("invalid UTF-8 at byte 21")
    assert "\\xc3" in reject.raw  # the raw text keeps the bad byte visible


def test_unknown_version_is_rejected_with_a_clear_message() -> None:
    obj = json.loads(LINES[0])
    obj["v"] = 3
    obj["new_field_of_v3"] = {"anything": True}
    line = json.dumps(obj)
    (reject,) = read_canonical([line], name="future.jsonl")
    assert isinstance(reject, Reject)
    assert reject.error == ("unsupported canonical format version 3: this mjstats reads "
                            "versions 1 to 2; upgrade mjstats to read this line")
    assert reject.match_id == obj["match_id"] and reject.raw == line
    assert str(reject).startswith(f"future.jsonl:1 (match {obj['match_id']}): unsupported")


@pytest.mark.parametrize("version", [0, -1, "1", 1.0, None, True])
def test_other_versions_are_rejected(version) -> None:
    obj = json.loads(LINES[0])
    obj["v"] = version
    (reject,) = read_canonical([json.dumps(obj)])
    assert isinstance(reject, Reject) and reject.error.startswith(("unsupported", "v: expected"))


def test_hand_from_json_raises_record_error_with_location() -> None:
    obj = json.loads(LINES[0])
    obj["events"][3]["t"] = "Z9"
    with pytest.raises(RecordError) as info:
        hand_from_json(json.dumps(obj), source="f.jsonl", line=12)
    err = info.value
    assert (err.source, err.line, err.match_id) == ("f.jsonl", 12, obj["match_id"])
    assert "events[3].t" in err.message and "'Z9'" in err.message


def test_reject_after_a_hand_does_not_leak_between_lines() -> None:
    """A reject's match id comes from its own line, never from the line before."""
    items = list(read_canonical([LINES[0], "[]", '{"match_id": 5}']))
    assert [x.match_id for x in items[1:]] == [None, None]


def test_duplicate_events_keys_do_not_crash() -> None:
    # JSON allows repeated keys; the decoder keeps the last one (documented in docs/format.md)
    line = LINES[0].replace('{"k":"deal"', '{"k":"draw","k":"deal"', 1)
    (hand,) = read_canonical([line])
    assert isinstance(hand, Hand)


@pytest.mark.parametrize(
    ("mutate", "error"),
    [
        (lambda o: o["events"][4].update(t=["W1"]), "events[4].t: not a tile code"),
        (lambda o: o["events"][4].update(k=["draw"]), "events[4].k: expected a string"),
        (lambda o: o["events"][4].update(claim=["chi"]), "events[4].claim: expected one of"),
        (lambda o: o["events"][4].update(l=0), "events[4].l: must be >= 1, got 0"),
        (lambda o: o["events"][4].update(s=None), "events[4].s: null is not allowed"),
        (lambda o: o.update(gold=None), "gold: null is not allowed"),
        (lambda o: o["result"].update(winner=None), "result.winner: null is not allowed"),
        (lambda o: o.update(dice=[0, 7]), "dice[0]: 0 out of range 1..6"),
        (lambda o: o.update(dice=[]), "dice: expected a non-empty list"),
        (lambda o: o.update(wall=["W1", "X"]), "wall[1]: not a tile code"),
        (lambda o: o.update(source={"file": "a", "line": 0}), "source.line: must be >= 1"),
        (lambda o: o.update(source={"file": "a", "line": 1, "raw": "x"}),
         "source: unknown field 'raw'"),
        (lambda o: o["result"].update(fans=[{"count": 2}]),
         "result.fans[0]: missing required field 'name'"),
        (lambda o: o.update(hand_no=-1), "hand_no: must be >= 0, got -1"),
        (lambda o: o.update(styles=["a", "b", "c", 4]), "styles[3]: expected a string"),
        (lambda o: o.update(gold="gold"), "gold: not a tile code"),
    ],
)
def test_field_errors_name_the_field(mutate, error) -> None:
    obj = json.loads(LINES[0])
    mutate(obj)
    (item,) = read_canonical([json.dumps(obj, ensure_ascii=False)])
    if error is None:
        assert isinstance(item, Hand)
    else:
        assert isinstance(item, Reject), item
        assert item.error.startswith(error), item.error


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 9) | st.sampled_from(
        ["W1", "J3", "H8", "w1", "X", "", "chi", "hu", "draw", "deal", "rob_kong", "1"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("kst"), inner,
                                                                 max_size=2),
    max_leaves=4,
)


@settings(max_examples=300, deadline=None)
@given(hands(), st.data())
def test_fast_and_detailed_event_checks_agree(hand: Hand, data) -> None:
    """The fast event loop is an optimisation: it must accept exactly what _event accepts."""
    events = json.loads(hand_to_json(hand))["events"]
    for _ in range(data.draw(st.integers(1, 3))):
        index = data.draw(st.integers(0, len(events) - 1))
        key = data.draw(st.sampled_from([*EVENT_KEYS, "x"]))
        if data.draw(st.booleans()) and key in events[index]:
            del events[index][key]
        else:
            events[index][key] = data.draw(JSON_VALUES)
    try:
        fast = canonical._events_fast(events)
    except Exception:  # any failure means "let the detailed checks decide"
        fast = None
    try:
        detailed = tuple(canonical._event(e, i) for i, e in enumerate(events))
    except canonical._Invalid:
        detailed = None
    if fast is not None:
        assert fast == detailed
        assert [e._asdict() for e in fast] == [e._asdict() for e in detailed]


def test_sources_that_are_not_lines_are_a_type_error() -> None:
    with pytest.raises(TypeError, match="BytesIO"):
        list(read_canonical(TEXT.encode("utf-8")))
    with pytest.raises(TypeError, match="line 2 is int"):
        list(read_canonical([LINES[0], 5]))
