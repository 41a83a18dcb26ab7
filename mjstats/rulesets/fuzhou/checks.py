"""Fuzhou's own audit checks (reference fuzhou.md, seeds 000 and 003), run by its replay
profile (mjstats.rulesets.fuzhou.replay) and added to the check catalogue
(mjstats.replay.CATALOGUE) through the registry: (code, severity, what it verifies, the rule).
Plain data, importing nothing, so the catalogue can be built from it at any import order."""

from __future__ import annotations

__all__ = ["CHECKS"]

_E = "error"

CHECKS: tuple[tuple[str, str, str, str], ...] = (
    (
        "fuzhou.wall",
        _E,
        "with Hand.wall: the wall is the 144-tile set and every dealt, drawn and turned-up tile "
        "is the wall's tile at that place (front, tail; the face-up gold is the last drawable tile)",
        "seed 000: deal and draw from the front, replace from the tail; seed 003: 金牌位置前移",
    ),
    (
        "fuzhou.draw_end",
        _E,
        "turn draws come from the front, kong and flower replacements from the tail",
        "seed 000: 在相反的一边（即牌尾）补花",
    ),
    (
        "fuzhou.flower_order",
        _E,
        "flowers are set aside and replaced from the tail: in the opening round by round from "
        "the dealer on (seats that drew none skipped), in play at once; no flower is kept",
        "seed 000: 自庄家开始补花 ... 上一次补花没抓进花牌的玩家则跳过",
    ),
    (
        "fuzhou.gold_identity",
        _E,
        "the gold is turned up at the tail after the replacement rounds, a flower turned up "
        "goes to the dealer, and Hand.gold is the tile turned up",
        "seed 000: 补完花后从牌尾翻开的第一张就是金; 开出的为花，则算庄家的",
    ),
    (
        "fuzhou.gold_claimed",
        _E,
        "nobody chows, pungs, kongs or wins on a discarded gold",
        "seed 003: 任何人都不能吃、碰、杠、和这张牌",
    ),
    (
        "fuzhou.gold_discard",
        _E,
        "no gold is discarded under the profile's gold_discard = forbidden",
        "reference fuzhou.md: gold discard switch",
    ),
    (
        "fuzhou.gold_discard_win",
        _E,
        "a player who discarded a gold wins only by self-draw (gold_discard = self_draw_only)",
        "seed 003: 打出金牌者，听牌后只能靠自摸才能和牌",
    ),
    (
        "fuzhou.rob_gold",
        _E,
        "抢金 only right after the dealer's first discard, by the seat the rule picks: a "
        "non-dealer before the dealer, the nearest to the dealer first; the dealer's 天和 cancels it",
        "seed 003: 抢金",
    ),
    (
        "fuzhou.three_golds",
        _E,
        "三金倒 is declared by a seat holding three golds",
        "seed 003: 任何一家只要抓到三张金牌，即可立刻和牌",
    ),
    (
        "fuzhou.kong_timing",
        _E,
        "no kong in the turn of one's own chow or pung",
        "reference fuzhou.md: a kong only after your next draw",
    ),
    (
        "fuzhou.reserve",
        _E,
        "no draw into the reserve: 18 tiles + 1 per exposed kong + 2 per concealed kong + 2 per "
        "complete flower group stay undrawn",
        "seed 003: 牌尾留出九墩 ... 明杠多留一张，暗杠多留两张，四个一组的花多留两张",
    ),
    (
        "fuzhou.final_draw",
        _E,
        "the last four drawable tiles are drawn one each in turn, with no discard and no "
        "flower replacement",
        "seed 003: 最后一组可摸之牌 ... 不再补花和出牌",
    ),
    (
        "fuzhou.pattern",
        _E,
        "the recorded pattern (and its points) is the single highest pattern recomputed",
        "seed 003: 只计番数最高的一种花样",
    ),
    (
        "fuzhou.dealer",
        _E,
        "across consecutive hands of a match the dealer stays after a dealer win or an "
        "exhaustive draw and otherwise passes to the next seat",
        "seed 003: 庄家和牌，连庄; 荒牌，庄家连庄; 庄家未和牌，其下家当庄",
    ),
    (
        "fuzhou.streak",
        _E,
        "Hand.streak (连庄数) follows from the hands before: 0 in a match's first hand and for "
        "a new dealer, 站顶 adds nothing, each further dealer win 1 (draws by profile)",
        "seed 003: 做庄后胜出的第一庄称为站顶，不加番。从再胜出起算连庄",
    ),
)
