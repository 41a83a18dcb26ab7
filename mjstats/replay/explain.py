"""Turn-by-turn text of a replayed hand (``mjstats audit --explain``): each event, the acting
seat's tiles after it (at the win: the winner's), the findings at that event, and the win with
the winner's hand and its fans."""

from __future__ import annotations

from mjstats.records import EventKind, Hand
from mjstats.replay.profile import Meld, WinContext
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


def _winner_line(ctx: WinContext) -> str:
    """The winner's hand as scored: concealed tiles + the winning tile, then the melds."""
    melds = " ".join(_meld(m) for m in ctx.melds)
    text = f"seat {ctx.winner}: {_tiles(ctx.concealed)} + {ALL_KINDS[ctx.win_tile].botzone}"
    return text + (f"  {melds}" if melds else "")


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
    # each win's event shows its winner's hand (the table's actor there is still the discarder)
    hu_seqs: dict[int | None, list[int]] = {}
    for event in hand.events:
        if event.kind is EventKind.HU:
            hu_seqs.setdefault(event.seat, []).append(event.seq)
    winner_at: dict[int, WinContext] = {}
    for _, won, _ in result.wins:
        seqs = hu_seqs.get(won.winner)
        if seqs:
            winner_at[seqs.pop(0)] = won
    dealt = False
    for turn in result.turns:
        out.append(f"{turn.seq:>4}  {turn.event}")
        if turn.phase != "deal" and not dealt:
            dealt = True
            out.extend(f"      {_seat_line(turn, s)}" for s in range(4))
        elif turn.seq in winner_at:
            out.append(f"      {_winner_line(winner_at[turn.seq])}   [{turn.phase}; {turn.wall}]")
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
        out.append(f"winning hand: {_winner_line(ctx)}")
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
