"""The one engine API every game (and every tool) implements.

Shape (after python-chess and OpenSpiel):

* A game is a ``GameSpec``: a name, a title and ``new(setup) -> State``.
  ``setup`` is a plain JSON object (the header of a record); a bad one raises
  ``SetupError``.
* A ``State`` is immutable. ``apply(move)`` returns a *new* state and leaves
  the old one as it was, so an illegal move (``IllegalMoveError``) can never
  half-change anything, and undo is just "fold the events again without the
  undone one".
* A move is a small frozen value whose ``str()`` is its text form;
  ``state.parse_move(str(m)) == m`` for every legal move ``m``.
* Chance is explicit: at a chance node ``current_player == CHANCE`` and
  ``chance_outcomes()`` lists ``(move, probability)``. The driver picks one
  (``pick_chance`` with an injected ``random.Random``) and applies it like any
  other move, so a record holds the outcome and a replay never re-rolls.
* Game end is data: ``outcome()`` returns an ``Outcome`` or ``None``.
* ``decision()`` says what the position waits for, as one frozen value: who
  acts (a seat, ``CHANCE`` for the device at a chance point, ``TERMINAL``
  when the game is over), the kind of decision (an ``Enum`` of the game) and
  the options as ``Move`` values, each with its label in words and, at a
  chance point, its probability. Screens draw decisions; they never compare
  phase words or parse move texts.

One example per game::

    >>> from companion.games import spec
    >>> d = spec("bag_of_ice").new({"players": ["Ann", "Bob"]}).decision()
    >>> d.who, d.kind.name, [o.label for o in d.options]
    (0, 'DECIDE', ['roll and draw', 'bank'])
    >>> d = spec("undercut").new({"players": ["Ann", "Bob", "Cat"], "level": "score"}).decision()
    >>> d.who, d.kind.name, [o.label for o in d.options]
    (0, 'SHEET', ['TREE', 'TRIPLETS', 'FOURSOME', 'done: no combo'])
    >>> s = spec("bottoms_up").new({"players": ["Ann", "Bob"], "secret": "physical"})
    >>> d = s.decision()
    >>> d.kind.name, [o.label for o in d.options][:2]
    ('OPENING', ['red small', 'blue small'])
    >>> d = s.apply_text("place rS").apply_text("place bS").decision()
    >>> d.who, d.kind.name, len(d.options), str(d.options[0].move), d.options[0].label
    (0, 'PLACE', 36, 'place rS on A', 'red small on A')
    >>> from companion.games.bottoms_up import position
    >>> d = position({"players": ["Ann", "Bob"]}, ["rS", "bS"]).apply_text("place yS on B").decision()
    >>> d.kind.name, [o.label for o in d.options]
    ('YELLOW', ['onto A', 'open space'])
    >>> d = spec("bag_of_ice").new({"players": ["Ann", "Bob"]}).apply_text("roll").decision()
    >>> d.is_chance, d.kind.name, d.options[0].label, d.options[0].probability
    (True, 'ROLL', 'S: small', Fraction(1, 6))
"""
from __future__ import annotations

import enum
import math
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, ClassVar, Iterable, Sequence

from .errors import IllegalMoveError, InvalidMoveError

__all__ = [
    "CHANCE", "TERMINAL", "Move", "State", "Outcome", "Termination", "GameSpec", "Option", "Decision", "BasicKind",
    "pick_chance", "replay_moves",
]

CHANCE = -1
"""``current_player`` at a chance node: the driver picks an outcome."""
TERMINAL = -2
"""``current_player`` once the game is over."""


class Move:
    """Marker base class of moves. Subclasses are frozen dataclasses whose
    ``__str__`` is the text form the game's ``parse_move`` reads back."""

    __slots__ = ()


class BasicKind(enum.Enum):
    """The decision kinds of a game (or tool) that defines none of its own."""

    PLAYER = "player"  # a seat chooses
    CHANCE = "chance"  # the device draws (or the table enters the outcome)
    OVER = "over"


@dataclass(frozen=True)
class Option:
    """One option of a ``Decision``: the move, its label in words and, at a
    chance point, its probability (``None`` for an entry that is not an
    outcome, e.g. Bag of Ice's ``broken`` with a physical die, B-8)."""

    move: Move
    label: str
    probability: Fraction | None = None


@dataclass(frozen=True)
class Decision:
    """What a position waits for: ``who`` acts (a seat, ``CHANCE`` or
    ``TERMINAL``), the ``kind`` of decision (an ``Enum`` of the game) and its
    ``options`` in the engine's order (empty once the game is over)."""

    who: int
    kind: enum.Enum
    options: tuple[Option, ...] = ()

    @property
    def is_chance(self) -> bool:
        return self.who == CHANCE

    @property
    def is_over(self) -> bool:
        return self.who == TERMINAL

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(o.move for o in self.options)


class Termination(enum.Enum):
    """Why a game ended."""

    SCORE_LIMIT = "score_limit"      # Undercut: a score reached 10 (U-12)
    TARGET = "target"                # Bag of Ice: a total reached the target (B-6)
    STASH_EMPTY = "stash_empty"      # Bottoms Up: stash empty at a turn start (BU-10)
    FINISHED = "finished"            # a tool session closed by the user


class Detail(str):
    """An outcome's detail (issue 45): a code the words layer words (``code``, a game's
    own ``StrEnum`` value, with its ``args``), whose text is the records' English
    sentence ("lowest score (U-13)"): ``Outcome.to_json``, the records and the exports
    say it as before, and no view keys a translation on that English text."""

    code: str
    args: tuple[Any, ...]

    def __new__(cls, text: str, code: str = "", args: tuple[Any, ...] = ()) -> "Detail":
        self = super().__new__(cls, text)
        self.code = str(code)
        self.args = tuple(args)
        return self

    def __getnewargs__(self) -> tuple[Any, ...]:  # copy and pickle keep the code
        return (str(self), self.code, self.args)


def detail_code(detail: Any) -> str:
    """The code of an outcome's detail ("" for a plain text: an old state, a tool)."""
    return getattr(detail, "code", "")


@dataclass(frozen=True)
class Outcome:
    """The end of a game: why, who won (seats; several on a shared win), scores, and
    the detail (a ``Detail``: a code with the records' English text)."""

    termination: Termination
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "termination": self.termination.value,
            "winners": list(self.winners),
            "scores": list(self.scores),
            "detail": str(self.detail),
        }


class State(ABC):
    """A game position. Immutable: every change makes a new state."""

    game: ClassVar[str] = ""

    # --- who acts
    @property
    @abstractmethod
    def current_player(self) -> int:
        """Seat index of the player to act, ``CHANCE`` or ``TERMINAL``."""

    def is_chance_node(self) -> bool:
        return self.current_player == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    # --- moves
    @abstractmethod
    def legal_moves(self) -> Sequence[Move]:
        """Every legal move (at a chance node: the outcomes' moves)."""

    def chance_outcomes(self) -> list[tuple[Move, Fraction]]:
        """``(move, probability)`` at a chance node; empty elsewhere."""
        return []

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """The move a text form names; ``InvalidMoveError`` if it names none."""

    @abstractmethod
    def apply(self, move: Move) -> "State":
        """A new state with ``move`` played; ``IllegalMoveError`` if not allowed."""

    def is_legal(self, move: Move) -> bool:
        try:
            self.apply(move)
        except IllegalMoveError:
            return False
        return True

    def forced_move(self) -> Move | None:
        """A player move the rules apply without asking (a choice with one
        legal option, U-6, BU-13), or ``None``. The app applies it at once and
        undo steps back over it."""
        return None

    # --- the decision the position waits for
    def decision_kind(self) -> enum.Enum:
        """The kind of decision the position waits for: a game's own ``Kind``
        (default: ``BasicKind``, from ``current_player`` alone)."""
        who = self.current_player
        return BasicKind.OVER if who == TERMINAL else BasicKind.CHANCE if who == CHANCE else BasicKind.PLAYER

    def option_label(self, move: Move) -> str:
        """A move as an option, in words (default: its text form)."""
        return str(move)

    def decision(self) -> Decision:
        """Who acts, the kind of decision and the options (see the module docstring)."""
        who = self.current_player
        if who == TERMINAL:
            return Decision(who, self.decision_kind())
        if who == CHANCE:
            opts = [Option(m, self.option_label(m), p) for m, p in self.chance_outcomes()]
        else:
            opts = [Option(m, self.option_label(m)) for m in self.legal_moves()]
        opts += [Option(m, self.option_label(m)) for m in self.extra_entries()]
        return Decision(who, self.decision_kind(), tuple(opts))

    def extra_entries(self) -> Sequence[Move]:
        """Moves the table may enter besides the options (default: none)."""
        return ()

    def apply_text(self, text: str) -> "State":
        return self.apply(self.parse_move(text))

    # --- results
    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """Current score of every seat."""

    def outcome(self) -> Outcome | None:
        """The end of the game, or ``None`` while it goes on."""
        return None

    def turn_number(self) -> int | None:
        """The number of the turn (or round) under way, as players count them, for
        exports numbering their rows by turn; ``None`` where the game has none."""
        return None

    def turn_unit(self) -> str:
        """What ``turn_number`` counts, as the CSV export's first column names it:
        ``turn`` (a game that counts rounds says ``round``)."""
        return "turn"

    def turns_completed(self) -> int | None:
        """How many scored turns are over (a turn that scores 0 counts, e.g. a
        Bag of Ice bust), for exports of the scores per turn; ``None`` where
        only score changes mark the rows."""
        return None

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The whole position as plain JSON (what ``companion replay --json`` prints)."""

    def describe(self, move: Move) -> str:
        """One line for a log or a screen, in this position's terms."""
        return str(move)

    def describe_forced(self, move: Move) -> str:
        """``describe`` for the move the device played for the player
        (``forced_move``): it says that the device moved, not the player."""
        return f"{self.describe(move)} (the only move)"

    def describe_end(self) -> str | None:
        """At a terminal state, what ended the game when the move that ended it
        does not say it (exports add it to that move's row); default: nothing."""
        return None

    def credited_seat(self, move: Move) -> int | None:
        """The seat ``move`` is credited to in exports (the CSV's ``player``
        column, the PNG sheet's rows): by default the player to move; ``None``
        at a chance node nobody's turn owns, or once the game is over. A game
        whose move names its player (a score-sheet pass) or whose chance
        outcome belongs to a turn (a draw that busts) says so."""
        p = self.current_player
        return p if p >= 0 else None


@dataclass(frozen=True)
class GameSpec:
    """How to start a game: its record name, screen title and constructor."""

    name: str
    title: str
    new: Callable[[dict[str, Any]], State]
    min_players: int = 1
    max_players: int = 1
    summary: str = ""
    tags: tuple[str, ...] = field(default=())
    bgg_id: int | None = None      # BoardGameGeek's id of the game, where one is known for certain
    lowest_wins: bool = False      # the lowest score wins (Undercut, U-13): a play logger ranks upward


def pick_chance(state: State, rng: random.Random) -> Move:
    """The driver's pick at a chance node, with exact integer weights.

    The only place randomness enters: the engines never hold a generator.
    """
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise IllegalMoveError("not a chance node")
    denom = math.lcm(*(p.denominator for _, p in outcomes))
    weights = [int(p * denom) for _, p in outcomes]
    r = rng.randrange(sum(weights))
    for (move, _), w in zip(outcomes, weights):
        if r < w:
            return move
        r -= w
    raise AssertionError("unreachable")  # pragma: no cover


def replay_moves(state: State, texts: Iterable[str]) -> State:
    """Apply move texts in order; errors say which move (1-based) failed."""
    for i, text in enumerate(texts, 1):
        try:
            state = state.apply(state.parse_move(text))
        except (InvalidMoveError, IllegalMoveError) as e:
            raise type(e)(f"move {i} ({text!r}): {e}") from None
    return state
