"""The Guobiao fan table: the 81 fans plus 明暗杠, in the reference calculator's order, as data.

Each :class:`Fan` carries its value and the 不计 (non-repeat) rules that it imposes on other fans:
``excludes`` (not counted beside it), ``consumes`` (occurrences of a per-set fan that it already
implies) and ``replaces`` (a fan that collapses into a smaller one). The calculator applies them
in table order (reference guobiao.md: 不重复). Values and exclusions: seeds 001/004 and the
reference calculator; where they differ the reference wins (noted at the entry).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FANS", "FAN_BY_NAME", "Fan"]


@dataclass(frozen=True, slots=True)
class Fan:
    """One fan: its place in the table (1-based), names, value per occurrence and 不计 rules."""

    order: int
    name: str
    name_en: str
    points: int
    # Fans not counted when this fan is (不计).
    excludes: tuple[str, ...] = ()
    # (fan, how many): occurrences of a per-set fan already implied by this one; how many = 0
    # means "those on the sets this fan is made of" (e.g. 三风刻 implies its three 幺九刻).
    consumes: tuple[tuple[str, int], ...] = ()
    # (from, to): when this fan is counted, ``from`` is counted as ``to`` instead.
    replaces: tuple[tuple[str, str], ...] = ()


_KONG_FANS = ("三杠", "双明杠", "双暗杠", "明暗杠", "明杠", "暗杠")

_TABLE: tuple[tuple[str, str, int, dict], ...] = (
    ("大四喜", "Big Four Winds", 88,
     {"excludes": ("三风刻", "碰碰和", "幺九刻", "圈风刻", "门风刻")}),
    ("大三元", "Big Three Dragons", 88, {"excludes": ("双箭刻", "箭刻")}),
    ("绿一色", "All Green", 88, {"excludes": ("混一色", "缺一门")}),
    # reference: 九莲宝灯 also drops one 幺九刻 (its 111 or 999) and turns 不求人 into 自摸.
    ("九莲宝灯", "Nine Gates", 88,
     {"excludes": ("清一色", "门前清", "缺一门", "无字"), "consumes": (("幺九刻", 1),),
      "replaces": (("不求人", "自摸"),)}),
    ("四杠", "Four Kongs", 88, {"excludes": ("单钓将", "碰碰和", *_KONG_FANS)}),
    ("连七对", "Seven Shifted Pairs", 88,
     {"excludes": ("七对", "清一色", "门前清", "缺一门", "无字", "单钓将")}),
    ("十三幺", "Thirteen Orphans", 88, {"excludes": ("五门齐", "门前清", "单钓将")}),
    # reference: 清幺九 also drops 双同刻 (common practice), keeps 三同刻.
    ("清幺九", "All Terminals", 64,
     {"excludes": ("混幺九", "碰碰和", "全带幺", "幺九刻", "无字", "双同刻")}),
    ("小四喜", "Little Four Winds", 64, {"excludes": ("三风刻", "幺九刻")}),
    ("小三元", "Little Three Dragons", 64, {"excludes": ("双箭刻", "箭刻")}),
    ("字一色", "All Honors", 64,
     {"excludes": ("混幺九", "碰碰和", "全带幺", "幺九刻", "缺一门")}),
    ("四暗刻", "Four Concealed Pungs", 64,
     {"excludes": ("碰碰和", "门前清"), "replaces": (("不求人", "自摸"),)}),
    ("一色双龙会", "Pure Terminal Chows", 64,
     {"excludes": ("七对", "清一色", "平和", "一般高", "老少副", "缺一门", "无字")}),
    ("一色四同顺", "Quadruple Chow", 48,
     {"excludes": ("一色三同顺", "一色三节高", "四归一", "一般高")}),
    ("一色四节高", "Four Pure Shifted Pungs", 48,
     {"excludes": ("一色三节高", "一色三同顺", "碰碰和")}),
    ("一色四步高", "Four Pure Shifted Chows", 32, {"excludes": ("一色三步高", "老少副", "连六")}),
    ("三杠", "Three Kongs", 32, {"excludes": _KONG_FANS[1:]}),
    ("混幺九", "All Terminals and Honors", 32, {"excludes": ("碰碰和", "全带幺", "幺九刻")}),
    ("七对", "Seven Pairs", 24, {"excludes": ("门前清", "单钓将")}),
    ("七星不靠", "Greater Honors and Knitted Tiles", 24, {"excludes": ("五门齐", "门前清")}),
    ("全双刻", "All Even Pungs", 24, {"excludes": ("碰碰和", "断幺", "无字")}),
    ("清一色", "Full Flush", 24, {"excludes": ("缺一门", "无字")}),
    ("一色三同顺", "Pure Triple Chow", 24, {"excludes": ("一色三节高", "一般高")}),
    ("一色三节高", "Pure Shifted Pungs", 24, {"excludes": ("一色三同顺",)}),
    ("全大", "Upper Tiles", 24, {"excludes": ("大于五", "无字")}),
    ("全中", "Middle Tiles", 24, {"excludes": ("断幺", "无字")}),
    ("全小", "Lower Tiles", 24, {"excludes": ("小于五", "无字")}),
    ("清龙", "Pure Straight", 16, {}),
    ("三色双龙会", "Three-Suited Terminal Chows", 16,
     {"excludes": ("平和", "无字", "喜相逢", "老少副")}),
    ("一色三步高", "Pure Shifted Chows", 16, {}),
    ("全带五", "All Fives", 16, {"excludes": ("断幺", "无字")}),
    ("三同刻", "Triple Pung", 16, {}),
    ("三暗刻", "Three Concealed Pungs", 16, {}),
    ("全不靠", "Lesser Honors and Knitted Tiles", 12, {"excludes": ("五门齐", "门前清")}),
    ("组合龙", "Knitted Straight", 12, {}),
    ("大于五", "Upper Four", 12, {"excludes": ("无字",)}),
    ("小于五", "Lower Four", 12, {"excludes": ("无字",)}),
    ("三风刻", "Big Three Winds", 12, {"consumes": (("幺九刻", 0),)}),
    ("花龙", "Mixed Straight", 8, {}),
    ("推不倒", "Reversible Tiles", 8, {"excludes": ("缺一门",)}),
    ("三色三同顺", "Mixed Triple Chow", 8, {}),
    ("三色三节高", "Mixed Shifted Pungs", 8, {}),
    ("无番和", "Chicken Hand", 8, {}),
    ("妙手回春", "Last Tile Draw", 8, {"excludes": ("自摸",)}),
    ("海底捞月", "Last Tile Claim", 8, {}),
    ("杠上开花", "Out with Replacement Tile", 8, {"excludes": ("自摸",)}),
    ("抢杠和", "Robbing the Kong", 8, {"excludes": ("和绝张",)}),
    ("碰碰和", "All Pungs", 6, {}),
    ("混一色", "Half Flush", 6, {"excludes": ("缺一门",)}),
    ("三色三步高", "Mixed Shifted Chows", 6, {}),
    ("五门齐", "All Types", 6, {}),
    ("全求人", "Melded Hand", 6, {"excludes": ("单钓将",)}),
    ("双暗杠", "Two Concealed Kongs", 6, {"excludes": ("暗杠", "双暗刻")}),
    ("双箭刻", "Two Dragon Pungs", 6, {"excludes": ("箭刻",)}),
    ("全带幺", "Outside Hand", 4, {}),
    ("不求人", "Fully Concealed Hand", 4, {"excludes": ("自摸",)}),
    ("双明杠", "Two Melded Kongs", 4, {"excludes": ("明杠",)}),
    ("和绝张", "Last Tile", 4, {}),
    ("箭刻", "Dragon Pung", 2, {}),
    # 圈风刻 / 门风刻 imply the 幺九刻 of their own wind pung (once, even when both apply).
    ("圈风刻", "Prevalent Wind", 2, {"consumes": (("幺九刻", 0),)}),
    ("门风刻", "Seat Wind", 2, {"consumes": (("幺九刻", 0),)}),
    ("门前清", "Concealed Hand", 2, {}),
    ("平和", "All Chows", 2, {"excludes": ("无字",)}),
    ("四归一", "Tile Hog", 2, {}),
    ("双同刻", "Double Pung", 2, {}),
    ("双暗刻", "Two Concealed Pungs", 2, {}),
    ("暗杠", "Concealed Kong", 2, {}),
    ("断幺", "All Simples", 2, {"excludes": ("无字",)}),
    ("一般高", "Pure Double Chow", 1, {}),
    ("喜相逢", "Mixed Double Chow", 1, {}),
    ("连六", "Short Straight", 1, {}),
    ("老少副", "Two Terminal Chows", 1, {}),
    ("幺九刻", "Pung of Terminals or Honors", 1, {}),
    ("明杠", "Melded Kong", 1, {}),
    ("缺一门", "One Voided Suit", 1, {}),
    ("无字", "No Honors", 1, {}),
    ("边张", "Edge Wait", 1, {}),
    ("嵌张", "Closed Wait", 1, {}),
    ("单钓将", "Single Wait", 1, {}),
    ("自摸", "Self-Drawn", 1, {}),
    ("花牌", "Flower Tiles", 1, {}),
    # Mahjong International League rule, which the reference calculator applies.
    ("明暗杠", "Concealed Kong and Melded Kong", 5, {"excludes": ("明杠", "暗杠")}),
)

FANS: tuple[Fan, ...] = tuple(
    Fan(order=i, name=name, name_en=en, points=pts, **rules)
    for i, (name, en, pts, rules) in enumerate(_TABLE, start=1)
)
FAN_BY_NAME: dict[str, Fan] = {f.name: f for f in FANS}


def _check_table() -> None:
    # Every name an exclusion mentions must be a fan of the table (catches typos at import).
    for fan in FANS:
        names = [*fan.excludes, *(n for n, _ in fan.consumes)]
        names += [n for pair in fan.replaces for n in pair]
        for n in names:
            if n not in FAN_BY_NAME:
                raise AssertionError(f"fan table: {fan.name} names unknown fan {n}")


_check_table()
