"""Undercut (Joe Kisenwether, 2004): the pure referee engine.

Rules: the Undercut rule texts (English and French) and rulings U-1..U-15 (docs/rulings.md). Two
tracking levels (U-14):

* ``"score"``: the score sheet. The device does not know the hands; players
  declare turn-ins (``tree``, ``triplets``, ``foursome``, ``done``) in seat
  order from the start player (U-6), then who passed (``pass K``, U-11). At
  the end the tied players are asked their hand pips/pieces (U-13).
* ``"full"``: the full table. The device knows where each of the 75 pieces
  is (bag, a hand, a stack, a bid) and enforces U-3..U-13. Every draw is a
  chance node whose outcome is an ordinary ``got P`` move, so a replay never
  re-draws; with ``"bag": "physical"`` (U-15) the table enters the outcomes
  and they are checked against what the bag still holds.

Move texts and the setup keys are specified in ``docs/records-undercut.md``.

Example::

    >>> s = SPEC.new({"players": ["Ann", "Bob", "Cat"], "level": "score"})
    >>> s = s.apply_text("tree")           # Ann turns in a TREE: +2
    >>> s.scores(), s.combo_values()
    ((2, 0, 0), {'TREE': 3, 'TRIPLETS': 2, 'FOURSOME': 2})
"""
from __future__ import annotations

import enum
import json
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, Iterator, Sequence

from ..engine import CHANCE, TERMINAL, Detail, GameSpec, Move, Outcome, State, Termination
from .setup import read_players
from ..errors import IllegalMoveError, SetupError
from ..pieces import Bag, Color, Piece, Size
from .undercut_moves import (
    COMBOS, FOURSOME, MIXES, STACK_NAMES, TREE, TRIPLETS, Bid, Done, Got, HandPieces, HandPips,
    Pass, StartPlayer, Take, TurnIn, bid_value, canon, compare_bids, find_combos, is_combo, mix_sizes,
    parse_undercut_move, value_text,
)

__all__ = [
    "Phase", "Kind",
    "SPEC", "UndercutState", "new_game", "position", "auction_position", "from_json", "compare_bids",
    "END_SCORE", "DEFAULT_COLORS", "TOTAL_PIECES",
    "TREE", "TRIPLETS", "FOURSOME", "COMBOS", "MIXES", "STACK_NAMES",
    "Bid", "Done", "Got", "HandPieces", "HandPips", "Pass", "StartPlayer", "Take", "TurnIn",
]

END_SCORE = 10
"""A score of 10 or more triggers the end (U-12)."""
DEFAULT_COLORS = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE, Color.BLACK)
"""U-1 default colors."""
TOTAL_PIECES = 75
"""5 colors x 3 sizes x 5 pieces (U-1)."""
MAX_PIPS = 150  # all 75 pieces: 25 x (1 + 2 + 3)
PER_SIZE = 25
"""Pieces of each size in the game (U-1)."""

LEVELS = ("score", "full")
BAG_MODES = ("virtual", "physical")
SETUP_KEYS = ("players", "level", "bag", "start", "colors")

_SIZE_WORD = {Size.SMALL: "small", Size.MEDIUM: "medium", Size.LARGE: "large"}
_STACK_SIZES = (Size.LARGE, Size.MEDIUM, Size.SMALL)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


class Phase(enum.StrEnum):
    """What the position waits for. A ``StrEnum``: its value is the word
    records and ``to_json`` use (record format version 1 unchanged)."""

    START = "start"
    """chance: the random start player"""
    SETUP = "setup"
    """full table: each player takes a 6-pip size mix (U-3)"""
    SCORING = "scoring"
    """turn-ins in seat order (U-6)"""
    STACKS = "stacks"
    """chance: the stacks' draws (U-7)"""
    BIDDING = "bidding"
    """full table: bid or pass (U-8..U-10)"""
    PASS = "pass"
    """chance: the passer's draw (U-11)"""
    AUCTION = "auction"
    """score sheet: who passed (U-11)"""
    TIEBREAK = "tiebreak"
    """score sheet: the tied players' hand counts (U-13)"""
    OVER = "over"
    """the game is over (U-12)"""


class Kind(enum.Enum):
    """The kinds of decision an Undercut position waits for (``decision()``)."""

    START = "start"              # chance: the random start player
    HAND_DRAW = "hand_draw"      # chance: a setup draw into a hand (U-3)
    STACK_DRAW = "stack_draw"    # chance: a stack's draw (U-7)
    PASS_DRAW = "pass_draw"      # chance: the passer's draw (U-11)
    TAKE = "take"                # full table: a 6-pip size mix (U-3)
    TURN_IN = "turn_in"          # full table: which combo of the hand to turn in (U-6)
    SHEET = "sheet"              # score sheet: a declared turn-in or done (U-6)
    BID = "bid"                  # full table: a bid on a stack or a pass (U-8..U-11)
    WHO_PASSED = "who_passed"    # score sheet: who passed (U-11)
    HAND_PIPS = "hand_pips"      # score sheet tiebreak: hand pips (U-13)
    HAND_PIECES = "hand_pieces"  # score sheet tiebreak: hand pieces (U-13)
    OVER = "over"


@dataclass(frozen=True)
class UndercutState(State):
    """An Undercut position. Immutable; ``apply`` returns a new state.

    Phases: ``start`` (chance: random start player), ``setup`` (full level,
    U-3), ``scoring`` (U-6), ``stacks`` (chance: stack draws, U-7),
    ``bidding`` (U-8..U-10), ``pass`` (chance: the passer's draw, U-11),
    ``auction`` (score level: waiting for who passed), ``tiebreak`` (score
    level, U-13), ``over``.
    """

    players: tuple[str, ...]
    level: str = "full"
    bag_mode: str = "virtual"
    colors: tuple[Color, ...] = DEFAULT_COLORS
    points: tuple[int, ...] = ()
    values: tuple[int, int, int] = (2, 2, 2)
    start: int | None = 0
    phase: Phase = Phase.SCORING
    active: int = 0
    pos: int = 0                     # position in the seat order from the start player
    round: int = 1
    end_triggered: bool = False
    bag: Bag | None = None
    hands: tuple[Bag, ...] = ()
    stacks: tuple[tuple[Piece, ...], ...] = ()
    bids: tuple[tuple[int, tuple[Piece, ...]] | None, ...] = ()
    pending: tuple[Size, ...] = ()   # sizes still to draw at this chance node
    draw_for: tuple[str, int] | None = None  # ("hand"|"stack"|"pass", seat or stack index)
    slot: int = 0                    # next stack slot (stack = slot // 3, size L/M/S = slot % 3)
    tied: tuple[int, ...] = ()       # score level: players tied at the end (U-13)
    tb_pips: tuple[int | None, ...] = ()
    tb_pieces: tuple[int | None, ...] = ()
    winners: tuple[int, ...] = ()
    detail: str = ""
    game = "undercut"

    # ------------------------------------------------------------ basics

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def full(self) -> bool:
        return self.level == "full"

    def seat_in_order(self, i: int) -> int:
        """The i-th seat clockwise from the start player."""
        return ((self.start or 0) + i) % self.n

    @property
    def current_player(self) -> int:
        if self.phase == Phase.OVER:
            return TERMINAL
        if self.phase == Phase.START or self.pending:
            return CHANCE
        return self.active

    def turn_number(self) -> int:
        """The round under way: the sheet's rows are numbered by round."""
        return self.round

    def credited_seat(self, move: Move) -> int | None:
        """A score-sheet pass names its passer (``pass 4``, U-11, U-14): the row is
        theirs, not the start player's, whom the sheet has as the one to move."""
        if isinstance(move, Pass) and move.seat is not None:
            return move.seat
        return super().credited_seat(move)

    def turn_unit(self) -> str:
        """The CSV's first column counts rounds (a pass starts the next one, U-11)."""
        return "round"

    def scores(self) -> tuple[int, ...]:
        return self.points

    def combo_values(self) -> dict[str, int]:
        """Current score-sheet values (U-4)."""
        return dict(zip(COMBOS, self.values))

    # ------------------------------------------------------------ queries for the UI

    def hand(self, seat: int) -> Bag:
        """The seat's hand (full level)."""
        self._need_full("hands")
        return self.hands[seat]

    def hand_pips(self, seat: int) -> int:
        return self.hand(seat).pips()

    def hand_count(self, seat: int) -> int:
        return len(self.hand(seat))

    def combos(self, seat: int | None = None) -> list[TurnIn]:
        """Every distinct turn-in in the seat's hand (default: acting player), U-5."""
        return find_combos(self.hand(self.active if seat is None else seat))

    def markers_on_table(self) -> frozenset[int]:
        """Seats whose marker is on a stack (U-8: they are skipped)."""
        return frozenset(b[0] for b in self.bids if b is not None)

    def bid_to_beat(self, stack: int) -> tuple[int, int] | None:
        """``(pips, pieces)`` of the bid on a stack, ``None`` if it has none."""
        b = self.bids[stack]
        return None if b is None else bid_value(b[1])

    def legal_bids(self, stack: int) -> list[Bid]:
        """Every bid the acting player may place on ``stack`` (U-9), lowest first."""
        if self.phase != Phase.BIDDING or not 0 <= stack < len(self.stacks):
            return []
        return sorted(self._iter_bids(stack), key=lambda b: (b.value, str(b)))

    def pending_draw(self) -> dict[str, Any] | None:
        """What the current chance node draws: ``{"for", "seat"|"stack", "size"}``."""
        if not self.pending or self.draw_for is None:
            return None
        kind, idx = self.draw_for
        out: dict[str, Any] = {"for": kind, "size": self.pending[0].letter, "left": len(self.pending)}
        if kind == "stack":
            out["stack"] = STACK_NAMES[idx]
        else:
            out["seat"] = idx
        return out

    def piece_census(self) -> Bag:
        """Every piece the full level knows, wherever it is (U-14 conservation):
        equals the 75-piece set at every step."""
        self._need_full("pieces")
        assert self.bag is not None  # the full level tracks the bag
        allp: list[Piece] = list(self.bag)
        for h in self.hands:
            allp.extend(h)
        for st in self.stacks:
            allp.extend(st)
        for b in self.bids:
            if b is not None:
                allp.extend(b[1])
        return Bag(allp)

    def _need_full(self, what: str) -> None:
        if not self.full:
            raise IllegalMoveError(f"the score-sheet level does not track {what} (U-14)")

    # ------------------------------------------------------------ legal moves

    def chance_outcomes(self) -> list[tuple[Move, Fraction]]:
        if self.phase == Phase.OVER:
            return []
        if self.phase == Phase.START:
            return [(StartPlayer(i), Fraction(1, self.n)) for i in range(self.n)]
        if self.pending:
            assert self.bag is not None
            return [(Got(p), pr) for p, pr in self.bag.draw_outcomes(self.pending[0])]
        return []

    def legal_moves(self) -> list[Move]:
        return list(self._iter_legal())

    def forced_move(self) -> Move | None:
        """The move the device plays for the player, or ``None`` when the player chooses.

        * The only legal move, where there is exactly one (U-6: a single possible
          turn-in; U-14 as amended 2026-11-23: a pass with one size left in the
          bag, a zero bid that is the only legal bid, the one piece count that
          fits the entered pips).
        * U-6 as amended 2026-11-24: several turn-ins whose order cannot change
          anything (every order of the turn-ins left ends with the same hand,
          scores and combo values, e.g. a TREE and a TRIPLETS of disjoint
          pieces) are not a choice: the first in sheet order is played, and
          the rest follow the same way.
        """
        if self.current_player < 0:
            return None
        it = self._iter_legal()
        first = next(it, None)
        if first is None:
            return None
        if next(it, None) is None:
            return first
        if self.phase == Phase.SCORING and self.full and len(_turnin_outcomes(
                _hand_key(self.hands[self.active]), self.values)) == 1:
            return first
        return None

    def _iter_legal(self) -> Iterator[Move]:
        if self.current_player == TERMINAL:
            return
        if self.current_player == CHANCE:
            yield from (m for m, _ in self.chance_outcomes())
            return
        ph = self.phase
        if ph == Phase.SETUP:
            assert self.bag is not None
            for mix in MIXES:
                if self._mix_missing(mix) is None:
                    yield Take(mix)
        elif ph == Phase.SCORING:
            if self.full:
                yield from find_combos(self.hands[self.active])
            else:
                yield from (TurnIn(c) for c in COMBOS)
                yield Done()
        elif ph == Phase.BIDDING:
            for k in range(len(self.stacks)):
                yield from self._iter_bids(k)
            if all(b is not None for b in self.bids):
                assert self.bag is not None
                sizes = self.bag.sizes_available()
                if sizes:
                    yield from (Pass(size=s) for s in sizes)
                else:
                    yield Pass()
        elif ph == Phase.AUCTION:
            yield from (Pass(seat=i) for i in range(self.n))
        elif ph == Phase.TIEBREAK:
            stage, _ = self._tiebreak_stage()
            if stage == "pips":
                yield from (HandPips(i) for i in range(MAX_HAND_PIPS + 1)
                            if self._tiebreak_refusal(pips=i) is None)
            else:
                yield from (HandPieces(i) for i in range(MAX_HAND_PIECES + 1)
                            if self._tiebreak_refusal(pieces=i) is None)

    def _iter_bids(self, k: int) -> Iterator[Bid]:
        """Sub-multisets of the hand lower than the bid on stack k (U-9)."""
        items = self.hands[self.active].items()
        beat = self.bid_to_beat(k)
        chosen: list[Piece] = []

        def rec(i: int, pips: int) -> Iterator[Bid]:
            if beat is not None and pips > beat[0]:
                return
            if i == len(items):
                if beat is None or (pips, len(chosen)) < beat:
                    yield Bid(k, tuple(chosen))
                return
            p, cnt = items[i]
            yield from rec(i + 1, pips)
            for j in range(1, cnt + 1):
                chosen.append(p)
                yield from rec(i + 1, pips + j * p.pips)
            del chosen[len(chosen) - cnt:]

        yield from rec(0, 0)

    def parse_move(self, text: str) -> Move:
        return parse_undercut_move(text)

    # ------------------------------------------------------------ decisions

    def decision_kind(self) -> Kind:
        if self.phase == Phase.OVER:
            return Kind.OVER
        if self.phase == Phase.START:
            return Kind.START
        if self.pending:
            kind = self.draw_for[0] if self.draw_for else "hand"
            return {"hand": Kind.HAND_DRAW, "stack": Kind.STACK_DRAW, "pass": Kind.PASS_DRAW}[kind]
        if self.phase == Phase.TIEBREAK:
            return Kind.HAND_PIPS if self._tiebreak_stage()[0] == "pips" else Kind.HAND_PIECES
        return {Phase.SETUP: Kind.TAKE, Phase.BIDDING: Kind.BID, Phase.AUCTION: Kind.WHO_PASSED,
                Phase.SCORING: Kind.TURN_IN if self.full else Kind.SHEET}[self.phase]

    def option_label(self, move: Move) -> str:
        def pieces(ps: Sequence[Piece]) -> str:
            return " ".join(map(str, canon(ps)))
        if isinstance(move, StartPlayer) or (isinstance(move, Pass) and move.seat is not None):
            seat = move.seat
            return self.players[seat] if seat is not None and 0 <= seat < self.n else str(move)
        if isinstance(move, Got):
            return f"{move.piece.color.value} {_SIZE_WORD[move.piece.size]}"
        if isinstance(move, Take):
            return " ".join(move.mix)
        if isinstance(move, TurnIn):
            return f"{move.combo}: {pieces(move.pieces)}" if move.pieces else move.combo
        if isinstance(move, Done):
            return "done: no combo"
        if isinstance(move, Bid):
            what = pieces(move.pieces) if move.pieces else "the marker only"
            return f"bid {what} on {STACK_NAMES[move.stack]}"
        if isinstance(move, Pass):
            return f"pass, draw a {_SIZE_WORD[move.size]}" if move.size is not None else "pass"
        if isinstance(move, HandPips):
            return _plural(move.pips, "pip")
        if isinstance(move, HandPieces):
            return _plural(move.count, "piece")
        return str(move)

    # ------------------------------------------------------------ apply

    def apply(self, move: Move) -> "UndercutState":
        if self.phase == Phase.OVER:
            raise IllegalMoveError("the game is over (U-12)")
        if self.current_player == CHANCE:
            return self._apply_chance(move)
        if isinstance(move, (StartPlayer, Got)):
            raise IllegalMoveError(f"{move} is a draw, but no draw is pending: {self._waiting_for()}")
        name = self.players[self.active]
        # each handler takes its own move class, which the lookup by type guarantees
        handlers: dict[type[Move], Callable[[Any, str], UndercutState]] = {
            Take: self._apply_take, TurnIn: self._apply_turnin, Done: self._apply_done,
            Bid: self._apply_bid, Pass: self._apply_pass, HandPips: self._apply_pips,
            HandPieces: self._apply_pieces,
        }
        handler = handlers.get(type(move))
        if handler is None:
            raise IllegalMoveError(f"not an Undercut move: {move!r}")
        return handler(move, name)

    def _phase_error(self, why: str) -> IllegalMoveError:
        """A move of the wrong phase: the reason, then what the game is waiting for."""
        return IllegalMoveError(f"{why}; now {self._waiting_for()}")

    def _waiting_for(self) -> str:
        ph = self.phase
        name = self.players[self.active] if self.players else "?"
        if ph == Phase.START:
            return "the start player is being drawn (start K)"
        if self.pending:
            d = self.pending_draw() or {}
            target = f"stack {d['stack']}" if d.get("stack") else self.players[d.get("seat", 0)]
            return f"drawing a {_SIZE_WORD[self.pending[0]]} piece for {target} (got P)"
        scoring = f"{name} is scoring: tree, triplets, foursome or done (U-6)"
        if ph == Phase.SCORING and self.full:  # say which turn-ins are due (U-6)
            combos = find_combos(self.hands[self.active])
            shown = ", ".join(map(str, combos[:6])) + (", ..." if len(combos) > 6 else "")
            scoring = f"{name} must turn in a combo (U-6): {shown}"
        return {
            "setup": f"{name} chooses a size mix (take MIX, U-3)",
            "scoring": scoring,
            "bidding": f"{name} bids or passes (U-8)",
            "auction": "auction: enter who passed (pass K, U-11)",
            "tiebreak": f"{name} gives a hand count (U-13)",
        }.get(ph, ph)

    # --- chance

    def _apply_chance(self, move: Move) -> "UndercutState":
        if self.phase == Phase.START:
            if not isinstance(move, StartPlayer):
                raise IllegalMoveError(f"waiting for the start player draw (start 1..{self.n}), not {move}")
            if not 0 <= move.seat < self.n:
                raise IllegalMoveError(f"no seat {move.seat + 1}: seats are 1..{self.n}")
            s = replace(self, start=move.seat, active=move.seat, pos=0)
            return s._begin_setup() if self.full else s._begin_scoring()
        if not isinstance(move, Got):
            raise IllegalMoveError(f"{move} is not possible now: {self._waiting_for()}")
        p = move.piece
        size = self.pending[0]
        assert self.bag is not None and self.draw_for is not None
        kind, idx = self.draw_for
        target = f"stack {STACK_NAMES[idx]}" if kind == "stack" else self.players[idx]
        if p.color not in self.colors:
            raise IllegalMoveError(f"{p} is not one of this game's colors (U-1)")
        if p.size != size:
            rule = {"hand": "U-3", "stack": "U-7", "pass": "U-11"}[kind]
            raise IllegalMoveError(f"this draw is a {_SIZE_WORD[size]} piece for {target}, not {p} ({rule})")
        if not self.bag.count(p):
            raise IllegalMoveError(f"the bag holds no {p} now (all 5 are out)")
        bag = self.bag.remove(p)
        if kind == "hand":
            hands = _set(self.hands, idx, self.hands[idx].add(p))
            s = replace(self, bag=bag, hands=hands, pending=self.pending[1:])
            if s.pending:
                return s
            return replace(s, draw_for=None)._next_setup_player()
        if kind == "stack":
            stacks = self.stacks if len(self.stacks) > idx else self.stacks + ((),)
            stacks = _set(stacks, idx, stacks[idx] + (p,))
            return replace(self, bag=bag, stacks=stacks, pending=(), draw_for=None,
                           slot=self.slot + 1)._next_stack_draw()
        # kind == "pass": the passer's draw comes before the auction resolves (U-11)
        hands = _set(self.hands, idx, self.hands[idx].add(p))
        return replace(self, bag=bag, hands=hands, pending=(), draw_for=None)._resolve_auction()

    # --- setup (U-3)

    def _begin_setup(self) -> "UndercutState":
        return replace(self, phase=Phase.SETUP, pos=0, active=self.seat_in_order(0))

    def _mix_missing(self, mix: str) -> str | None:
        assert self.bag is not None
        sizes = mix_sizes(mix)
        for s in _STACK_SIZES:
            need = sizes.count(s)
            have = self.bag.count_size(s)
            if need > have:
                return f"the bag has only {_plural(have, _SIZE_WORD[s])} left, {mix} needs {need}"
        return None

    def _apply_take(self, move: Take, name: str) -> "UndercutState":
        if not self.full:
            raise self._phase_error("the score-sheet level has no setup moves: the table draws its own hands (U-14)")
        if self.phase != Phase.SETUP:
            raise self._phase_error("size mixes are chosen only at setup (U-3)")
        pips = sum(s.pips for s in mix_sizes(move.mix))
        if pips != 6:
            raise IllegalMoveError(f"{move.mix} is {pips} pips; a hand starts with exactly 6 (U-3)")
        missing = self._mix_missing(move.mix)
        if missing:
            raise IllegalMoveError(f"cannot take {move.mix}: {missing} (U-3)")
        return replace(self, pending=mix_sizes(move.mix), draw_for=("hand", self.active))

    def _next_setup_player(self) -> "UndercutState":
        pos = self.pos + 1
        if pos == self.n:
            return self._begin_scoring()
        return replace(self, pos=pos, active=self.seat_in_order(pos))

    # --- scoring (U-4..U-6, U-12)

    def _begin_scoring(self) -> "UndercutState":
        s = replace(self, phase=Phase.SCORING, pos=0, active=self.seat_in_order(0))
        return s._settle_scoring() if self.full else s

    def _settle_scoring(self) -> "UndercutState":
        """Full level: skip players with no combo left; end the phase after the last."""
        pos = self.pos
        while pos < self.n and not find_combos(self.hands[self.seat_in_order(pos)]):
            pos += 1
        if pos == self.n:
            return replace(self, pos=pos)._end_scoring()
        return replace(self, pos=pos, active=self.seat_in_order(pos))

    def _end_scoring(self) -> "UndercutState":
        if self.end_triggered:  # U-12: the phase in which (or before which) the end came is the last
            return self._finish()
        if self.full:
            # nobody acts at the stack draws: ``active`` is the start player, who bids first (U-8),
            # so a stack-draw position is the same whoever scored last (``from_json``)
            return replace(self, phase=Phase.STACKS, stacks=(), bids=(), slot=0, pos=self.n,
                           active=self.start or 0)._next_stack_draw()
        return replace(self, phase=Phase.AUCTION, active=self.start or 0)

    def _score(self, seat: int, pts: int) -> "UndercutState":
        points = _set(self.points, seat, self.points[seat] + pts)
        return replace(self, points=points,
                       end_triggered=self.end_triggered or points[seat] >= END_SCORE)

    def _apply_turnin(self, move: TurnIn, name: str) -> "UndercutState":
        if self.phase != Phase.SCORING:
            raise self._phase_error("turn-ins happen only in the scoring phase (U-6)")
        i = COMBOS.index(move.combo)
        if self.full:
            if not move.pieces:
                raise IllegalMoveError(f"name the pieces of the {move.combo}, e.g. {move.combo.lower()} rL rM rS")
            why = is_combo(move.combo, move.pieces)
            if why:
                raise IllegalMoveError(why)
            hand = self.hands[self.active]
            if not hand.contains_all(move.pieces):
                raise IllegalMoveError(f"{name} does not hold {' '.join(map(str, move.pieces))}")
            hands = _set(self.hands, self.active, hand.remove(*move.pieces))
            assert self.bag is not None  # the full level tracks the bag
            s = replace(self, hands=hands, bag=self.bag.add(*move.pieces))
        else:
            if move.pieces:
                raise IllegalMoveError("the score-sheet level does not track pieces: enter just "
                                       f"{move.combo.lower()} (U-14)")
            s = self
        s = s._score(self.active, self.values[i])
        s = replace(s, values=_set(self.values, i, self.values[i] + 1))  # U-4: each on its own
        return s._settle_scoring() if self.full else s

    def _apply_done(self, move: Done, name: str) -> "UndercutState":
        if self.phase != Phase.SCORING:
            raise self._phase_error("'done' ends a player's turn-ins in the scoring phase (U-6)")
        if self.full:
            raise IllegalMoveError(f"{name} still holds a combo and must turn it in (U-6)")
        pos = self.pos + 1
        if pos == self.n:
            return replace(self, pos=pos)._end_scoring()
        return replace(self, pos=pos, active=self.seat_in_order(pos))

    # --- auction (U-7..U-11)

    def _next_stack_draw(self) -> "UndercutState":
        """Next stack slot the bag can fill (U-7), or start the bidding."""
        assert self.bag is not None
        slot = self.slot
        while slot < 3 * (self.n - 1) and self.bag:
            size = _STACK_SIZES[slot % 3]
            if self.bag.count_size(size):
                return replace(self, slot=slot, pending=(size,), draw_for=("stack", slot // 3))
            slot += 1
        start = self.start or 0
        return replace(self, slot=slot, phase=Phase.BIDDING, active=start,
                       bids=(None,) * len(self.stacks))

    def _next_bidder(self, after: int, table: frozenset[int]) -> int:
        """U-8: clockwise from ``after``, skipping markers on the table."""
        for i in range(1, self.n + 1):
            c = (after + i) % self.n
            if c not in table:
                return c
        raise AssertionError("every marker is on the table")  # pragma: no cover

    def _apply_bid(self, move: Bid, name: str) -> "UndercutState":
        if self.phase != Phase.BIDDING:
            raise self._phase_error("bids are placed only in the auction (U-8)" if self.full
                                   else "the score-sheet level does not track bids: enter who passed (U-14)")
        k = move.stack
        if k >= len(self.stacks):
            have = ", ".join(STACK_NAMES[:len(self.stacks)]) or "none"
            raise IllegalMoveError(f"there is no stack {STACK_NAMES[k]} (stacks: {have}) (U-7)")
        hand = self.hands[self.active]
        if not hand.contains_all(move.pieces):
            # the first short piece in the bid's own order (not set order: the same message
            # in every process)
            missing = next(p for p in dict.fromkeys(move.pieces) if hand.count(p) < move.pieces.count(p))
            held = hand.count(missing)
            holds = f"no {missing}" if not held else f"only {held} x {missing}"
            raise IllegalMoveError(f"{name} holds {holds} (U-9)")
        value = move.value
        old = self.bids[k]
        hands = _set(self.hands, self.active, hand.remove(*move.pieces))
        if old is not None:
            old_value = bid_value(old[1])
            if compare_bids(move.pieces, old[1]) >= 0:
                raise IllegalMoveError(f"bid {value_text(value)} is not lower than "
                                       f"{value_text(old_value)} on stack {STACK_NAMES[k]} (U-9)")
            hands = _set(hands, old[0], hands[old[0]].add(*old[1]))  # U-10: back at once
        bids = _set(self.bids, k, (self.active, move.pieces))
        table = frozenset(b[0] for b in bids if b is not None)
        return replace(self, hands=hands, bids=bids, active=self._next_bidder(self.active, table))

    def _apply_pass(self, move: Pass, name: str) -> "UndercutState":
        if not self.full:
            if self.phase != Phase.AUCTION:
                raise self._phase_error("a pass is entered after the scoring phase (U-11)")
            if move.seat is None or not 0 <= move.seat < self.n:
                raise IllegalMoveError(f"say who passed: pass 1..{self.n} (U-11)")
            s = self._score(move.seat, 1)
            return replace(s, start=move.seat, round=self.round + 1)._begin_scoring()
        if self.phase != Phase.BIDDING:
            raise self._phase_error("a pass ends the auction; it is not the auction now (U-11)")
        if move.seat is not None:
            raise IllegalMoveError("at the full-table level the acting player passes: pass S|M|L (U-11)")
        for k, b in enumerate(self.bids):
            if b is None:
                raise IllegalMoveError(f"cannot pass: stack {STACK_NAMES[k]} has no bid (U-11)")
        assert self.bag is not None
        if move.size is None and self.bag:
            sizes = " ".join(f"pass {s.letter}" for s in self.bag.sizes_available())
            raise IllegalMoveError(f"name the size to draw: {sizes} (U-11)")
        if move.size is not None and not self.bag.count_size(move.size):
            raise IllegalMoveError(f"cannot name {_SIZE_WORD[move.size]}: none left in the bag (U-11)")
        s = replace(self._score(self.active, 1), start=self.active)
        if move.size is None:  # empty bag: the pass gives nothing
            return s._resolve_auction()
        return replace(s, phase=Phase.PASS, pending=(move.size,), draw_for=("pass", self.active))

    def _resolve_auction(self) -> "UndercutState":
        """U-11: stacks to their bidders, bid pieces to the bag; new round."""
        hands = list(self.hands)
        bag = self.bag
        assert bag is not None
        for st, b in zip(self.stacks, self.bids):
            assert b is not None
            hands[b[0]] = hands[b[0]].add(*st)
            bag = bag.add(*b[1])
        s = replace(self, hands=tuple(hands), bag=bag, stacks=(), bids=(), slot=0,
                    round=self.round + 1)
        return s._begin_scoring()

    # --- end (U-12, U-13)

    def _finish(self) -> "UndercutState":
        low = min(self.points)
        tied = tuple(i for i, p in enumerate(self.points) if p == low)
        if len(tied) == 1:
            return replace(self, phase=Phase.OVER, winners=tied, detail=WON_BY_LOWEST)
        if not self.full:
            return replace(self, phase=Phase.TIEBREAK, tied=tied, active=tied[0],
                           tb_pips=(None,) * self.n, tb_pieces=(None,) * self.n)
        pips = {i: self.hands[i].pips() for i in tied}
        counts = {i: len(self.hands[i]) for i in tied}
        return replace(self, phase=Phase.OVER, tied=tied, **_break_tie(tied, pips, counts))

    def _tiebreak_stage(self) -> tuple[str, tuple[int, ...]]:
        """``("pips", seats)`` or ``("pieces", seats)``: who still has to answer."""
        need = tuple(i for i in self.tied if self.tb_pips[i] is None)
        if need:
            return "pips", need
        low = min(p for p in (self.tb_pips[i] for i in self.tied) if p is not None)  # none is: need is empty
        tied2 = tuple(i for i in self.tied if self.tb_pips[i] == low)
        return "pieces", tuple(i for i in tied2 if self.tb_pieces[i] is None) if len(tied2) > 1 else ()

    def _after_tiebreak_answer(self) -> "UndercutState":
        stage, need = self._tiebreak_stage()
        if need:
            return replace(self, active=need[0])
        # every tied seat has answered its pips; _break_tie reads the pieces only of
        # the seats still tied on pips, and those have all answered them too
        pips = {i: p for i in self.tied if (p := self.tb_pips[i]) is not None}
        counts = {i: c for i in self.tied if (c := self.tb_pieces[i]) is not None}
        return replace(self, phase=Phase.OVER, **_break_tie(self.tied, pips, counts))

    def _apply_pips(self, move: HandPips, name: str) -> "UndercutState":
        if self.phase != Phase.TIEBREAK or self._tiebreak_stage()[0] != "pips":
            raise IllegalMoveError("hand pips are asked only of tied players at the end (U-13)")
        why = self._tiebreak_refusal(pips=move.pips)
        if why:
            raise IllegalMoveError(f"{name} cannot hold {_plural(move.pips, 'pip')}: {why}")
        return replace(self, tb_pips=_set(self.tb_pips, self.active, move.pips))._after_tiebreak_answer()

    def _apply_pieces(self, move: HandPieces, name: str) -> "UndercutState":
        if self.phase != Phase.TIEBREAK or self._tiebreak_stage()[0] != "pieces":
            raise IllegalMoveError("piece counts are asked only when hand pips are tied too (U-13)")
        why = self._tiebreak_refusal(pieces=move.count)
        if why:
            raise IllegalMoveError(f"{name} cannot hold {_plural(move.count, 'piece')}: {why}")
        return replace(self, tb_pieces=_set(self.tb_pieces, self.active, move.count))._after_tiebreak_answer()

    def _tiebreak_refusal(self, *, pips: int | None = None, pieces: int | None = None) -> str | None:
        """Why the active tied player's entry cannot be, or ``None`` (U-14 as amended
        2026-11-23): every hand at the end is combo-free (U-6), and the tied hands
        together fit in the 75 pieces, 25 of each size (U-1)."""
        entries = {i: (self.tb_pips[i], self.tb_pieces[i]) for i in self.tied}
        p, n = entries[self.active]
        if pips is not None:
            p = pips
        if pieces is not None:
            n = pieces
        entries[self.active] = (p, n)
        return tiebreak_refusal(list(entries.values()))

    def outcome(self) -> Outcome | None:
        if self.phase != Phase.OVER:
            return None
        return Outcome(Termination.SCORE_LIMIT, self.winners, self.points, self.detail)

    # ------------------------------------------------------------ text

    def describe(self, move: Move) -> str:
        who = self.players[self.active] if self.players else "?"
        if isinstance(move, StartPlayer):
            return f"{self.players[move.seat]} starts" if 0 <= move.seat < self.n else str(move)
        if isinstance(move, Got):
            d = self.pending_draw()
            if d is None:
                return str(move)
            target = f"stack {d['stack']}" if "stack" in d else self.players[d["seat"]]
            return f"drew {move.piece} for {target}"
        if isinstance(move, Take):
            return f"{who} takes {move.mix}"
        if isinstance(move, TurnIn):
            pcs = (" " + " ".join(map(str, move.pieces))) if move.pieces else ""
            return f"{who} turns in {move.combo}{pcs}: +{self.values[COMBOS.index(move.combo)]}"
        if isinstance(move, Done):
            return f"{who}: no more combos"
        if isinstance(move, Bid):
            if move.stack >= len(self.stacks):
                return str(move)
            pcs = " ".join(map(str, move.pieces)) or "marker only"
            old = self.bids[move.stack] if move.stack < len(self.bids) else None  # stacks still being drawn
            under = f", undercuts {self.players[old[0]]}" if old else ""
            return f"{who} bids {value_text(move.value)} on {STACK_NAMES[move.stack]} ({pcs}){under}"
        if isinstance(move, Pass):
            if move.seat is not None:
                return f"{self.players[move.seat]} passes: +1" if move.seat < self.n else str(move)
            got = f", draws a {_SIZE_WORD[move.size]}" if move.size else ", bag empty"
            return f"{who} passes: +1{got}"
        if isinstance(move, HandPips):
            return f"{who} holds {_plural(move.pips, 'pip')}"
        if isinstance(move, HandPieces):
            return f"{who} holds {_plural(move.count, 'piece')}"
        return str(move)

    def describe_forced(self, move: Move) -> str:
        """"Bob had only one move: pass, drawing a small" (U-6, U-14 as amended)."""
        who = self.players[self.active] if self.players else "?"
        if isinstance(move, TurnIn) and len(self.legal_moves()) > 1:  # U-6 as amended 2026-11-24
            return f"{self.describe(move)} (any order scores the same)"
        if isinstance(move, Pass) and move.seat is None:
            what = f"pass, drawing a {_SIZE_WORD[move.size]}" if move.size else "pass (the bag is empty)"
        elif isinstance(move, Bid) and not move.pieces and move.stack < len(self.stacks):
            what = f"a zero bid on stack {STACK_NAMES[move.stack]}"
        elif isinstance(move, HandPieces):
            pips = self.tb_pips[self.active] if self.tb_pips else None
            what = (f"{_plural(move.count, 'piece')}, the only count {pips} pips allow"
                    if pips is not None else _plural(move.count, "piece"))
        elif isinstance(move, TurnIn):
            pcs = (" " + " ".join(map(str, move.pieces))) if move.pieces else ""
            what = f"turn in {move.combo}{pcs}: +{self.values[COMBOS.index(move.combo)]}"
        else:
            what = self.describe(move)
        return f"{who} had only one move: {what}"

    def _stack_json(self, k: int) -> dict[str, Any]:
        b = self.bids[k] if k < len(self.bids) else None
        bid = None
        if b is not None:
            pips, count = bid_value(b[1])
            bid = {"seat": b[0], "pieces": [str(p) for p in b[1]], "pips": pips, "count": count}
        return {"name": STACK_NAMES[k], "pieces": [str(p) for p in canon(self.stacks[k])], "bid": bid}

    def to_json(self) -> dict[str, Any]:
        """The whole position as plain JSON: the ``state`` of ``companion replay
        --json``, keys in ``docs/records-undercut.md`` ("State"). Seats are
        0-based; pieces are ``rL`` texts. At the full level, ``from_json()``
        reads it back into the same position in the scoring phase, at a
        stack draw, in the bidding and at a pass draw:
        ``from_json(s.to_json()) == s``."""
        out: dict[str, Any] = {
            "level": self.level,
            "bag_source": self.bag_mode,
            "players": list(self.players),
            "colors": [c.value for c in self.colors],
            "scores": list(self.points),
            "combo_values": self.combo_values(),
            "start_player": self.start,
            "round": self.round,
            "phase": str(self.phase),
            "active_player": self.current_player,
            "end_triggered": self.end_triggered,
        }
        if self.full:
            assert self.bag is not None
            out["bag"] = self.bag.to_json()
            out["bag_count"] = len(self.bag)
            out["hands"] = [[str(p) for p in canon(h)] for h in self.hands]
            out["hand_pips"] = [h.pips() for h in self.hands]
            out["hand_pieces"] = [len(h) for h in self.hands]
            out["stacks"] = [self._stack_json(k) for k in range(len(self.stacks))]
            out["markers_in_hand"] = [i for i in range(self.n) if i not in self.markers_on_table()]
            out["draw"] = self.pending_draw()
        if self.tied:
            out["tiebreak"] = {
                "tied": list(self.tied),
                "pips": [self.tb_pips[i] if self.tb_pips else self.hands[i].pips() for i in self.tied],
                "pieces": [self.tb_pieces[i] if self.tb_pieces else len(self.hands[i]) for i in self.tied],
            }
        out["winners"] = list(self.winners) if self.phase == Phase.OVER else None
        out["result"] = str(self.detail) if self.phase == Phase.OVER else None
        return out


# ---------------------------------------------------------------- U-6: order-free turn-ins


def _hand_key(hand: Bag) -> tuple[tuple[Piece, int], ...]:
    return tuple(hand.items())


@lru_cache(maxsize=4096)
def _turnin_outcomes(hand: tuple[tuple[Piece, int], ...], values: tuple[int, ...]
                     ) -> frozenset[tuple[tuple[tuple[Piece, int], ...], int, tuple[int, ...]]]:
    """Every (final hand, points scored, combo values) a player can end their
    turn-ins with from ``hand`` (U-6: turn in until no combo is left). One
    outcome means the order and the choice among the turn-ins change nothing
    (U-6 as amended 2026-11-24)."""
    bag = Bag(p for p, n in hand for _ in range(n))
    combos = find_combos(bag)
    if not combos:
        return frozenset({(hand, 0, values)})
    out: set = set()
    for t in combos:
        i = COMBOS.index(t.combo)
        rest = _hand_key(bag.remove(*t.pieces))
        for final, pts, vals in _turnin_outcomes(rest, _set(values, i, values[i] + 1)):
            out.add((final, pts + values[i], vals))
        if len(out) > 1:
            break  # already a real choice
    return frozenset(out)


# ---------------------------------------------------------------- U-14: tie-break entries

MAX_HAND_PER_SIZE = 6
"""A combo-free hand holds at most 2 of a piece and 3 colors of a size (U-6, U-14)."""
MAX_HAND_PIECES = 3 * MAX_HAND_PER_SIZE
MAX_HAND_PIPS = MAX_HAND_PER_SIZE * (1 + 2 + 3)  # 36


def _combo_free_counts() -> frozenset[tuple[int, int, int]]:
    """Every (larges, mediums, smalls) a combo-free hand can hold, computed once.

    Per color: at most 2 of each size (no TRIPLETS) and not all three sizes
    (no TREE); per size: at most 3 colors (no FOURSOME). Five colors (U-1)."""
    per_color = [(lg, md, sm) for lg in range(3) for md in range(3) for sm in range(3)
                 if not (lg and md and sm)]
    # state: (larges, mediums, smalls, colors used per size)
    states = {(0, 0, 0, 0, 0, 0)}
    for _color in range(5):
        nxt = set()
        for lg, md, sm, ul, um, us in states:
            for a, b, c in per_color:
                u = (ul + (a > 0), um + (b > 0), us + (c > 0))
                if max(u) <= 3:
                    nxt.add((lg + a, md + b, sm + c, *u))
        states = nxt
    return frozenset((lg, md, sm) for lg, md, sm, *_ in states)


COMBO_FREE_COUNTS = _combo_free_counts()
"""(larges, mediums, smalls) of every combo-free hand (U-14's table, computed once)."""
HAND_PIPS_PIECES = frozenset((3 * lg + 2 * md + sm, lg + md + sm) for lg, md, sm in COMBO_FREE_COUNTS)
"""The (pips, pieces) pairs a combo-free hand can have."""


def tiebreak_refusal(entries: Sequence[tuple[int | None, int | None]]) -> str | None:
    """Why no set of hands fits the tied players' entries ``(pips, pieces)`` (``None``
    where not entered yet), or ``None`` when some does (U-14 as amended 2026-11-23):
    each hand combo-free, the hands together within 25 pieces of each size."""
    cands: list[list[tuple[int, int, int]]] = []
    for pips, pieces in entries:
        if pips is not None and pips > MAX_HAND_PIPS:
            return (f"a hand with no combo left holds at most {MAX_HAND_PIPS} pips: 2 of a piece and "
                    f"3 colors of a size make {MAX_HAND_PER_SIZE} of each size (U-14)")
        if pieces is not None and pieces > MAX_HAND_PIECES:
            return (f"a hand with no combo left holds at most {MAX_HAND_PIECES} pieces, "
                    f"{MAX_HAND_PER_SIZE} of each size (U-14)")
        c = [t for t in COMBO_FREE_COUNTS
             if (pips is None or 3 * t[0] + 2 * t[1] + t[2] == pips)
             and (pieces is None or sum(t) == pieces)]
        if not c:
            if pips is not None and pieces is not None:
                fits = sorted(n for p, n in HAND_PIPS_PIECES if p == pips)
                return (f"{_plural(pips, 'pip')} make {fits[0]} to {fits[-1]} pieces in a hand with "
                        f"no combo left, not {pieces} (U-14)")
            return f"no hand without a combo holds {_plural(pips or 0, 'pip')} (U-14)"  # pragma: no cover
        cands.append(c)
    # The hands together: keep the least totals per size reachable so far.
    totals = {(0, 0, 0)}
    for c in cands:
        totals = {(a + x, b + y, d + z) for a, b, d in totals for x, y, z in c
                  if a + x <= PER_SIZE and b + y <= PER_SIZE and d + z <= PER_SIZE}
        totals = {t for t in totals
                  if not any(u != t and u[0] <= t[0] and u[1] <= t[1] and u[2] <= t[2] for u in totals)}
        if not totals:
            return (f"the tied hands together would hold more than the {PER_SIZE} pieces "
                    "of a size the game has (U-14)")
    return None


def _set(t: tuple, i: int, v: Any) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


class WinBy(enum.StrEnum):
    """How an Undercut game was won (``Outcome.detail``'s code, issue 45): U-13, U-14."""
    LOWEST = "lowest_score"
    PIPS = "tie_pips"
    PIECES = "tie_pieces"
    SHARED = "tie_shared"


# the outcome's details: their codes, with the records' English text (unchanged)
WON_BY_LOWEST = Detail("lowest score (U-13)", WinBy.LOWEST)
WON_BY_PIPS = Detail("tie on score broken by fewest pips in hand (U-13)", WinBy.PIPS)
WON_BY_PIECES = Detail("tie on score and pips broken by fewest pieces in hand (U-13)", WinBy.PIECES)
WON_SHARED = Detail("shared win: tied on score, pips and pieces (U-13)", WinBy.SHARED)


def _break_tie(tied: tuple[int, ...], pips: dict[int, int], counts: dict[int, int]) -> dict[str, Any]:
    """U-13 among players tied on score: fewest pips, then fewest pieces, then shared."""
    low = min(pips[i] for i in tied)
    t2 = tuple(i for i in tied if pips[i] == low)
    if len(t2) == 1:
        return {"winners": t2, "detail": WON_BY_PIPS}
    low2 = min(counts[i] for i in t2)
    t3 = tuple(i for i in t2 if counts[i] == low2)
    if len(t3) == 1:
        return {"winners": t3, "detail": WON_BY_PIECES}
    return {"winners": t3, "detail": WON_SHARED}


# ---------------------------------------------------------------- setup


def new_game(setup: dict[str, Any]) -> UndercutState:
    """A new game from a setup object (keys in ``docs/records-undercut.md``)."""
    players = read_players(setup, SETUP_KEYS, "Undercut", 3, 5, "U-2", verb="needs")
    level = setup.get("level", "full")
    if level not in LEVELS:
        raise SetupError(f"level must be \"score\" or \"full\", not {level!r} (U-14)")
    bag_mode = setup.get("bag", "virtual")
    if bag_mode not in BAG_MODES:
        raise SetupError(f"bag must be \"virtual\" or \"physical\", not {bag_mode!r} (U-15)")
    start = setup.get("start", 0)
    if start != "random" and (not isinstance(start, int) or isinstance(start, bool)
                              or not 0 <= start < len(players)):
        raise SetupError(f"start must be a seat 0..{len(players) - 1} or \"random\"")
    raw_colors = setup.get("colors", [c.value for c in DEFAULT_COLORS])
    if not isinstance(raw_colors, list) or len(raw_colors) != 5 or not all(isinstance(c, str) for c in raw_colors):
        raise SetupError("colors must be a list of 5 color names (U-1)")
    try:
        colors = tuple(Color.parse(c) for c in raw_colors)
    except ValueError as e:
        raise SetupError(f"{e} (U-1)") from None
    if len(set(colors)) != 5:
        raise SetupError("the 5 colors must be different (U-1)")
    n = len(players)
    full = level == "full"
    s = UndercutState(
        players=tuple(players), level=level, bag_mode=bag_mode, colors=colors,
        points=(0,) * n, start=None if start == "random" else start,
        phase=Phase.START, active=0 if start == "random" else start,
        bag=Bag.full_sets(colors, 5) if full else None,
        hands=tuple(Bag() for _ in range(n)) if full else (),
    )
    if start == "random":
        return s
    return s._begin_setup() if full else s._begin_scoring()


def position(setup: dict[str, Any], hands: Sequence[str], scores: Sequence[int] | None = None,
             values: Sequence[int] | None = None) -> UndercutState:
    """A full-table position at the start of a scoring phase (U-6).

    ``setup`` is the record's setup object (``docs/records-undercut.md``) with
    ``"start"`` a seat (0-based): the player who turns in first. ``hands`` gives
    every seat's pieces, one text per seat in seat order (``"rL rM rS"``; ``""``
    or ``"-"`` for an empty hand). ``scores`` (default zeros) and ``values`` (the combo
    values TREE, TRIPLETS, FOURSOME, default ``2 2 2``, U-4) are per seat and
    per combo. The hands' pieces come out of the 75 (U-1); the rest is the bag.
    Players without a combo are skipped (U-6); with nobody to turn in, the
    stack draws follow. ``SetupError`` says what cannot be::

        >>> s = position({"players": ["Ann", "Bob", "Cat"], "start": 1}, ["rL", "yL yM yS", ""])
        >>> s.current_player, [str(m) for m in s.legal_moves()]
        (1, ['tree yL yM yS'])

    For positions in the auction see ``auction_position``; ``from_json`` reads
    any position's ``to_json()`` back."""
    s = new_game({**setup, "level": "full"})
    if s.phase != Phase.SETUP:
        raise SetupError("position() needs a fixed start seat")
    if len(hands) != s.n:
        raise SetupError(f"give {s.n} hands")
    assert s.bag is not None
    bag = s.bag
    bags = []
    for text in hands:
        h = Bag(_pieces(text, "a hand"))
        if not bag.contains_all(h):
            raise SetupError(f"the 75 pieces cannot supply hand {text!r}")
        bag = bag.remove(*h)
        bags.append(h)
    s = replace(s, bag=bag, hands=tuple(bags))
    if scores is not None:
        s = replace(s, points=_scores(scores, s.n), end_triggered=max(scores) >= END_SCORE)
    if values is not None:
        s = replace(s, values=_values(values))
    return s._begin_scoring()


BidPlaced = tuple[int, str]
"""A bid as ``auction_position`` takes it: the bidder's seat (0-based) and the bid's move text (``"bid A yM"``)."""


def auction_position(setup: dict[str, Any], hands: Sequence[str], stacks: Sequence[str],
                     bids: Sequence[BidPlaced] = (), to_act: int | None = None, *,
                     scores: Sequence[int] | None = None, values: Sequence[int] | None = None,
                     round: int = 1) -> UndercutState:
    """A full-table position in the auction (U-7..U-11): at a stack draw, or in the bidding.

    * ``setup``: the record's setup object; its ``"start"`` (a seat, 0-based)
      is this round's start player, who bids first (U-8).
    * ``hands``: every seat's pieces now, one text per seat (``"rS yM"``, ``""``).
      A bid's pieces are on its stack, not in the hand; an undercut bid's pieces
      are back in their bidder's hand (U-10).
    * ``stacks``: the stacks drawn, in order A, B, ... (``["rL yM bS", "kL"]``).
      Each is drawn large, medium, small from the bag (U-7); a size the bag had
      none of is skipped. Stacks that stop before the last of the ``players -
      1`` is complete while the bag holds a piece for it give the position at
      the next stack draw (a chance node: ``got P``, ``Kind.STACK_DRAW``).
    * ``bids``: the bids placed, in the order placed: ``(seat, "bid A yM")``
      (``"bid B"``: the zero bid, the marker only). A later bid on a stack
      undercuts the one before it, and must be lower (U-9, see
      ``compare_bids``); the undercut bid's pieces went back to its bidder
      (U-10). Each marker is on one stack at most (U-8).
    * ``to_act``: the seat to bid or pass; default: the next after the last
      bidder, clockwise, skipping markers on the table (U-8), or the start
      player before any bid. A seat whose marker is on the table never acts.
    * ``scores``, ``values``: as for ``position``; ``round`` is the round number (1 = the first).

    The pieces of the hands, the stacks and the bids on the table come out of
    the 75 (U-1); the rest is the bag. ``SetupError`` says why a position
    cannot be: more pieces than the 75 (or more than 5 of a piece), a stack
    that is not what the draws give, a bid that is not lower than the bid it
    undercuts, a marker used twice, a hand with a combo left (U-6), a score of
    10 (the game ends before an auction, U-12)::

        >>> s = auction_position({"players": ["Ann", "Bob", "Cat"], "start": 0},
        ...                      ["rS rS", "yM", ""], ["kL kM kS", "gL gM gS"],
        ...                      [(0, "bid A rS rS"), (1, "bid A yM")])
        >>> s.current_player, s.to_json()["stacks"][0]["bid"]
        (2, {'seat': 1, 'pieces': ['yM'], 'pips': 2, 'count': 1})
        >>> auction_position({"players": ["Ann", "Bob", "Cat"], "start": 0},
        ...                  ["", "", ""], ["kL kM"]).decision().kind.name
        'STACK_DRAW'
    """
    s = new_game({**setup, "level": "full"})
    if s.phase != Phase.SETUP:
        raise SetupError("auction_position() needs a fixed start seat: the round's start player (U-8)")
    n = s.n
    if len(hands) != n:
        raise SetupError(f"give {n} hands, one per seat")
    if not isinstance(round, int) or isinstance(round, bool) or round < 1:
        raise SetupError(f"round must be 1 or more, not {round!r}")
    points = _scores(scores, n) if scores is not None else s.points
    if max(points) >= END_SCORE:
        raise SetupError(f"a score of {END_SCORE} ends the game with the scoring phase it comes in: "
                         "no auction follows (U-12)")
    vals = _values(values) if values is not None else s.values
    now = [Bag(_pieces(h, f"{s.players[i]}'s hand")) for i, h in enumerate(hands)]
    piles = [_pieces(t, f"stack {STACK_NAMES[k] if k < len(STACK_NAMES) else k + 1}")
             for k, t in enumerate(stacks)]
    if len(piles) > n - 1:
        raise SetupError(f"{n} players bid for {n - 1} stacks at most, not {len(piles)} (U-7)")
    placed = [_placed(b, s) for b in bids]
    standing: dict[int, tuple[int, Bid]] = {}
    for seat, move in placed:
        standing[move.stack] = (seat, move)
    start_hands = list(now)
    for seat, move in standing.values():
        start_hands[seat] = start_hands[seat].add(*move.pieces)
    everything = [p for h in start_hands for p in h] + [p for pile in piles for p in pile]
    _check_census(everything, s.colors)
    for seat, h in enumerate(start_hands):
        combos = find_combos(h)
        if combos:
            raise SetupError(f"{s.players[seat]}'s hand holds a combo ({combos[0]}): the auction comes "
                             "once every combo is turned in (U-6)")
    assert s.bag is not None
    bag = s.bag.remove(*everything)
    st = replace(s, phase=Phase.STACKS, points=points, values=vals, round=round, pos=n,
                 active=s.start or 0, hands=tuple(start_hands), bag=bag.add(*(p for pile in piles for p in pile)),
                 end_triggered=False)._next_stack_draw()
    for k, pile in enumerate(piles):
        name = STACK_NAMES[k]
        if not pile:
            raise SetupError(f"stack {name} is empty: a stack has a piece of each size the bag holds (U-7)")
        for p in canon(pile):
            d = st.pending_draw()
            if d is None:
                raise SetupError(f"stack {name} cannot hold {p}: the stacks were complete before it (U-7)")
            if d["stack"] != name or d["size"] != p.size.letter:
                want = f"stack {d['stack']}'s {_SIZE_WORD[st.pending[0]]}"
                raise SetupError(f"stack {name}'s {p} does not come next: the next draw is {want}, "
                                 "drawn large, medium, small, a size skipped only when none is left (U-7)")
            st = st._apply_chance(Got(p))
    if st.phase == Phase.STACKS:
        if placed or to_act is not None:
            d = st.pending_draw() or {}
            raise SetupError(f"the stacks are still being drawn (stack {d.get('stack')}'s next piece): "
                             "bids come after (U-7, U-8)")
        return st
    for i, (seat, move) in enumerate(placed, 1):
        what = f"bid {i} ({seat}: {move})"
        on = next((STACK_NAMES[k] for k, b in enumerate(st.bids) if b is not None and b[0] == seat), None)
        if on is not None:
            raise SetupError(f"{what}: {s.players[seat]}'s marker is already on stack {on}; "
                             "a marker is on one stack at a time (U-8)")
        try:
            st = replace(st, active=seat)._apply_bid(move, s.players[seat])
        except IllegalMoveError as e:
            raise SetupError(f"{what}: {e}") from None
    assert list(st.hands) == now  # the hands given, with the undercut bids back (U-10)
    if to_act is not None:
        if not isinstance(to_act, int) or isinstance(to_act, bool) or not 0 <= to_act < n:
            raise SetupError(f"to_act must be a seat, 0 to {n - 1}")
        on = next((STACK_NAMES[k] for k, b in enumerate(st.bids) if b is not None and b[0] == to_act), None)
        if on is not None:
            raise SetupError(f"{s.players[to_act]}'s marker is on stack {on}: a player whose marker is "
                             "on the table is skipped (U-8)")
        st = replace(st, active=to_act)
    return st


def from_json(data: dict[str, Any]) -> UndercutState:
    """The position a full-table ``to_json()`` describes, read back:
    ``from_json(s.to_json()) == s``.

    It reads the positions a referee outside the project sets up: a scoring
    phase (``"phase": "scoring"``), a stack draw (``"stacks"``), the bidding
    (``"bidding"``) and the passer's draw (``"pass"``). The keys are those of
    ``to_json()`` (``docs/records-undercut.md``, "State"); keys derived from
    others (``hand_pips``, ``markers_in_hand``...) are not read. It is checked
    as ``position`` and ``auction_position`` check theirs, and against itself:
    the 75 pieces all accounted for (bag, hands, stacks, bids, U-14),
    ``end_triggered`` as the scores say, the draw the one that comes next.
    ``SetupError`` says what does not fit."""
    try:
        return _from_json(data)
    except SetupError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        raise SetupError(f"not an Undercut position: {type(e).__name__} {e}") from None


def _from_json(data: dict[str, Any]) -> UndercutState:
    if not isinstance(data, dict):
        raise SetupError("an Undercut position is a JSON object (what to_json() gives)")
    if data.get("level") != "full":
        raise SetupError("from_json() reads full-table positions (\"level\": \"full\", U-14)")
    phase = data.get("phase")
    if phase not in (Phase.SCORING, Phase.STACKS, Phase.BIDDING, Phase.PASS):
        raise SetupError(f"from_json() reads the phases scoring, stacks, bidding and pass, not {phase!r}")
    players = data["players"]
    start = data["start_player"]
    setup = {"players": players, "colors": data["colors"], "bag": data["bag_source"], "start": start}
    hands = [" ".join(h) for h in data["hands"]]
    scores = list(data["scores"])
    cv = data["combo_values"]
    if not isinstance(cv, dict) or set(cv) != set(COMBOS):
        raise SetupError(f"combo_values must give {', '.join(COMBOS)}")
    values = [cv[c] for c in COMBOS]
    rnd = data["round"]
    active = data["active_player"]
    if phase == Phase.SCORING:
        s = position(setup, hands, scores, values)
        s = replace(s, round=rnd) if isinstance(rnd, int) and not isinstance(rnd, bool) and rnd >= 1 else s
        if s.round != rnd:
            raise SetupError(f"round must be 1 or more, not {rnd!r}")
        if s.phase != Phase.SCORING:
            raise SetupError("nobody holds a combo: the scoring phase is over (U-6)")
        if not isinstance(active, int) or isinstance(active, bool) or not 0 <= active < s.n:
            raise SetupError(f"active_player must be a seat, 0 to {s.n - 1}")
        pos = (active - s.seat_in_order(0)) % s.n
        for i in range(pos):
            seat = s.seat_in_order(i)
            if find_combos(s.hands[seat]):
                raise SetupError(f"{s.players[seat]} turns in before {s.players[active]} and still holds a "
                                 "combo (U-6)")
        if not find_combos(s.hands[active]):
            raise SetupError(f"{s.players[active]} holds no combo: the turn would pass on (U-6)")
        s = replace(s, active=active, pos=pos)
    else:
        stacks = [" ".join(st["pieces"]) for st in data["stacks"]]
        bids = [(st["bid"]["seat"], " ".join(["bid", st["name"], *st["bid"]["pieces"]]))
                for st in data["stacks"] if st.get("bid") is not None]
        if [st["name"] for st in data["stacks"]] != list(STACK_NAMES[:len(stacks)]):
            raise SetupError("the stacks are named A, B, C, D in order (U-7)")
        if phase == Phase.PASS:
            draw = data["draw"] or {}
            passer = draw.get("seat")
            if draw.get("for") != "pass" or not isinstance(passer, int) or passer != start:
                raise SetupError("at the passer's draw the draw is for the passer, the new start player (U-11)")
            scores[passer] -= 1  # the pass's point (U-11) is given again below
            s = auction_position(setup, hands, stacks, bids, passer, scores=scores, values=values, round=rnd)
            s = s._apply_pass(Pass(size=Size.parse(draw.get("size", "?"))), s.players[passer])
        else:
            s = auction_position(setup, hands, stacks, bids, active if phase == Phase.BIDDING else None,
                                 scores=scores, values=values, round=rnd)
    if s.phase != phase:
        raise SetupError(f"these stacks make the phase {s.phase}, not {phase} (U-7)")
    j = s.to_json()
    for key in ("bag", "draw", "end_triggered", "active_player", "scores"):
        if data.get(key) != j[key]:
            raise SetupError(f"{key} is {_short_json(data.get(key))}; the rest of the position makes it "
                             f"{_short_json(j[key])} (U-14)")
    return s


def _short_json(v: Any) -> str:
    t = json.dumps(v)
    return t if len(t) <= 120 else t[:120] + "..."


def _pieces(text: Any, what: str) -> tuple[Piece, ...]:
    """Pieces from a text (``"rL rM"``) or a list of piece texts; ``SetupError`` if not."""
    words = ([] if text.strip() == "-" else text.split()) if isinstance(text, str) else text
    if not isinstance(words, (list, tuple)) or not all(isinstance(w, str) for w in words):
        raise SetupError(f"{what}: pieces as a text such as \"rL rM rS\", not {text!r}")
    try:
        return tuple(Piece.parse(w) for w in words)
    except ValueError as e:
        raise SetupError(f"{what}: {e}") from None


def _scores(scores: Sequence[int], n: int) -> tuple[int, ...]:
    if len(scores) != n or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in scores):
        raise SetupError(f"scores: {n} whole numbers, 0 or more, one per seat")
    return tuple(scores)


def _values(values: Sequence[int]) -> tuple[int, int, int]:
    if len(values) != 3 or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 2 for x in values):
        raise SetupError("values: the TREE, TRIPLETS and FOURSOME values, whole numbers from 2 up (U-4)")
    a, b, c = values
    return (a, b, c)


def _placed(bid: Any, s: UndercutState) -> tuple[int, Bid]:
    try:
        seat, text = bid
    except (TypeError, ValueError):
        raise SetupError(f"a bid is (seat, \"bid A yM\"), not {bid!r}") from None
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < s.n:
        raise SetupError(f"bid {text!r}: the seat must be 0 to {s.n - 1}, not {seat!r}")
    try:
        move = parse_undercut_move(str(text))
    except ValueError as e:
        raise SetupError(f"bid {text!r}: {e}") from None
    if not isinstance(move, Bid):
        raise SetupError(f"{text!r} is not a bid (bid A yM)")
    return seat, move


def _check_census(pieces: Sequence[Piece], colors: tuple[Color, ...]) -> None:
    """The pieces fit in the 75 of the game (U-1): its colors, 5 of each piece."""
    if len(pieces) > TOTAL_PIECES:
        raise SetupError(f"{len(pieces)} pieces in the hands, stacks and bids: the game has {TOTAL_PIECES} (U-1)")
    bag = Bag(pieces)
    for p, k in bag.items():
        if p.color not in colors:
            raise SetupError(f"{p} is not one of this game's colors (U-1)")
        if k > 5:
            raise SetupError(f"{k} x {p}: the game has 5 of each piece (U-1)")


SPEC = GameSpec(
    "undercut", "Undercut", new_game, min_players=3, max_players=5,
    summary="Bid low for pieces; lowest score when someone reaches 10 wins",
    tags=("auction", "score"), lowest_wins=True,  # U-13
)
