"""Turn-by-turn text of a replayed hand (``mjstats audit --explain``): each event, the acting
seat's tiles after it, and the findings at that event."""

from __future__ import annotations

from mjstats.records import Hand
from mjstats.replay.profile import Meld
from mjstats.replay.replayer import ReplayResult
from mjstats.replay.state import TurnState
from mjstats.tiles import ALL_KINDS

__all__ = ["explain_hand"]


def _tiles(tiles: tuple[int, ...]) -> str:
    return " ".join(ALL_KINDS[t].botzone for t in tiles)


def _meld(meld: Meld) -> str:
    tiles = "".join(ALL_KINDS[t].botzone for t in meld.tiles)
    return f"[{tiles}]" if meld.offer else f"({tiles})"  # (..) = concealed kong


def _seat_line(turn: TurnState, seat: int) -> str:
    melds = " ".join(_meld(m) for m in turn.melds[seat])
    return f"seat {seat}: {_tiles(turn.concealed[seat])}" + (f"  {melds}" if melds else "")


def explain_hand(hand: Hand, result: ReplayResult) -> str:
    """The whole hand as text; ``result`` must come from ``replay_hand(hand, explain=True)``."""
    by_seq: dict[int | None, list[str]] = {}
    for f in result.findings:
        by_seq.setdefault(f.seq, []).append(str(f).split(" ", 2)[2])
    winds = "ESWN"
    out = [
        f"match {hand.match_id} hand {hand.hand_no} ({hand.ruleset}/{result.profile}), dealer "
        f"seat {hand.dealer}, prevalent wind {winds[hand.prevalent_wind]}: {result.status}, "
        f"{len(result.findings)} finding(s)",
    ]
    dealt = False
    for turn in result.turns:
        out.append(f"{turn.seq:>4}  {turn.event}")
        if turn.phase != "deal" and not dealt:
            dealt = True
            out.extend(f"      {_seat_line(turn, s)}" for s in range(4))
        elif dealt and turn.actor is not None and not turn.event.startswith("seat None"):
            out.append(f"      {_seat_line(turn, turn.actor)}   [{turn.phase}; {turn.wall}]")
        out.extend(f"   !! {text}" for text in by_seq.get(turn.seq, ()))
    several = len(result.wins) > 1 or len(hand.result.wins) > 1
    for win_no, ctx, win in result.wins:
        label = f"win {win_no}" if several else "win"
        flags = [
            name
            for name, on in (
                ("self-drawn", ctx.self_drawn),
                ("和绝张", ctx.fourth_tile),
                ("kong", ctx.kong_win),
                ("last tile", ctx.last_tile),
            )
            if on
        ]
        out.append(
            f"{label}: seat {ctx.winner} on {ALL_KINDS[ctx.win_tile].botzone}"
            + (f" from seat {ctx.discarder}" if ctx.discarder is not None else "")
            + (f" ({', '.join(flags)})" if flags else "")
        )
        if win is not None:
            fans = "+".join(f"{f.name}*{f.count}" for f in win.fans)
            out.append(f"recomputed: {win.total} fan {fans}; payments {' '.join(map(str, win.payments))}")
    recorded = hand.result
    for win_no, recorded_win in enumerate(recorded.wins):
        if recorded_win.fan_total is not None:
            fans = "+".join(f"{f.name}*{f.count}" for f in recorded_win.fans)
            which = f" (win {win_no}, seat {recorded_win.winner})" if several else ""
            out.append(f"recorded:   {recorded_win.fan_total} fan {fans}{which}")
    if recorded.scores is not None:
        out.append(f"recorded scores: {' '.join(map(str, recorded.scores))}")
    out.extend(f"   !! {text}" for text in by_seq.get(None, ()))
    return "\n".join(out)
