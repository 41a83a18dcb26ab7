"""Decision quality (mjstats.decision): every discard judged, checked against an independent
brute force (PyMahjongGB), on simulated bots of known styles, and as properties."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjstats.decision import hand_decisions
from mjstats.integrity.useful import useful_kinds
from mjstats.records import EventKind, Hand
from mjstats.rulesets.guobiao.incremental import guobiao_discard_shanten, guobiao_useful
from mjstats.rulesets.guobiao.shape import GuobiaoShape
from mjstats.tiles import ALL_KINDS

NAMES = [ALL_KINDS[k].botzone for k in range(34)]


def _sample_hands(sample_hands: list) -> list[Hand]:
    return [h for h in sample_hands if isinstance(h, Hand)]


# --- an independent route: replay the events by hand, ask PyMahjongGB for every discard ---------
def _brute_force(hand: Hand, mahjong_gb) -> list[tuple]:
    """(seq, seat, shanten_before, shanten_after, useful_kept, useful_best, best_discards,
    danger) per discard, from a plain walk of the events, PyMahjongGB's shanten and useful tiles
    (regular form and seven pairs, the forms mjstats judges) and the Guobiao wait function."""
    from mjstats.rulesets.guobiao.waits import waits

    concealed = [Counter() for _ in range(4)]
    exposed = [0] * 4  # melds set down
    meld_list: list[list[tuple[str, str, int]]] = [[] for _ in range(4)]
    hidden_kongs = [Counter() for _ in range(4)]
    seen = Counter()  # unclaimed discards + exposed meld tiles
    out = []
    last_discard = None

    def shanten_and_useful(tiles: Counter, melds: int) -> tuple[int, set[int]]:
        hand_names = tuple(NAMES[t] for t, n in sorted(tiles.items()) for _ in range(n))
        forms = [mahjong_gb.RegularShanten(hand_names)]
        if melds == 0:
            forms.append(mahjong_gb.SevenPairsShanten(hand_names))
        least = min(s for s, _ in forms)
        useful = set()
        for s, tiles_useful in forms:
            if s == least:
                useful |= {NAMES.index(name) for name in tiles_useful}
        return least, useful

    for ev in hand.events:
        kind, seat = ev.kind, ev.seat
        if kind is EventKind.DEAL:
            concealed[seat].update(int(t) for t in ev.tiles)
        elif kind is EventKind.DRAW:
            concealed[seat][int(ev.tile)] += 1
        elif kind is EventKind.DISCARD:
            tile = int(ev.tile)
            held = concealed[seat]
            unseen = [
                max(0, 4 - held[k] - seen[k] - 4 * hidden_kongs[seat][k]) for k in range(34)
            ]
            options = {}
            for t in sorted(k for k, n in held.items() if n):
                held[t] -= 1
                s, useful = shanten_and_useful(held, exposed[seat])
                options[t] = (s, sum(unseen[k] for k in useful))
                held[t] += 1
            best = min(s for s, _ in options.values())
            most = max(u for s, u in options.values() if s == best)
            names = " ".join(NAMES[t] for t, (s, u) in sorted(options.items()) if s == best and u == most)
            s_after, u_after = options[tile]
            kept = u_after if s_after == best else 0
            danger = 0  # other seats whose hand (any winning form, by shape) waits on the tile
            for other in range(4):
                if other != seat:
                    tiles = [NAMES[t] for t, n in sorted(concealed[other].items()) for _ in range(n)]
                    danger += tile in {int(w) for w in waits(tiles, meld_list[other])}
            out.append((ev.seq, seat, best, s_after, kept, most, names, danger))
            held[tile] -= 1
            seen[tile] += 1
            last_discard = tile
        elif kind is EventKind.CHI:
            middle, took = int(ev.tile), last_discard
            for t in (middle - 1, middle, middle + 1):
                if t != took:
                    concealed[seat][t] -= 1
                    seen[t] += 1
            exposed[seat] += 1
            meld_list[seat].append(("CHI", NAMES[middle], took - middle + 2))
        elif kind in (EventKind.PENG, EventKind.GANG):
            n = 2 if kind is EventKind.PENG else 3
            concealed[seat][int(ev.tile)] -= n
            seen[int(ev.tile)] += n
            exposed[seat] += 1
            meld_list[seat].append((kind.value.upper(), NAMES[int(ev.tile)], 1))
        elif kind is EventKind.ANGANG:
            concealed[seat][int(ev.tile)] -= 4
            hidden_kongs[seat][int(ev.tile)] += 1
            exposed[seat] += 1
            meld_list[seat].append(("GANG", NAMES[int(ev.tile)], 0))
        elif kind is EventKind.BUGANG:
            concealed[seat][int(ev.tile)] -= 1
            seen[int(ev.tile)] += 1
            meld_list[seat] = [("GANG", m[1], m[2]) if m == ("PENG", NAMES[int(ev.tile)], 1) else m
                               for m in meld_list[seat]]
    return out


def test_two_botzone_hands_match_an_independent_brute_force(sample_hands):
    mahjong_gb = pytest.importorskip("MahjongGB")
    hands = _sample_hands(sample_hands)
    # the first hand (chows and pungs in it), and the next with a chow (melds change the counts)
    with_chi = next(h for h in hands[1:] if any(e.kind is EventKind.CHI for e in h.events))
    dangerous = 0
    for hand in (hands[0], with_chi):
        rows = [r for r in hand_decisions(hand) if r.kind == "discard"]
        dangerous += sum(r.danger > 0 for r in rows)
        ours = [(r.seq, r.seat, r.shanten_before, r.shanten_after, r.useful_kept, r.useful_best,
                 r.best_discards, r.danger) for r in rows]  # fmt: skip
        assert ours == _brute_force(hand, mahjong_gb)
    assert dangerous > 0  # the danger column is compared on discards that were dangerous
    # pinned: what the two hands' discards add up to (computed by the brute force above)
    first = [r for r in hand_decisions(hands[0]) if r.kind == "discard"]
    assert len(first) == len(_brute_force(hands[0], mahjong_gb)) > 20


def test_pinned_numbers_of_the_first_sample_hand(sample_hands):
    hand = _sample_hands(sample_hands)[0]
    rows = hand_decisions(hand)
    discards = [r for r in rows if r.kind == "discard"]
    # the first discard (seat 0 after its first draw): from the brute force above
    first = discards[0]
    assert (first.seq, first.seat, first.shanten_before, first.shanten_after) == (5, 0, 5, 5)
    assert (first.useful_kept, first.useful_best, first.best_discards) == (91, 99, "F4 J1 J3")
    assert first.flags == ""  # 5 shanten: the useful-tile shortfall is not flagged
    flagged = Counter(f for r in discards for f in r.flags.split(",") if f)
    # pinned from the run checked against the brute force above
    assert len(discards) == 48
    assert flagged == Counter({"inefficient": 2, "shanten_loss": 2, "deal_in": 1})
    assert (sum(r.useful_kept for r in discards), sum(r.useful_best for r in discards)) == (1149, 1304)


# --- properties ----------------------------------------------------------------------------------
def _random_counts(rng: random.Random, size: int) -> tuple[int, ...]:
    wall = [k for k in range(34) for _ in range(4)]
    counts = [0] * 34
    for t in rng.sample(wall, size):
        counts[t] += 1
    return tuple(counts)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**9), melds=st.integers(0, 3))
def test_incremental_shanten_equals_the_engine(seed, melds):
    rng = random.Random(seed)
    hand = _random_counts(rng, 13 - 3 * melds)
    assert guobiao_useful(hand, melds) == useful_kinds(hand, melds, None, "guobiao")
    full = list(_random_counts(rng, 14 - 3 * melds))
    kinds = [t for t in range(34) if full[t]]
    shape = GuobiaoShape()
    expected = {}
    for t in kinds:
        full[t] -= 1
        expected[t] = shape.shanten(full, melds)
        full[t] += 1
    assert guobiao_discard_shanten(tuple(full), melds, kinds) == expected


def _simulated(ruleset: str, seed: int, hands: int = 2, players: str | None = None) -> list[Hand]:
    from mjstats.sim.matches import SimConfig, parse_players, simulate

    config = SimConfig(ruleset, hands, seed=seed, players=parse_players(players, ruleset))
    return list(simulate(config))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), ruleset=st.sampled_from(["guobiao", "fuzhou", "sichuan"]))
def test_rows_are_consistent_with_their_numbers(seed, ruleset):
    for hand in _simulated(ruleset, seed, hands=1):
        rows = hand_decisions(hand)
        # a hand won before the first discard (Fuzhou: the dealer wins on the gold's reveal,
        # seed 13978) has no decision to judge
        discards = any(e.kind is EventKind.DISCARD for e in hand.events)
        assert rows or not discards, "a hand with discards has decisions"
        for r in rows:
            flags = set(r.flags.split(",")) - {""}
            assert r.flags == ",".join(sorted(flags))
            assert r.kind in ("discard", "claim", "pass_claim", "pass_win")
            if r.kind == "discard" and r.shanten_before is not None:
                assert r.shanten_after >= r.shanten_before
                assert 0 <= r.useful_kept <= r.useful_best
                assert ("shanten_loss" in flags) == (r.shanten_after > r.shanten_before)
                if "shanten_loss" in flags:
                    assert "inefficient" in flags and r.useful_kept == 0
                if r.shanten_before == 0:
                    assert ("inefficient" in flags) == (
                        r.shanten_after > 0 or r.useful_kept < r.useful_best
                    )
                assert r.best_discards and all(n in NAMES for n in r.best_discards.split())
                assert -1 <= r.danger <= 3
            if "unsafe" in flags:
                assert "deal_in" in flags
            if "call_worse" in flags:
                assert r.kind == "claim" and r.shanten_after >= r.shanten_before
            if r.kind == "claim" and r.shanten_after is not None and "call_worse" not in flags:
                assert r.shanten_after < r.shanten_before
            if r.kind in ("pass_claim", "pass_win"):
                assert r.shanten_after == r.shanten_before
            if r.kind == "pass_win":
                assert flags == {"missed_win"}


@pytest.mark.parametrize("ruleset", ["guobiao", "fuzhou", "sichuan"])
def test_deal_ins_are_the_discards_won_on(ruleset):
    for hand in _simulated(ruleset, 5, hands=16):
        rows = hand_decisions(hand)
        dealt = {(r.seq, r.seat) for r in rows if "deal_in" in r.flags.split(",")}
        won = set()
        events = hand.events
        for i, ev in enumerate(events):
            if ev.kind is EventKind.HU and ev.from_seat is not None and ev.win is None:
                j = i - 1
                while events[j].kind in (EventKind.HU, EventKind.IGNORED):
                    j -= 1
                if events[j].kind is EventKind.DISCARD:
                    won.add((events[j].seq, events[j].seat))
        assert dealt == won


# --- the stage and the metrics on a small simulated dataset -------------------------------------
@pytest.fixture(scope="module")
def styled_dataset(tmp_path_factory) -> Path:
    from mjstats.formats.canonical import write_canonical
    from mjstats.store import SourceInput, ingest_sources

    root = tmp_path_factory.mktemp("decisions")
    records = root / "sim.jsonl"
    hands = _simulated("guobiao", 11, hands=32, players="g1:greedy,f1:flush,g2:greedy,f2:flush")
    write_canonical(iter(hands), records)
    ds = root / "ds"
    ingest_sources([SourceInput(records, "canonical")], ds)
    return ds


def test_greedy_is_efficient_and_flush_is_not(styled_dataset):
    import mjstats
    from mjstats import stats

    summary = mjstats.decisions(styled_dataset, jobs=1)
    assert summary.hands == 32 and summary.decisions > 1000
    frame = stats.compute(styled_dataset, "efficiency_rate", by="style").set_index("style")
    greedy, flush = frame.loc["greedy"], frame.loc["flush"]
    assert greedy["value"] >= 0.99  # by construction: lowest shanten, most winning tiles when ready
    assert flush["value"] < greedy["value"]
    assert flush["ci_high"] < greedy["ci_low"]  # intervals apart
    lost = stats.compute(styled_dataset, "useful_lost", by="style").set_index("style")
    assert lost.loc["flush", "value"] > lost.loc["greedy", "value"]
    for metric in ("missed_win_rate", "danger_rate", "unsafe_rate", "call_gain_rate"):
        out = stats.compute(styled_dataset, metric, by="player")
        assert set(out["player"]) == {"g1", "f1", "g2", "f2"}
        assert ((out["value"] >= 0) & (out["value"] <= 1)).all()


def test_the_table_is_the_same_for_any_job_count(styled_dataset, tmp_path, monkeypatch):
    import shutil

    import mjstats
    import mjstats.audit
    from mjstats.decision import stage

    mjstats.decisions(styled_dataset, jobs=1)
    one = mjstats.open_dataset(styled_dataset).arrow("decisions")
    copy = tmp_path / "copy"
    shutil.copytree(styled_dataset, copy)
    mjstats.decisions(copy, jobs=2, batch_hands=8)
    two = mjstats.open_dataset(copy).arrow("decisions")
    assert one.equals(two)
    # no jobs named: 32 hands are judged in this process, not by workers that start for longer
    assert mjstats.decisions(copy).jobs == 1
    assert mjstats.open_dataset(copy).arrow("decisions").equals(one)
    # a mid-size dataset: four cores, the threshold scaled down to 10 hands a worker, so the 32
    # hands start three workers, not four
    monkeypatch.setattr(mjstats.audit.os, "cpu_count", lambda: 4)
    monkeypatch.setattr(stage, "HANDS_PER_DEFAULT_JOB", 10)
    assert mjstats.decisions(copy).jobs == 3
    assert mjstats.open_dataset(copy).arrow("decisions").equals(one)
    assert one.schema.field("shanten_before").type == "int16"
    assert one.schema.field("danger").type == "int8"


def test_an_interrupted_run_leaves_the_dataset_as_it_was(styled_dataset, tmp_path, monkeypatch):
    import shutil

    import mjstats
    from mjstats.decision import stage

    copy = tmp_path / "copy"
    shutil.copytree(styled_dataset, copy)
    before = mjstats.open_dataset(copy).path

    def interrupted(task):
        raise KeyboardInterrupt

    monkeypatch.setattr(stage, "run_task", interrupted)
    with pytest.raises(KeyboardInterrupt):
        mjstats.decisions(copy, jobs=1)
    assert mjstats.open_dataset(copy).path == before
    assert not any(p.name.startswith(".tmp-") for p in copy.iterdir())


def test_stats_without_the_table_say_what_to_run(tmp_path, sample_path, capsys):
    from mjstats.cli import main
    from mjstats.formats.botzone import read_botzone
    from mjstats.store import SourceInput, ingest_sources

    ds = tmp_path / "ds"
    ingest_sources([SourceInput(sample_path, "botzone", read_botzone)], ds)
    assert main(["stats", str(ds), "--metric", "efficiency_rate", "--by", "style"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"mjstats stats: error: {ds}: no decisions table: run `mjstats decisions {ds}` first"]
    assert main(["decisions", str(ds), "-q"]) == 0
    out = capsys.readouterr().out
    assert "judged 16 hands" in out
    assert main(["stats", str(ds), "--metric", "efficiency_rate", "--json"]) == 0


def test_the_report_has_a_decisions_section_only_with_the_table(styled_dataset, tmp_path):
    import shutil

    import mjstats
    from mjstats.report import build_report
    from mjstats.store.layout import new_version

    mjstats.decisions(styled_dataset, jobs=1)
    build_report(styled_dataset, tmp_path / "with", periods=["all-time"])
    page = (tmp_path / "with" / "all-time.html").read_text(encoding="utf-8")
    assert 'id="decisions"' in page
    assert "Efficiency by style, Guobiao" in page and "Efficiency by player, Guobiao" in page
    for style in ("greedy", "flush"):
        assert f">{style}<" in page
    # the same dataset without the table (a version that drops it): no section
    bare = tmp_path / "bare"
    shutil.copytree(styled_dataset, bare)
    with new_version(bare, drop=("decisions",)):
        pass
    assert not mjstats.open_dataset(bare).has_table("decisions")
    build_report(bare, tmp_path / "without", periods=["all-time"])
    assert 'id="decisions"' not in (tmp_path / "without" / "all-time.html").read_text(encoding="utf-8")


def test_a_fuzhou_profile_override_is_the_one_judged_under():
    from mjstats.decision.stage import decisions_table
    from mjstats.rulesets.fuzhou.replay import fuzhou_profile

    hands = _simulated("fuzhou", 4, hands=8)  # played under the seed profile
    own, _, _ = decisions_table(hands)
    same, _, _ = decisions_table(hands, {"fuzhou": fuzhou_profile("seed")})
    other, _, _ = decisions_table(hands, {"fuzhou": fuzhou_profile("platform")})
    assert own.equals(same)
    assert not own.equals(other)  # platform plays honours: the same tiles judge differently
