"""The independent checker: parse, replay and rescore Botzone text records without mjstats.

Run: ``python bench/checker.py FILE [--list]``. It is the reference the audit's speed is measured
against (bench/audit.py): a plain script with its own parser of the Botzone text format
(/work/shared/reference/botzone-format.md), its own replay of every line (tiles held, walls, turn,
claims, kongs) and PyMahjongGB's ``MahjongFanCalculator`` for the fans of each win. It checks what
the audit checks on these records (tiles held, hand sizes, turn order, walls, claim targets and
priority, kong replacements, the win's timing and tile, fans, total, 8-fan minimum, scores) and
prints the number of hands, wins and problems found. It imports nothing from mjstats.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from MahjongGB import MahjongFanCalculator

DRAWS_PER_SEAT = 21  # botzone-format.md: 34 tiles a seat, 13 dealt
DEAL_SIZE = 13
MIN_FAN = 8
BASE = 8
PRIORITY = {"hu": 0, "peng": 1, "gang": 1, "chi": 2}  # botzone-format.md: Hu > Peng = Gang > Chi


class Problem(Exception):
    """A record that cannot be replayed further (the rest of its lines are skipped)."""


class Replay:
    """One record's replay: tiles per seat, melds, walls, whose move it is."""

    def __init__(self, match_id: str, wind: int) -> None:
        self.match_id = match_id
        self.wind = wind
        self.hands: list[Counter[str]] = [Counter() for _ in range(4)]
        self.melds: list[list[list]] = [[], [], [], []]  # [kind, tile, offer] per meld
        self.draws = [0, 0, 0, 0]
        self.seen: Counter[str] = Counter()  # copies dealt or drawn
        self.visible: Counter[str] = Counter()  # unclaimed discards + exposed meld tiles
        self.dealt = [False] * 4
        self.phase = "deal"  # deal, draw, discard, claim, kong, robbable, ended
        self.actor = 0
        self.last: str | None = None  # the pending discard or added-kong tile
        self.drawn: str | None = None
        self.after_kong = False
        self.win: tuple | None = None  # (winner, discarder or None, fans [(name, count)], total)
        self.problems: list[str] = []
        self.last_discard: str | None = None  # the discard a claim (and its Ignore clauses) took

    def note(self, text: str) -> None:
        self.problems.append(f"{self.match_id}: {text}")

    def size(self, seat: int) -> int:
        return sum(self.hands[seat].values()) + 3 * len(self.melds[seat])

    def take(self, seat: int, tile: str, n: int, what: str) -> None:
        held = self.hands[seat]
        if held[tile] < n:
            self.note(f"seat {seat} {what} {tile} without holding {n}")
            n = held[tile]
        held[tile] -= n

    def enter(self, tile: str) -> None:
        self.seen[tile] += 1
        if self.seen[tile] > 4:
            self.note(f"a fifth {tile}")

    def deal(self, seat: int, tiles: list[str]) -> None:
        if self.dealt[seat] or len(tiles) != DEAL_SIZE:
            self.note(f"seat {seat} dealt {len(tiles)} tiles")
        self.dealt[seat] = True
        for tile in tiles:
            self.enter(tile)
            self.hands[seat][tile] += 1
        if all(self.dealt):
            self.phase, self.actor = "draw", 0

    def draw(self, seat: int, tile: str) -> None:
        if self.phase == "claim":
            expected = (self.actor + 1) % 4
            self.after_kong = False
        elif self.phase in ("kong", "robbable"):
            expected = self.actor
            self.after_kong = True
        elif self.phase == "draw":
            expected = self.actor
            self.after_kong = False
        else:
            self.note(f"seat {seat} draws in phase {self.phase}")
            expected = seat
        if seat != expected:
            self.note(f"seat {seat} draws, seat {expected}'s turn")
        self.draws[seat] += 1
        if self.draws[seat] > DRAWS_PER_SEAT:
            self.note(f"seat {seat} draws from an empty wall")
        self.enter(tile)
        self.hands[seat][tile] += 1
        self.drawn = tile
        self.phase, self.actor = "discard", seat

    def own_move(self, seat: int, what: str) -> None:
        if self.phase != "discard" or seat != self.actor:
            self.note(f"seat {seat} {what} out of turn")
        if self.size(seat) != 14:
            self.note(f"seat {seat} holds {self.size(seat)} tiles to {what}")

    def play(self, seat: int, tile: str) -> None:
        self.own_move(seat, "discards")
        self.take(seat, tile, 1, "discards")
        self.visible[tile] += 1
        self.phase, self.actor, self.last, self.drawn = "claim", seat, tile, None

    def claim(self, seat: int, kind: str, tile: str) -> None:
        """Chi (tile = the middle of the run), Peng or Gang on the pending discard."""
        discarder, taken = self.actor, self.last
        if self.phase != "claim" or taken is None:
            raise Problem(f"seat {seat} claims with no discard pending")
        if seat == discarder:
            self.note(f"seat {seat} claims its own discard")
        if self.draws[(discarder + 1) % 4] >= DRAWS_PER_SEAT:
            self.note(f"seat {seat} claims the discard before the wall runs out")
        if kind == "chi":
            if seat != (discarder + 1) % 4:
                self.note(f"seat {seat} chis from seat {discarder}")
            run = _run(tile)
            if run is None or taken not in run:
                raise Problem(f"chi {tile} does not contain the discard {taken}")
            for other in run:
                if other != taken:
                    self.take(seat, other, 1, "chis")
                    self.visible[other] += 1
            self.melds[seat].append(["CHI", tile, run.index(taken) + 1])
            self.phase = "discard"
        else:
            if tile != taken:
                self.note(f"seat {seat} {kind}s {tile}, the discard is {taken}")
            need = 2 if kind == "peng" else 3
            self.take(seat, taken, need, kind + "s")
            self.visible[taken] += need
            offer = (seat - discarder) % 4
            self.melds[seat].append(["PENG" if kind == "peng" else "GANG", taken, offer])
            self.phase = "discard" if kind == "peng" else "kong"
        self.actor, self.last, self.drawn = seat, None, None

    def concealed_kong(self, seat: int, tile: str) -> None:
        self.own_move(seat, "konges")
        self.take(seat, tile, 4, "konges")
        self.melds[seat].append(["GANG", tile, 0])
        self.phase, self.drawn = "kong", None

    def added_kong(self, seat: int, tile: str) -> None:
        self.own_move(seat, "adds a kong of")
        for meld in self.melds[seat]:
            if meld[0] == "PENG" and meld[1] == tile:
                meld[0] = "GANG"
                break
        else:
            self.note(f"seat {seat} adds {tile} to no pung of its own")
        self.take(seat, tile, 1, "adds")
        self.visible[tile] += 1
        self.phase, self.last, self.drawn = "robbable", tile, None

    def ignored(self, discarder: int, taken_kind: str, taker: int, seat: int, kind: str, tile: str) -> None:
        """An Ignore clause: a lost claim must rank below the one taken."""

        def rank(k: str, s: int) -> tuple[int, int]:
            return PRIORITY.get(k, 9), (s - discarder) % 4

        if rank(kind, seat) < rank(taken_kind, taker):
            self.note(f"seat {seat}'s {kind} outranks seat {taker}'s {taken_kind}")
        if kind == "chi":
            run = _run(tile)
            if seat != (discarder + 1) % 4 or run is None or self.last_discard not in run:
                self.note(f"seat {seat}'s ignored chi {tile} was not possible")

    def hu(self, seat: int, tile: str) -> tuple:
        """The win: who, from whom, on what, with the situational flags."""
        if self.phase == "discard" and seat == self.actor and self.drawn is not None:
            win_tile, discarder, self_drawn = self.drawn, None, True  # quirk: Hu names another tile
            kong_win = self.after_kong
            last = self.draws[(seat + 1) % 4] >= DRAWS_PER_SEAT
            concealed = self.hands[seat].copy()
            concealed[win_tile] -= 1
        elif self.phase in ("claim", "robbable") and seat != self.actor and self.last is not None:
            win_tile, discarder, self_drawn = self.last, self.actor, False
            if tile != win_tile:
                self.note(f"seat {seat} wins on {tile}, the tile is {win_tile}")
            kong_win = self.phase == "robbable"
            last = not kong_win and self.draws[(discarder + 1) % 4] >= DRAWS_PER_SEAT
            concealed = self.hands[seat]
            if self.size(seat) != 13:
                self.note(f"seat {seat} holds {self.size(seat)} tiles to win on a discard")
        else:
            raise Problem(f"seat {seat} wins out of turn")
        fourth = self.visible[win_tile] - (0 if self_drawn else 1) >= 3
        hand = tuple(t for t, n in concealed.items() for _ in range(n))
        pack = tuple((k, t, o) for k, t, o in self.melds[seat])
        try:
            fans = MahjongFanCalculator(
                pack=pack, hand=hand, winTile=win_tile, flowerCount=0, isSelfDrawn=self_drawn,
                is4thTile=fourth, isAboutKong=kong_win, isWallLast=last, seatWind=seat,
                prevalentWind=self.wind, verbose=True,
            )
        except TypeError as exc:
            self.note(f"seat {seat}'s win is no winning hand ({exc})")
            fans = ()
        names = sorted((name, count) for _, count, name, _ in fans)
        total = sum(points * count for points, count, _, _ in fans)
        if fans and total < MIN_FAN:
            self.note(f"seat {seat}'s win is worth {total} fan, under {MIN_FAN}")
        self.phase = "ended"
        self.win = (seat, discarder, names, total)
        return self.win

    def huang(self) -> None:
        must = (self.actor + 1) % 4 if self.phase == "claim" else self.actor
        if self.phase not in ("claim", "draw", "kong") or self.draws[must] < DRAWS_PER_SEAT:
            self.note("Huang before the wall runs out")
        self.phase = "ended"


def _run(middle: str) -> tuple[str, str, str] | None:
    suit, rank = middle[0], int(middle[1:])
    if suit not in "WTB" or not 2 <= rank <= 8:
        return None
    return (f"{suit}{rank - 1}", middle, f"{suit}{rank + 1}")


def _payments(winner: int, discarder: int | None, total: int) -> list[int]:
    """botzone-format.md: self-drawn +3(8+F) / -(8+F) each; on a discard +(24+F), -(8+F), -8, -8."""
    if discarder is None:
        return [3 * (BASE + total) if s == winner else -(BASE + total) for s in range(4)]
    out = [-BASE] * 4
    out[winner] = 3 * BASE + total
    out[discarder] = -(BASE + total)
    return out


def check_record(lines: list[str]) -> Replay:
    """Replay one record's lines; problems are noted on the returned replay."""
    match_id = lines[0].split()[1]
    replay = Replay(match_id, int(lines[1].split()[1]))
    recorded_fans: list[tuple[str, int]] | None = None
    recorded_total = None
    scores: list[int] | None = None
    try:
        for line in lines[2:]:
            words = line.split()
            head = words[0]
            if head == "Fan":
                recorded_total = int(words[1])
                recorded_fans = []
                for item in "".join(words[2:]).split("+") if len(words) > 2 else ():
                    name, _, count = item.partition("*")
                    recorded_fans.append((name, int(count)))
                recorded_fans.sort()
                continue
            if head == "Score":
                scores = [int(w) for w in words[1:5]]
                continue
            if head == "Huang":
                replay.huang()
                continue
            if head != "Player":
                raise Problem(f"unknown line {line!r}")
            if replay.phase == "ended":
                replay.note("a move after the hand ended")
            seat, act = int(words[1]), words[2]
            if act == "Deal":
                replay.deal(seat, words[3:])
                continue
            tile = words[3]
            if act == "Draw":
                replay.draw(seat, tile)
            elif act == "Play":
                replay.play(seat, tile)
            elif act == "AnGang":
                replay.concealed_kong(seat, tile)
            elif act == "BuGang":
                replay.added_kong(seat, tile)
            elif act in ("Chi", "Peng", "Gang", "Hu"):
                kind = act.lower()
                discarder = replay.actor
                replay.last_discard = replay.last
                if kind == "hu":
                    replay.hu(seat, tile)
                else:
                    replay.claim(seat, kind, tile)
                rest = words[4:]
                while rest and rest[0] == "Ignore":  # Ignore Player k Act T
                    other, other_kind, other_tile = int(rest[2]), rest[3].lower(), rest[4]
                    replay.ignored(discarder, kind, seat, other, other_kind, other_tile)
                    rest = rest[5:]
            else:
                raise Problem(f"unknown action {act}")
    except (Problem, IndexError, ValueError) as exc:
        replay.note(f"stopped: {exc}")
        return replay
    if replay.win is not None:
        winner, discarder, names, total = replay.win
        if recorded_fans is not None and names != recorded_fans:
            replay.note(f"fans {names} recorded {recorded_fans}")
        if recorded_total is not None and total != recorded_total:
            replay.note(f"fan total {total} recorded {recorded_total}")
        if scores is not None and _payments(winner, discarder, total) != scores:
            replay.note(f"scores {_payments(winner, discarder, total)} recorded {scores}")
    elif scores is not None and any(scores):
        replay.note(f"a drawn hand with scores {scores}")
    if replay.phase != "ended":
        replay.note("the record ends before Hu or Huang")
    return replay


def records(path: Path):
    """The file's records, one list of non-empty lines each (blank lines separate them)."""
    current: list[str] = []
    with path.open(encoding="utf-8") as fh:
        for raw in fh:
            line = raw.strip()
            if line:
                current.append(line)
            elif current:
                yield current
                current = []
    if current:
        yield current


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--list", action="store_true", help="print every problem")
    args = parser.parse_args()
    start = time.perf_counter()
    hands = wins = 0
    problems: list[str] = []
    for lines in records(args.file):
        replay = check_record(lines)
        hands += 1
        wins += replay.win is not None
        problems.extend(replay.problems)
    seconds = time.perf_counter() - start
    print(f"{hands} hands, {wins} wins rescored, {len(problems)} problems "
          f"in {seconds:.2f} s ({hands / seconds:,.0f} hands/s)")
    if args.list:
        for text in problems:
            print(text)
    sys.exit(0)


if __name__ == "__main__":
    main()
