"""The check catalogue: every check the replayer runs, with a stable code, a severity and its rule.

Codes are part of the dataset (the ``findings`` table) and of docs/audit.md: never rename one;
add a new code instead. ``rule`` cites the reference document the check enforces.
"""

from __future__ import annotations

from dataclasses import dataclass

from mjstats.replay.findings import Severity

__all__ = ["CATALOGUE", "Check", "check"]


@dataclass(frozen=True, slots=True)
class Check:
    """One named check: ``code`` (stable), ``severity``, what it verifies and the rule behind it."""

    code: str
    severity: Severity
    title: str
    rule: str


_E, _W, _I = Severity.ERROR, Severity.WARNING, Severity.INFO

_CORE: tuple[Check, ...] = (
    # --- the deal and the tiles -------------------------------------------------------------
    Check(
        "deal.size",
        _E,
        "each seat is dealt exactly once, the profile's number of tiles",
        "botzone-format.md: 13 dealt per seat",
    ),
    Check(
        "tile.fifth_copy",
        _E,
        "no tile kind enters play (dealt or drawn) more than 4 times",
        "the ruleset's reference: 4 copies of each kind",
    ),
    Check(
        "tile.not_allowed",
        _E,
        "no tile the profile does not use (flowers in Botzone)",
        "botzone-format.md: no flowers in this dataset",
    ),
    Check(
        "tile.not_held",
        _E,
        "every discarded or konged tile was in the player's hand",
        "basic rule: one plays only tiles one holds",
    ),
    Check(
        "hand.size",
        _E,
        "a seat holds 14 tiles (melds counted as 3) when it discards or wins",
        "basic rule: 13 in hand + 1 drawn or claimed",
    ),
    # --- turns and the wall ------------------------------------------------------------------
    Check(
        "turn.order",
        _E,
        "the seat acting is the seat whose turn it is",
        "botzone-format.md: turn order 0 -> 1 -> 2 -> 3",
    ),
    Check(
        "turn.sequence",
        _E,
        "draw and discard alternate: no discard without a draw or claim, "
        "no second draw, no draw while a discard is owed",
        "botzone-format.md: grammar",
    ),
    Check(
        "wall.overdrawn",
        _E,
        "no seat draws from an empty wall (Botzone: 21 draws per seat)",
        "botzone-format.md: 13 dealt + 21 draws per seat, replacements included",
    ),
    Check(
        "hand.end",
        _E,
        "the hand ends with exactly one Hu or Huang and nothing after it",
        "botzone-format.md: grammar",
    ),
    # --- claims and kongs --------------------------------------------------------------------
    Check(
        "claim.target",
        _E,
        "a claim takes the last discard, right after it; a chi is a run that contains that tile",
        "botzone-format.md: Chi/Peng/Gang on the previous Play",
    ),
    Check(
        "claim.chi_seat",
        _E,
        "chi only from the previous seat's discard",
        "botzone-format.md: a player may only Chi the discard of player (n-1) mod 4",
    ),
    Check("claim.own_discard", _E, "nobody claims their own discard", "basic rule"),
    Check(
        "claim.not_held",
        _E,
        "a chi/peng/exposed kong uses two/two/three tiles the claimer holds",
        "basic rule",
    ),
    Check(
        "claim.last_discard",
        _E,
        "no chi/peng/kong on the discard before the wall runs out",
        "botzone-format.md: after that discard only Hu is allowed",
    ),
    Check(
        "claim.priority",
        _E,
        "a claim recorded as ignored has lower priority than the one taken "
        "(Hu > Peng = Gang > Chi; equal claims: nearest seat after the discarder)",
        "botzone-format.md: claim priority",
    ),
    Check(
        "claim.ignored_illegal",
        _W,
        "a claim recorded as ignored was itself possible (right seat, tiles held)",
        "botzone-format.md: Ignore clauses",
    ),
    Check(
        "kong.replacement",
        _E,
        "after a kong the konger draws a replacement (unless robbed)",
        "botzone-format.md: after Gang/AnGang/BuGang the replacement Draw follows",
    ),
    Check(
        "kong.added",
        _E,
        "an added kong extends the player's own exposed pung",
        "botzone-format.md: BuGang adds to an exposed pung",
    ),
    # --- the win ---------------------------------------------------------------------
    Check(
        "win.timing",
        _E,
        "Hu only on one's own draw, on another's discard or on another's added kong",
        "botzone-format.md: robbing only added kongs",
    ),
    Check(
        "win.tile",
        _E,
        "the recorded winning tile is the drawn, discarded or robbed tile",
        "botzone-format.md: quirks (self-drawn Hu names the last discard)",
    ),
    Check(
        "win.not_winning",
        _E,
        "the winner's tiles form a winning hand",
        "the ruleset's reference: winning forms",
    ),
    Check(
        "win.minimum",
        _E,
        "the win is worth at least 8 fan, flowers excluded",
        "botzone-format.md: 8-fan minimum",
    ),
    Check(
        "win.fans",
        _E,
        "the recorded fans (names and counts) equal the recomputed ones",
        "the ruleset's reference: its fans and scoring principles",
    ),
    Check(
        "win.fan_total",
        _E,
        "the recorded fan total equals the recomputed total",
        "the ruleset's reference: its fans",
    ),
    # --- the result ------------------------------------------------------------------
    Check(
        "result.outcome",
        _E,
        "the recorded result (win or draw, winner, discarder, self-draw) agrees with the events",
        "records.py: Result",
    ),
    Check(
        "result.scores",
        _E,
        "each seat's recorded score equals the computed payment",
        "botzone-format.md: scores (base 8)",
    ),
    Check(
        "result.scores_unchecked",
        _I,
        "the recorded scores were not checked: the profile's scoring of this case (several "
        "winners on one discard in duplicate MCR, a penalty) is not pinned down",
        "real-formats.md §3: a duplicate board with several winners need not sum to zero",
    ),
    Check(
        "win.several",
        _E,
        "at most one seat wins on one discard or robbed kong, unless the profile allows "
        "several (duplicate MCR)",
        "real-formats.md §3: standard MCR allows one winner",
    ),
    Check(
        "draw.not_exhausted",
        _E,
        "Huang only when the seat that must draw has an empty wall",
        "botzone-format.md: a hand ends in Huang when a player who must draw has an empty wall",
    ),
    # --- what only some records carry (the JSON match logs, the 2017 human-play logs) ---------
    Check(
        "wall.draw",
        _E,
        "with Hand.wall: every dealt and drawn tile is the next tile of the seat's own wall "
        "(wall[34s:34s+34] in draw order: Botzone's walltiles part taken from its end)",
        "real-formats.md section 1: seat s's wall is walltiles[34*s:34*s+34], drawn by pop()",
    ),
    Check(
        "judge.can_hu",
        _E,
        "every canHu value the Botzone judge logged is ours: a value >= 0 is the fan count we "
        "find for that seat's win at that step; a negative one means we find no win of 8 fan",
        "real-formats.md section 1: canHu[4], the judge's fan count if the seat could win",
    ),
    Check(
        "result.gain",
        _E,
        "the winner's recorded gain is the computed payment: 24 + F on a discard, "
        "3 x (8 + F) self-drawn, 0 in a drawn hand",
        "real-formats.md section 2: the gain, Botzone's duplicate scoring",
    ),
    Check(
        "win.refused",
        _E,
        "a declared win the platform did not accept (a Hu with play after it) is no valid "
        "win of at least 8 fan, flowers excluded",
        "real-formats.md section 2: a 和牌 line inside a drawn hand",
    ),
    Check(
        "flower.replacement",
        _E,
        "only a flower the seat holds is set aside, on its own turn, and a replacement draw "
        "follows at once",
        "real-formats.md section 2: 补花 then 补花后摸牌",
    ),
)

_STOPPED = Check(
    "replay.stopped",
    _E,
    "the replay could not go on: later events were not checked",
    "mjstats: the state machine has no meaningful state to continue from",
)


def _ruleset_checks() -> tuple[Check, ...]:
    """Every registered ruleset's own checks (its ``checks`` part: (code, severity, title, rule)
    tuples), in registry order."""
    from mjstats.rulesets import recorded

    return tuple(
        Check(code, Severity(severity), title, rule)
        for r in recorded()
        if r.checks is not None
        for code, severity, title, rule in r.load(r.checks)
    )


CATALOGUE: dict[str, Check] = {c.code: c for c in (*_CORE, *_ruleset_checks(), _STOPPED)}


def check(code: str) -> Check:
    """The catalogue entry of ``code`` (KeyError for an unknown code: codes are never invented)."""
    return CATALOGUE[code]
