"""Bag of Ice (J.D. Top, 2021): the pure push-your-luck engine.

Rules: the Bag of Ice rule text and rulings B-1..B-10 (docs/rulings.md). A turn
repeats "continue or quit" (B-4): ``roll`` makes a chance node over the six
die faces (B-2); on a two-size face the player picks the size (``size S``);
then a chance node over the pieces of that size in the bag, every piece
equally likely (two cyan mediums twice as likely as one yellow medium). A
red (bust color) piece busts the turn; ``bank`` scores the drawn pieces in
their best arrangement (B-5, ``best_arrangement``). Reaching the target
ends the game at once (B-6). Between turns every piece goes back (B-7).

The engine is deterministic: every die face and every drawn piece is an
ordinary move (``face S/M``, ``got cM``), so a replay never re-rolls. With
``"die": "physical"`` or ``"bag": "physical"`` the table enters those
outcomes; they are checked the same way (B-8) and ``broken`` busts a turn
in which a rule was broken.

The odds (B-9) are in ``companion.games.boi_odds``; this module never needs
them. Setup keys and move texts: ``docs/records-bag_of_ice.md``.

Example::

    >>> s = SPEC.new({"players": ["Ann", "Bob"]})
    >>> for t in ["roll", "face L", "got yL", "bank"]:
    ...     s = s.apply_text(t)
    >>> s.scores()
    (3, 0)
"""
from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations, permutations
from typing import Any, Iterable, NamedTuple, Sequence

from ..engine import CHANCE, TERMINAL, Detail, GameSpec, Move, Outcome, State, Termination
from .setup import read_players
from ..errors import IllegalMoveError, InvalidMoveError, SetupError
from ..pieces import Bag, Color, DieFace, Got, Piece, Size, die_outcomes
from .tools import BAG_OF_ICE_COLORS, bag_of_ice_bag

__all__ = [
    "Phase",
    "SPEC", "BagOfIceState", "new_game", "position", "best_arrangement", "tree_points",
    "Arrangement", "Tree", "TurnResult", "DEFAULT_COLORS", "DEFAULT_TARGET", "TOTAL_PIECES",
    "Roll", "Bank", "Broken", "Face", "PickSize", "Got", "Start", "parse_boi_move",
]

DEFAULT_COLORS: tuple[Color, ...] = BAG_OF_ICE_COLORS
"""B-1: bust color first, then the roles yellow, green, cyan, purple."""
DEFAULT_TARGET = 60
"""B-6: the default winning total."""
TOTAL_PIECES = 21
"""B-1: 5 larges, 7 mediums, 9 smalls."""
MAX_PLAYERS = 12
MAX_TARGET = 10_000

SOURCES = ("virtual", "physical")
SETUP_KEYS = ("players", "target", "start", "die", "bag", "colors")

GOLD_POINTS = 20    # B-5: a tree of the yellow or purple role (colors[1], colors[4])
SILVER_POINTS = 15  # B-5: a tree of the green or cyan role (colors[2], colors[3])
MIXED_POINTS = 10   # B-5: any other tree

_SIZE_WORD = {Size.SMALL: "small", Size.MEDIUM: "medium", Size.LARGE: "large"}

# ---------------------------------------------------------------- scoring (B-5)


class Tree(NamedTuple):
    """One scored tree: its three pieces (large, medium, small), its kind
    (a color name for a one-color tree, ``"mixed"`` otherwise) and points."""

    pieces: tuple[Piece, Piece, Piece]
    kind: str
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"pieces": [str(p) for p in self.pieces], "kind": self.kind, "points": self.points}


class Arrangement(NamedTuple):
    """The best arrangement of a turn's drawn pieces (B-5):
    ``score, trees, loose = best_arrangement(pieces)``."""

    score: int
    trees: tuple[Tree, ...]
    loose: tuple[Piece, ...]

    def to_json(self) -> dict[str, Any]:
        return {"score": self.score, "trees": [t.to_json() for t in self.trees],
                "loose": [str(p) for p in self.loose]}


def _mono_points(color: Color, colors: Sequence[Color]) -> int:
    """Points of a one-color tree of ``color`` (B-5, roles by position in ``colors``)."""
    if color in (colors[1], colors[4]):
        return GOLD_POINTS
    if color in (colors[2], colors[3]):
        return SILVER_POINTS
    return MIXED_POINTS  # the bust color (never in a live turn) or a foreign color


def tree_points(pieces: Sequence[Piece], colors: Sequence[Color] = DEFAULT_COLORS) -> int:
    """Points of three pieces L+M+S as one tree (B-5); ``ValueError`` if they are no tree."""
    if sorted(p.size for p in pieces) != [Size.SMALL, Size.MEDIUM, Size.LARGE]:
        raise ValueError("a tree is one large, one medium and one small")
    cs = {p.color for p in pieces}
    return _mono_points(next(iter(cs)), colors) if len(cs) == 1 else MIXED_POINTS


def _tree(pieces: Iterable[Piece], colors: Sequence[Color]) -> Tree:
    ps = tuple(sorted(pieces, key=lambda p: -p.size))
    cs = {p.color for p in ps}
    kind = ps[0].color.value if len(cs) == 1 else "mixed"
    points = tree_points(ps, colors)  # ValueError unless one large, one medium, one small
    large, medium, small = ps
    return Tree((large, medium, small), kind, points)


def best_arrangement(pieces: Iterable[Piece], colors: Sequence[Color] = DEFAULT_COLORS) -> Arrangement:
    """The highest-scoring arrangement of drawn pieces (B-5).

    A yellow or purple tree scores 20, a cyan or green tree 15 (the roles
    follow the order of ``colors``: bust, yellow, green, cyan, purple), any
    other L+M+S tree 10, every piece in no tree its pips. Each piece is in
    at most one tree.

    Method: every tree is worth more than its three pieces loose (10 > 6),
    so after choosing which one-color trees to make, as many other trees as
    the remaining sizes allow are made. The choice of one-color trees is
    enumerated (a color has at most one large in the bag, so at most one
    tree per color). ``tests/test_bag_of_ice_scoring.py`` checks this against
    a brute force over every multiset the bag allows.
    """
    pieces = list(pieces)
    counts = Counter(pieces)
    total_pips = sum(p.pips for p in pieces)
    size_count = Counter(p.size for p in pieces)
    cand = [c for c in dict.fromkeys(p.color for p in sorted(pieces))
            if all(counts[Piece(c, s)] for s in Size)]
    best_value = -1
    best_mono: tuple[Color, ...] = ()
    for mask in range(1 << len(cand)):
        mono = tuple(c for i, c in enumerate(cand) if mask >> i & 1)
        k = min(size_count[s] - len(mono) for s in Size)
        value = (sum(_mono_points(c, colors) for c in mono) + MIXED_POINTS * k
                 + total_pips - 6 * (len(mono) + k))
        if value > best_value or (value == best_value and len(mono) > len(best_mono)):
            best_value, best_mono = value, mono
    rest = counts.copy()
    trees: list[Tree] = []
    for c in best_mono:
        for s in Size:
            rest[Piece(c, s)] -= 1
        trees.append(_tree((Piece(c, s) for s in Size), colors))
    k = min(sum(n for p, n in rest.items() if p.size == s) for s in Size)
    trees += _mixed_trees(rest, k, colors)
    for t in trees[len(best_mono):]:
        for p in t.pieces:
            rest[p] -= 1
    loose = tuple(sorted(rest.elements(), key=lambda p: (-p.size, p)))
    trees.sort(key=lambda t: (-t.points, [str(p) for p in t.pieces]))
    score = sum(t.points for t in trees) + sum(p.pips for p in loose)
    assert score == best_value
    return Arrangement(score, tuple(trees), loose)


def _mixed_trees(rest: Counter, k: int, colors: Sequence[Color]) -> list[Tree]:
    """``k`` trees of the remaining pieces, none of one color when possible
    (a one-color tree left over would mean a better choice existed)."""
    if k == 0:
        return []
    by_size = {s: sorted(p for p in rest.elements() if p.size == s) for s in Size}
    larges = by_size[Size.LARGE][:k]
    # choose k mediums and k smalls (any k of each; pieces loose are worth their pips alike).
    # Every candidate is tried in sorted order, never set order: the first fit is the
    # arrangement shown and recorded, so it must be the same in every process (B-5).
    for mediums in _k_subsets(by_size[Size.MEDIUM], k):
        for smalls in _k_subsets(by_size[Size.SMALL], k):
            for mp in sorted(set(permutations(mediums))):
                for sp in sorted(set(permutations(smalls))):
                    triples = list(zip(larges, mp, sp))
                    if all(len({p.color for p in t}) > 1 for t in triples):
                        return [_tree(t, colors) for t in triples]
    raise AssertionError("unreachable: a forced one-color tree means a better choice")  # pragma: no cover


def _k_subsets(items: list[Piece], k: int) -> list[tuple[Piece, ...]]:
    """Distinct k-multisets of ``items`` (sorted), few since a color has at most 2 of a size."""
    return sorted(set(combinations(items, k)))


# ---------------------------------------------------------------- moves


@dataclass(frozen=True)
class Roll(Move):
    """Continue: roll the pyramid die (B-4)."""

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True)
class Bank(Move):
    """Quit: score the drawn pieces (B-5); before any draw it scores 0 (B-4)."""

    def __str__(self) -> str:
        return "bank"


@dataclass(frozen=True)
class Broken(Move):
    """Physical mode: a rule was broken (two pieces drawn, wrong size...): bust (B-8)."""

    def __str__(self) -> str:
        return "broken"


@dataclass(frozen=True)
class Face(Move):
    """Chance outcome: the die shows ``face`` (B-2); also a roll-off roll (B-3)."""

    face: DieFace

    def __str__(self) -> str:
        return f"face {self.face}"


@dataclass(frozen=True)
class PickSize(Move):
    """On a two-size face, the size the player draws (B-4)."""

    size: Size

    def __str__(self) -> str:
        return f"size {self.size.letter}"



@dataclass(frozen=True)
class Start(Move):
    """Chance outcome of a random start pick: seat (0-based; text 1-based)."""

    seat: int

    def __str__(self) -> str:
        return f"start {self.seat + 1}"


def parse_boi_move(text: str) -> Move:
    """A move from its text form; ``InvalidMoveError`` for anything else."""
    words = text.split()
    if not words:
        raise InvalidMoveError("empty move")
    head, args = words[0].lower(), words[1:]
    simple = {"roll": Roll, "bank": Bank, "broken": Broken}
    if head in simple:
        if args:
            raise InvalidMoveError(f"{head!r} takes nothing after it")
        return simple[head]()
    if len(args) == 1:
        if head == "face":
            return Face(DieFace.parse(args[0]))
        if head == "size":
            return PickSize(Size.parse(args[0]))
        if head == "got":
            return Got(Piece.parse(args[0]))
        if head == "start":
            if not args[0].isdigit() or int(args[0]) < 1:
                raise InvalidMoveError(f"start needs a seat number 1..N, not {args[0]!r}")
            return Start(int(args[0]) - 1)
    raise InvalidMoveError(
        f"not a Bag of Ice move: {text!r} (roll, bank, size S|M|L, face F, got P, start K, broken)")


# ---------------------------------------------------------------- state


@dataclass(frozen=True)
class TurnResult:
    """A finished turn: ``score`` banked (0 on a bust), the pieces drawn and,
    on a bust, what busted it (a red piece's text or ``"broken"``, B-8)."""

    turn: int
    seat: int
    score: int
    pieces: tuple[Piece, ...]
    bust_on: str | None = None

    @property
    def bust(self) -> bool:
        return self.bust_on is not None

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "result": "bust" if self.bust else "bank", "score": self.score,
                "pieces": [str(p) for p in self.pieces], "bust_on": self.bust_on}


class Phase(enum.StrEnum):
    """What the position waits for. A ``StrEnum``: its value is the word
    records and ``to_json`` use (record format version 1 unchanged)."""

    START = "start"
    """chance: the random start player (``start K``)"""
    ROLLOFF = "rolloff"
    """chance: each roller's roll-off face (B-3)"""
    DECIDE = "decide"
    """the active player rolls or banks (B-4)"""
    ROLL = "roll"
    """chance: the die face (B-2)"""
    SIZE = "size"
    """the active player picks one of the face's two sizes (B-4)"""
    DRAW = "draw"
    """chance: the piece drawn (B-4)"""
    OVER = "over"
    """the game is over (B-6)"""


@dataclass(frozen=True)
class BagOfIceState(State):
    """A Bag of Ice position. Immutable; ``apply`` returns a new state.

    Phases: ``start`` (chance ``start K``), ``rolloff`` (chance ``face F``
    per roller, B-3), ``decide`` (the active player: ``roll`` or ``bank``),
    ``roll`` (chance ``face F``), ``size`` (the active player picks one of
    the face's two sizes), ``draw`` (chance ``got P``), ``over``.
    """

    players: tuple[str, ...]
    target: int = DEFAULT_TARGET
    colors: tuple[Color, ...] = DEFAULT_COLORS
    die_source: str = "virtual"
    bag_source: str = "virtual"
    phase: Phase = Phase.DECIDE
    active: int | None = 0
    start: int | None = 0
    totals: tuple[int, ...] = ()
    history: tuple[TurnResult, ...] = ()     # every finished turn, in order
    turn: int = 1                            # number of the current turn (1-based)
    drawn: tuple[Piece, ...] = ()            # this turn's pieces, in draw order
    face: DieFace | None = None
    size: Size | None = None
    bag: Bag = Bag()
    rolloff: tuple[tuple[tuple[int, DieFace], ...], ...] = ()  # rounds of (seat, face)
    contenders: tuple[int, ...] = ()         # seats rolling in the current roll-off round
    winner: int | None = None
    game = "bag_of_ice"

    # ------------------------------------------------------------ basics

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def physical(self) -> bool:
        """Physical die or bag: the table enters outcomes and may break a rule (B-8)."""
        return "physical" in (self.die_source, self.bag_source)

    @property
    def current_player(self) -> int:
        if self.phase == Phase.OVER:
            return TERMINAL
        if self.phase in (Phase.START, Phase.ROLLOFF, Phase.ROLL, Phase.DRAW):
            return CHANCE
        assert self.active is not None
        return self.active

    def scores(self) -> tuple[int, ...]:
        return self.totals

    def credited_seat(self, move: Move) -> int | None:
        """The die roll and the draw of a turn are the active player's (B-4): a
        draw that busts is their row ("Ann busts on rS"), not chance's."""
        if self.phase in (Phase.ROLL, Phase.DRAW) and self.active is not None:
            return self.active
        return super().credited_seat(move)

    def outcome(self) -> Outcome | None:
        if self.phase != Phase.OVER or self.winner is None:
            return None
        return Outcome(Termination.TARGET, (self.winner,), self.totals,
                       Detail(f"{self.players[self.winner]} reached the target {self.target} (B-6)",
                              "target", (self.winner, self.target)))

    def arrangement(self) -> Arrangement:
        """This turn's drawn pieces in their best arrangement (B-5)."""
        return best_arrangement(self.drawn, self.colors)

    def turn_score(self) -> int:
        """What ``bank`` would score now (B-5)."""
        return self.arrangement().score

    def turns_of(self, seat: int) -> list[TurnResult]:
        """The finished turns of one seat, oldest first."""
        return [t for t in self.history if t.seat == seat]

    def turn_number(self) -> int:
        return self.turn

    def turns_completed(self) -> int:
        """Every finished turn, banked or bust (B-4, B-5): a row each in the CSV export."""
        return len(self.history)

    @property
    def roller(self) -> int | None:
        """The seat whose roll-off roll is awaited (B-3), else ``None``."""
        if self.phase != Phase.ROLLOFF:
            return None
        done = len(self.rolloff[-1]) if self.rolloff else 0
        return self.contenders[done]

    def bust_chance(self, size: Size) -> Fraction:
        """Chance that a draw of ``size`` busts now: reds of that size left /
        pieces of that size left (B-9)."""
        n = self.bag.count_size(size)
        return Fraction(self.bag.count(Piece(self.colors[0], size)), n) if n else Fraction(0)

    # ------------------------------------------------------------ moves

    def legal_moves(self) -> list[Move]:
        if self.phase == Phase.OVER:
            return []
        if self.current_player == CHANCE:
            return [m for m, _ in self.chance_outcomes()]
        extra: list[Move] = [Broken()] if self.physical else []
        if self.phase == Phase.DECIDE:
            return [Roll(), Bank(), *extra]
        assert self.phase == Phase.SIZE and self.face is not None
        return [*(PickSize(s) for s in self.face.sizes), *extra]

    def chance_outcomes(self) -> list[tuple[Move, Fraction]]:
        if self.phase == Phase.START:
            return [(Start(i), Fraction(1, self.n)) for i in range(self.n)]
        if self.phase in (Phase.ROLLOFF, Phase.ROLL):
            return [(Face(f), p) for f, p in die_outcomes()]
        if self.phase == Phase.DRAW:
            assert self.size is not None
            return [(Got(p), pr) for p, pr in self.bag.draw_outcomes(self.size)]
        return []

    def parse_move(self, text: str) -> Move:
        return parse_boi_move(text)

    # ------------------------------------------------------------ decisions

    def decision_kind(self) -> Phase:
        """Bag of Ice's decisions are its phases (``Phase``)."""
        return self.phase

    def extra_entries(self) -> list[Move]:
        """With a physical die or bag the table may call a broken rule at the
        die and bag entries too (B-8); at ``decide`` and ``size`` it is a legal move."""
        return [Broken()] if self.physical and self.phase in (Phase.ROLL, Phase.DRAW) else []

    def option_label(self, move: Move) -> str:
        if isinstance(move, Roll):
            return "roll and draw"
        if isinstance(move, Bank):
            return "bank"
        if isinstance(move, Broken):
            return "rule broken: bust"
        if isinstance(move, PickSize):
            return _SIZE_WORD[move.size]
        if isinstance(move, Face):
            return f"{move.face.label}: " + " or ".join(_SIZE_WORD[z] for z in move.face.sizes)
        if isinstance(move, Got):
            return f"{move.piece.color.value} {_SIZE_WORD[move.piece.size]}"
        if isinstance(move, Start):
            return self.players[move.seat] if 0 <= move.seat < self.n else str(move)
        return str(move)

    def _who(self) -> str:
        return self.players[self.active] if self.active is not None else "?"

    def _expecting(self) -> str:
        """What the position waits for, for refusal messages."""
        return {
            "start": "the start pick (start 1..N)",
            "rolloff": f"{self.players[self.roller]}'s roll-off roll (face F, B-3)" if self.roller is not None else "",
            "decide": f"{self._who()} to roll or bank (B-4)",
            "roll": "the die face (face F, B-2)",
            "size": f"{self._who()} to pick a size: " + " or ".join(f"size {s.letter}" for s in (self.face.sizes if self.face else ())) + " (B-4)",
            "draw": f"a {_SIZE_WORD[self.size]} piece (got P, B-4)" if self.size else "",
        }.get(self.phase, "")

    def apply(self, move: Move) -> "BagOfIceState":
        if self.phase == Phase.OVER:
            raise IllegalMoveError("the game is over (B-6)")
        if isinstance(move, Broken):
            if not self.physical:
                raise IllegalMoveError("broken is only for a physical die or bag (B-8)")
            if self.phase not in (Phase.DECIDE, Phase.ROLL, Phase.SIZE, Phase.DRAW):
                raise IllegalMoveError(f"no turn to break yet: waiting for {self._expecting()}")
            return self._end_turn(score=0, bust_on="broken")
        if isinstance(move, Start) and self.phase == Phase.START:
            if not 0 <= move.seat < self.n:
                raise IllegalMoveError(f"there is no seat {move.seat + 1} (seats 1..{self.n})")
            return self._begin(move.seat)
        if isinstance(move, Face) and self.phase == Phase.ROLLOFF:
            return self._rolloff(move.face)
        if isinstance(move, Roll) and self.phase == Phase.DECIDE:
            return replace(self, phase=Phase.ROLL)
        if isinstance(move, Bank) and self.phase == Phase.DECIDE:
            return self._end_turn(score=self.turn_score(), bust_on=None)
        if isinstance(move, Face) and self.phase == Phase.ROLL:
            if len(move.face.sizes) == 1:
                return replace(self, phase=Phase.DRAW, face=move.face, size=move.face.sizes[0])
            return replace(self, phase=Phase.SIZE, face=move.face, size=None)
        if isinstance(move, PickSize) and self.phase == Phase.SIZE:
            assert self.face is not None
            if move.size not in self.face.sizes:
                raise IllegalMoveError(
                    f"the face {self.face} shows {' and '.join(_SIZE_WORD[s] for s in self.face.sizes)}, "
                    f"not {_SIZE_WORD[move.size]} (B-4)")
            return replace(self, phase=Phase.DRAW, size=move.size)
        if isinstance(move, Got) and self.phase == Phase.DRAW:
            return self._draw(move.piece)
        raise IllegalMoveError(f"{move} is not possible now: waiting for {self._expecting()}")

    def _draw(self, piece: Piece) -> "BagOfIceState":
        assert self.size is not None and self.face is not None
        if piece.size != self.size:
            asked = (f"the face {self.face} asks for a {_SIZE_WORD[self.size]}" if len(self.face.sizes) == 1
                     else f"{_SIZE_WORD[self.size]} was picked on {self.face}")
            raise IllegalMoveError(f"{piece} is a {_SIZE_WORD[piece.size]}, but {asked} (B-8)")
        if piece.color not in self.colors:
            raise IllegalMoveError(f"{piece} is not one of this game's colors (B-1)")
        if piece not in self.bag:
            raise IllegalMoveError(f"no {piece} left in the bag: already drawn this turn (B-1)")
        if piece.color == self.colors[0]:
            return self._end_turn(score=0, bust_on=str(piece), last=piece)
        return replace(self, phase=Phase.DECIDE, drawn=self.drawn + (piece,),
                       bag=self.bag.remove(piece), face=None, size=None)

    def _end_turn(self, score: int, bust_on: str | None, last: Piece | None = None) -> "BagOfIceState":
        assert self.active is not None
        pieces = self.drawn + ((last,) if last is not None else ())
        result = TurnResult(self.turn, self.active, score, pieces, bust_on)
        totals = list(self.totals)
        totals[self.active] += score
        s = replace(self, totals=tuple(totals), history=self.history + (result,), face=None, size=None)
        if bust_on is None and totals[self.active] >= self.target:
            # B-6: the game ends at once; the winning turn's pieces stay on show
            return replace(s, phase=Phase.OVER, winner=self.active)
        # B-7: every drawn piece goes back to the bag
        return replace(s, phase=Phase.DECIDE, active=(self.active + 1) % self.n, turn=self.turn + 1,
                       drawn=(), bag=bag_of_ice_bag(self.colors))

    def _begin(self, seat: int) -> "BagOfIceState":
        return replace(self, phase=Phase.DECIDE, start=seat, active=seat, contenders=())

    def _rolloff(self, face: DieFace) -> "BagOfIceState":
        """B-3: everybody rolls, highest pip total starts, the tied highest roll again."""
        seat = self.roller
        assert seat is not None
        rounds = list(self.rolloff) or [()]
        rounds[-1] = rounds[-1] + ((seat, face),)
        s = replace(self, rolloff=tuple(rounds))
        if len(rounds[-1]) < len(self.contenders):
            return s
        best = max(f.pips for _, f in rounds[-1])
        top = tuple(st for st, f in rounds[-1] if f.pips == best)
        if len(top) == 1:
            return s._begin(top[0])
        return replace(s, rolloff=s.rolloff + ((),), contenders=top)

    # ------------------------------------------------------------ output

    def describe(self, move: Move) -> str:
        who = self._who()
        if isinstance(move, Start):
            return f"{self.players[move.seat]} starts" if 0 <= move.seat < self.n else str(move)
        if isinstance(move, Face):
            if self.phase == Phase.ROLLOFF and self.roller is not None:
                return f"{self.players[self.roller]} rolls {move.face} ({move.face.pips} pip{'' if move.face.pips == 1 else 's'}) in the roll-off"
            return f"{who} rolls {move.face}"
        if isinstance(move, Roll):
            return f"{who} rolls the die"
        if isinstance(move, PickSize):
            return f"{who} picks {_SIZE_WORD[move.size]}"
        if isinstance(move, Got):
            if move.piece.color == self.colors[0]:
                return f"{who} busts on {move.piece}"
            return f"{who} draws {move.piece}"
        if isinstance(move, Bank):
            score = self.turn_score() if self.phase == Phase.DECIDE else 0
            won = self.active is not None and self.totals[self.active] + score >= self.target
            return f"{who} banks {score}" + (" and wins (B-6)" if won else "")
        if isinstance(move, Broken):
            return f"{who} breaks a rule: bust (B-8)"
        return str(move)

    def to_json(self) -> dict[str, Any]:
        arr = self.arrangement()
        outcome = self.outcome()  # over means a winner (B-6): an outcome then, None before
        return {
            "players": list(self.players),
            "colors": [c.value for c in self.colors],
            "target": self.target,
            "die_source": self.die_source,
            "bag_source": self.bag_source,
            "totals": list(self.totals),
            "history": [[t.to_json() for t in self.turns_of(i)] for i in range(self.n)],
            "turn": self.turn,
            "start_player": self.start,
            "active_player": self.active,
            "phase": str(self.phase),
            "drawn": [str(p) for p in self.drawn],
            "turn_score": arr.score,
            "arrangement": arr.to_json(),
            "face": str(self.face) if self.face else None,
            "size": self.size.letter if self.size else None,
            "bag": self.bag.to_json(),
            "bag_count": len(self.bag),
            "rolloff": [[{"seat": st, "face": str(f), "pips": f.pips} for st, f in rnd] for rnd in self.rolloff],
            "rolloff_contenders": list(self.contenders),
            "last_turn": self.history[-1].to_json() | {"seat": self.history[-1].seat} if self.history else None,
            "winners": [self.winner] if self.phase == Phase.OVER else None,
            "result": str(outcome.detail) if outcome is not None else None,  # None until the game is over
        }


# ---------------------------------------------------------------- setup


def _source(setup: dict[str, Any], key: str) -> str:
    v = setup.get(key, "virtual")
    if v not in SOURCES:
        raise SetupError(f"{key} must be \"virtual\" or \"physical\", not {v!r}")
    return v


def new_game(setup: dict[str, Any]) -> BagOfIceState:
    """A new game from a setup object (keys in ``docs/records-bag_of_ice.md``)."""
    players = read_players(setup, SETUP_KEYS, "Bag of Ice", 1, MAX_PLAYERS, "B-3")
    target = setup.get("target", DEFAULT_TARGET)
    if not isinstance(target, int) or isinstance(target, bool) or not 1 <= target <= MAX_TARGET:
        raise SetupError(f"target must be a whole number 1..{MAX_TARGET}, not {target!r} (B-6)")
    start = setup.get("start", 0)
    if start not in ("random", "rolloff") and (
            not isinstance(start, int) or isinstance(start, bool) or not 0 <= start < len(players)):
        raise SetupError(f"start must be a seat 0..{len(players) - 1}, \"random\" or \"rolloff\" (B-3)")
    die, bag = _source(setup, "die"), _source(setup, "bag")
    raw = setup.get("colors", [c.value for c in DEFAULT_COLORS])
    if not isinstance(raw, list) or len(raw) != 5 or not all(isinstance(c, str) for c in raw):
        raise SetupError("colors must be a list of 5 color names, bust color first (B-1)")
    try:
        colors = tuple(Color.parse(c) for c in raw)
    except ValueError as e:
        raise SetupError(f"{e} (B-1)") from None
    if len(set(colors)) != 5:
        raise SetupError("the 5 colors must be different (B-1)")
    n = len(players)
    s = BagOfIceState(players=tuple(players), target=target, colors=colors, die_source=die,
                      bag_source=bag, totals=(0,) * n, bag=bag_of_ice_bag(colors))
    if start == "random":
        return replace(s, phase=Phase.START, active=None, start=None)
    if start == "rolloff":
        return replace(s, phase=Phase.ROLLOFF, active=None, start=None, contenders=tuple(range(n)))
    return s._begin(start)


def position(setup: dict[str, Any], drawn: str | Iterable[Piece] = (), totals: Sequence[int] | None = None,
             active: int | None = None) -> BagOfIceState:
    """A ``decide`` position with this turn's ``drawn`` pieces (text like
    ``"yL yM gS"`` or pieces) taken out of the bag: for tests, tutorials and
    the odds. The setup's start must be a seat."""
    s = new_game(setup)
    if s.phase != Phase.DECIDE:
        raise SetupError("position() needs a fixed start seat")
    pieces = Bag.parse(drawn) if isinstance(drawn, str) else Bag(drawn)
    if any(p.color == s.colors[0] for p in pieces):
        raise SetupError("a live turn holds no bust-color piece (B-4)")
    if not s.bag.contains_all(pieces):
        raise SetupError(f"the bag cannot supply {pieces} (B-1)")
    s = replace(s, drawn=tuple(pieces), bag=s.bag.remove(*pieces))
    if totals is not None:
        if len(totals) != s.n:
            raise SetupError(f"give {s.n} totals")
        s = replace(s, totals=tuple(int(t) for t in totals))
    if active is not None:
        if not isinstance(active, int) or isinstance(active, bool) or not 0 <= active < s.n:  # QA 5
            raise SetupError(f"active must be a seat, 0 to {s.n - 1}, not {active!r}")
        s = replace(s, active=active)
    return s


SPEC = GameSpec(
    "bag_of_ice", "Bag of Ice", new_game, min_players=1, max_players=MAX_PLAYERS,
    summary="Push your luck: draw from the bag, bank before a red; first to 60 wins",
    tags=("push-your-luck", "dice"),
    bgg_id=349057,  # boardgamegeek.com/boardgame/349057/bag-of-ice, linked from the game's wiki page
)
