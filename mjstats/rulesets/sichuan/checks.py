"""The Sichuan audit checks: stable codes, severities and the rule each enforces (reference
sichuan.md §7; the number after § in ``rule`` is the reference section, "§7.n" the audit line).

Run by the replay profile (mjstats.rulesets.sichuan.replay) and added to the check catalogue
(mjstats.replay.CATALOGUE) through the registry as (code, severity, what it verifies, the rule).
Plain data, importing nothing, so the catalogue can be built from it at any import order. Like
every code there they are part of the dataset and of docs/audit.md: never rename one, add a new
code instead.
"""

from __future__ import annotations

__all__ = ["CHECKS"]

_E = "error"

CHECKS: tuple[tuple[str, str, str, str], ...] = (
    (
        "sichuan.tiles",
        _E,
        "108 suited tiles, at most 4 of a kind; every tile played was held",
        "sichuan.md §1.1, §7.1",
    ),
    ("sichuan.deal", _E, "the dealer is dealt 14, the others 13, each once", "sichuan.md §1.3, §7.2"),
    (
        "sichuan.exchange",
        _E,
        "换三张 as the profile plays it: 3 held tiles of one suit each, received "
        "from the seat the one direction names",
        "sichuan.md §2.2, §7.3",
    ),
    (
        "sichuan.void_declared",
        _E,
        "each player declares one void suit (定缺) once, before the first discard",
        "sichuan.md §2.3, §7.4",
    ),
    (
        "sichuan.void_first",
        _E,
        "while holding a void-suit tile a player discards void-suit tiles (void_discard = strict)",
        "sichuan.md §2.3, §7.5",
    ),
    (
        "sichuan.void_used",
        _E,
        "no pong, kong or win uses a void-suit tile; no winner holds one",
        "sichuan.md §2.3, §7.6",
    ),
    (
        "sichuan.hand_size",
        _E,
        "a player discards or wins holding 14 tiles, kongs counting as 3",
        "sichuan.md §2.5-2.7, §7.7",
    ),
    (
        "sichuan.turn",
        _E,
        "each event is by the player §2.9 names (won players skipped)",
        "sichuan.md §2.9, §7.8",
    ),
    (
        "sichuan.wall",
        _E,
        "55 tiles to draw, one per draw; the recorded wall order is followed; replacement draws are marked",
        "sichuan.md §1.2, §7.9",
    ),
    ("sichuan.no_chow", _E, "nobody chows", "sichuan.md §2.6 (seed rule 2: 不能吃)"),
    (
        "sichuan.meld_tiles",
        _E,
        "a pong had 2, a 直杠 3, an 暗杠 4 matching concealed tiles; a 补杠 an own pong",
        "sichuan.md §2.6-2.7, §7.10",
    ),
    (
        "sichuan.pong_discard",
        _E,
        "after a pong the claimant discards: no draw, kong or win",
        "sichuan.md §2.6, §7.11",
    ),
    (
        "sichuan.kong_wall",
        _E,
        "no kong with an empty wall; each kong is followed by one replacement draw (a robbed 补杠 by none)",
        "sichuan.md §2.7-2.8, §7.12, §7.14",
    ),
    (
        "sichuan.claim_priority",
        _E,
        "a hu on a discard stops any pong or kong on it; robbing only a 补杠",
        "sichuan.md §2.6, §2.8, §7.13-14",
    ),
    (
        "sichuan.pass_lock",
        _E,
        "no win on a kind passed since the player's last draw (pass lock, inferred from the record)",
        "sichuan.md §2.11, §7.15",
    ),
    (
        "sichuan.last_four",
        _E,
        "from the draw of the first of the last four tiles every legal win is declared",
        "sichuan.md §2.12, §7.16",
    ),
    (
        "sichuan.winner_acts", _E, "a player who has won takes no further action", "sichuan.md §2.10, §7.17"
    ),
    (
        "sichuan.hand_end",
        _E,
        "the hand ends at the third win or when a draw is due from an empty wall, with nothing after",
        "sichuan.md §2.13, §7.18",
    ),
    (
        "sichuan.win_shape", _E, "each win is 4 sets + a pair or 七对 (no melds)", "sichuan.md §3.1, §7.19"
    ),
    (
        "sichuan.win_order",
        _E,
        "several winners on one tile are recorded nearest to the discarder first",
        "sichuan.md §4.3, §7.38",
    ),
    (
        "sichuan.win_record",
        _E,
        "each recorded win (winner, payer, tile, self-draw) is a win of the events, in the same order",
        "sichuan.md §2.15",
    ),
    (
        "sichuan.win_fan",
        _E,
        "the recorded pattern, 根, extras and fan total equal the best reading recomputed (0-based fan)",
        "sichuan.md §3.2-3.7, §7.20-23",
    ),
    (
        "sichuan.win_payment",
        _E,
        "each win is paid by the right players the capped value (self-draw bonus, 点杠花 per profile)",
        "sichuan.md §4.2, §4.7, §7.24-27",
    ),
    (
        "sichuan.kong_payment",
        _E,
        "kong money: right payers (active only) and amounts per kind, none for a robbed 补杠",
        "sichuan.md §4.4, §7.28",
    ),
    ("sichuan.call_transfer", _E, "呼叫转移 on every 杠上炮 per profile", "sichuan.md §4.5, §7.29"),
    (
        "sichuan.flower_pig",
        _E,
        "查花猪: each 花猪 pays every active non-花猪 the configured amount",
        "sichuan.md §4.6, §7.30-31",
    ),
    (
        "sichuan.cha_jiao",
        _E,
        "查大叫: each non-ready non-花猪 pays each ready player its best wait "
        "(no wait on a kind held four times)",
        "sichuan.md §4.6, §7.32, §7.37",
    ),
    (
        "sichuan.tax_refund",
        _E,
        "退税: non-ready players and 花猪 return their untransferred kong income",
        "sichuan.md §4.6, §7.33",
    ),
    (
        "sichuan.end_after_third",
        _E,
        "no 查叫, 花猪 or 退税 after a hand ended by the third win",
        "sichuan.md §2.13, §7.34",
    ),
    (
        "sichuan.zero_sum",
        _E,
        "the payments sum to zero and to the recorded scores",
        "sichuan.md §4.8, §7.35",
    ),
    (
        "sichuan.dealer",
        _E,
        "the next hand's dealer: the first winner, the discarder after a "
        "multi-win, the same dealer after no win",
        "sichuan.md §1.5, §7.36",
    ),
)

