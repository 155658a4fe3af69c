"""Bottoms Up (Chris Goodwin, 2001): the pure referee engine.

Rules: the Bottoms Up rule text (the wiki text and the original) with
rulings BU-1..BU-13 (docs/rulings.md). Setup keys and every move text are specified in
``docs/records-bottoms_up.md`` (the contract for outside referees).

Shape of a game:

* ``secret`` (device mode only, BU-3): chance moves ``secret C``, one per
  seat in seat order, distinct colors.
* ``opening`` (BU-4): each seat in order plays ``place cS`` (a small, as a
  lone piece).
* turns (BU-5): ``place P on X`` (or ``place P`` on an empty field), then the
  recalculation runs (BU-7, BU-8, BU-9). It stops only for the active
  player's choices, which are part of the state: ``blue C`` (new color) and
  ``yellow X`` / ``yellow open`` (destination). ``forced_move()`` gives the
  single option of a one-option choice (BU-13).
* end (BU-10): the stash is empty at the start of a turn. Physical secret
  mode: each seat enters ``reveal C``. Then scores (BU-11), winners (BU-12).

Field labels: every lone piece or stack (a *group*) has a label ``A``,
``B``, ... ``Z``, ``AA``, ``AB``, ... A new group (the first piece placed on an
empty field, an opening piece, a piece moved by yellow to open space, a small
spawned by green) takes the first label not in use at that moment; a group
keeps its label while it holds at least one piece (placing on it, drops and
replacements keep it); an emptied group frees its label.

Example::

    >>> s = position({"players": ["Ann", "Bob", "Cat", "Dan"]}, ["bM", "wS"])
    >>> t = s.apply_text("place rS on A")          # red shrinks bM to bS
    >>> t.field_lines()
    ['A: bS rS', 'B: wS']
    >>> t.last_lines()[1]
    'A: red shrinks bM to bS'
"""
from __future__ import annotations

import enum
import itertools
from collections import Counter
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Mapping, Sequence

from ..engine import CHANCE, TERMINAL, Detail, GameSpec, Move, Outcome, State, Termination
from .setup import read_players
from ..errors import IllegalMoveError, InvalidMoveError, SetupError
from ..pieces import Bag, Color, Piece, Size

__all__ = [
    "Phase", "Kind",
    "SPEC", "BottomsUpState", "Group", "Step", "StepKind", "Pending", "new_game", "position",
    "Place", "Secret", "BlueChoice", "YellowChoice", "Reveal", "parse_bu_move",
    "COLORS", "label_of", "TOTAL_DEFAULT", "SETUP_KEYS",
]

COLORS: tuple[Color, ...] = (Color.RED, Color.BLUE, Color.GREEN, Color.YELLOW, Color.WHITE, Color.BLACK)
"""The six colors of BU-1, in the order the engine lists options."""
TOTAL_DEFAULT = 90
"""6 colors x 3 sizes x 5 pieces (BU-1)."""
SETUP_KEYS = ("players", "secret", "stash", "lone_pieces_count")
SECRET_MODES = ("device", "physical")
POINTS = {Size.SMALL: 1, Size.MEDIUM: 2, Size.LARGE: 3}  # BU-11

_SMALLER = {Size.LARGE: (Size.MEDIUM, Size.SMALL), Size.MEDIUM: (Size.SMALL,), Size.SMALL: ()}
_LARGER = {Size.SMALL: Size.MEDIUM, Size.MEDIUM: Size.LARGE}
_EFFECT_NAME = {Color.RED: "red", Color.BLUE: "blue", Color.GREEN: "green", Color.YELLOW: "yellow"}


def label_of(n: int) -> str:
    """The n-th label (0-based): A..Z, AA..AZ, BA..."""
    s = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        s = chr(65 + r) + s
    return s


def _label_key(label: str) -> tuple[int, str]:
    return (len(label), label)


def _bu_color(text: str) -> Color:
    c = Color.parse(text)
    if c not in COLORS:
        raise InvalidMoveError(f"{c.value} is not a Bottoms Up color (r b g y w k, BU-1)")
    return c


# ---------------------------------------------------------------- moves


@dataclass(frozen=True)
class Place(Move):
    """``place P on X`` (a turn, BU-5) or ``place P`` (opening BU-4, or an empty field)."""

    piece: Piece
    target: str | None = None

    def __str__(self) -> str:
        return f"place {self.piece}" + (f" on {self.target}" if self.target else "")


@dataclass(frozen=True)
class Secret(Move):
    """Chance: the next seat's secret color (device mode, BU-3)."""

    color: Color

    def __str__(self) -> str:
        return f"secret {self.color.letter}"


@dataclass(frozen=True)
class Reveal(Move):
    """Physical mode, at the end: the next seat's secret color as drawn at the table (BU-3)."""

    color: Color

    def __str__(self) -> str:
        return f"reveal {self.color.letter}"


@dataclass(frozen=True)
class BlueChoice(Move):
    """The active player's new color for a piece hit by blue (BU-8)."""

    color: Color

    def __str__(self) -> str:
        return f"blue {self.color.letter}"


@dataclass(frozen=True)
class YellowChoice(Move):
    """Where a piece hit by yellow goes: onto group ``target``, or open space (``None``)."""

    target: str | None

    def __str__(self) -> str:
        return f"yellow {self.target or 'open'}"


def parse_bu_move(text: str) -> Move:
    """A Bottoms Up move from its text; ``InvalidMoveError`` on bad syntax."""
    words = text.split()
    if not words:
        raise InvalidMoveError("empty move")
    head, args = words[0].lower(), words[1:]
    if head == "place" and len(args) in (1, 3):
        piece = Piece.parse(args[0])
        if piece.color not in COLORS:
            raise InvalidMoveError(f"{piece.color.value} is not a Bottoms Up color (BU-1)")
        if len(args) == 1:
            return Place(piece)
        if args[1].lower() != "on" or not args[2].isalpha():
            raise InvalidMoveError(f"expected 'place P on X', not {text!r}")
        return Place(piece, args[2].upper())
    if head in ("secret", "reveal", "blue") and len(args) == 1:
        c = _bu_color(args[0])
        return {"secret": Secret, "reveal": Reveal, "blue": BlueChoice}[head](c)
    if head == "yellow" and len(args) == 1:
        a = args[0]
        if a.lower() == "open":
            return YellowChoice(None)
        if not a.isalpha():
            raise InvalidMoveError(f"expected 'yellow X' (a label) or 'yellow open', not {text!r}")
        return YellowChoice(a.upper())
    raise InvalidMoveError(
        f"not a Bottoms Up move: {text!r} (place P on X, blue C, yellow X|open, secret C, reveal C)")


# ---------------------------------------------------------------- field values


@dataclass(frozen=True)
class Group:
    """A lone piece or a stack: a stable label and its pieces bottom to top.

    ``slots`` pairs each piece with an internal slot id (a piece's identity
    during a recalculation pass; a replacement keeps the slot, BU-7)."""

    gid: int
    label: str
    slots: tuple[tuple[int, Piece], ...]

    @property
    def pieces(self) -> tuple[Piece, ...]:
        return tuple(p for _, p in self.slots)

    @property
    def top(self) -> Piece:
        return self.slots[-1][1]

    def __str__(self) -> str:
        return f"{self.label}: " + " ".join(str(p) for p in self.pieces)


class StepKind(enum.StrEnum):
    """What a step of the recalculation log is. A ``StrEnum``: its value is the
    word the records print (``to_json``), so a typo fails at import."""

    PLACE = "place"
    START = "start"        # a pass begins (BU-7)
    END = "end"            # a pass ends, or the game (BU-10)
    SKIP = "skip"          # a queued group no longer exists (BU-9)
    SHRINK = "shrink"
    DESTROY = "destroy"
    RECOLOR = "recolor"
    GROW = "grow"
    SPAWN = "spawn"
    MOVE = "move"
    NONE = "none"          # an effect with no result
    CHOICE = "choice"      # waiting for the active player (BU-8)
    IMMUNE = "immune"      # BU-8 item 1


@dataclass(frozen=True)
class Step:
    """One step of a recalculation log.

    ``kind``: a ``StepKind``: ``place``, ``start`` (a pass begins), ``end`` (a
    pass ends), ``skip`` (a queued group no longer exists), ``shrink``,
    ``destroy``, ``recolor``, ``grow``, ``spawn``, ``move``, ``none`` (an
    effect with no result), ``choice`` (waiting for the active player), ``immune``.
    ``label``: the group where it happens; ``text``: the human line (English,
    the records' vocabulary). ``args``: the pieces of the line as codes, for a
    screen that builds the line in its own language: a variant word first
    where the kind has several lines, then the pieces; an effect line ends
    with ``how``: ``()``, ``("reflect", upper, lower)`` (BU-8 item 4),
    ``("white", upper)`` or ``("own", upper)`` (BU-8 item 5). Not in
    ``to_json``."""

    kind: StepKind
    label: str
    text: str
    rule: str = ""
    args: tuple = ()

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "label": self.label, "text": self.text, "rule": self.rule}


@dataclass(frozen=True)
class Pending:
    """A choice the active player must make now (BU-8, BU-9, BU-13)."""

    kind: str                 # "blue" or "yellow"
    gid: int                  # group holding the affected piece
    slot: int                 # the affected piece's slot
    options: tuple[Move, ...]
    why: str                  # the step text that asked


@dataclass(frozen=True)
class Cursor:
    """Where a recalculation pass stands (BU-7): group, noted slots, index,
    and stage 1 = BU-8 item 5's second half (``u`` takes its own effect)."""

    gid: int
    noted: tuple[int, ...]
    idx: int = 0
    stage: int = 0
    u: int | None = None


# ---------------------------------------------------------------- state


class Phase(enum.StrEnum):
    """What the position waits for. A ``StrEnum``: its value is the word
    records and ``to_json`` use (record format version 1 unchanged)."""

    SECRET = "secret"
    """chance: the secret colors (device mode, BU-3)"""
    OPENING = "opening"
    """each seat places a small as a lone piece (BU-4)"""
    PLAY = "play"
    """turns: a placement, then its recalculation's choices (BU-5..BU-9)"""
    REVEAL = "reveal"
    """physical secret mode: each seat enters its color (BU-10)"""
    OVER = "over"
    """the game is over (BU-10)"""


class Kind(enum.Enum):
    """The kinds of decision a Bottoms Up position waits for (``decision()``)."""

    SECRET = "secret"      # chance: a secret color (device mode, BU-3)
    OPENING = "opening"    # a small placed as a lone piece (BU-4)
    PLACE = "place"        # a piece from the stash onto a piece in play (BU-5)
    BLUE = "blue"          # the new color of a piece hit by blue (BU-8)
    YELLOW = "yellow"      # where a piece hit by yellow goes (BU-8, BU-9)
    REVEAL = "reveal"      # physical secret colors: each seat enters its color (BU-10)
    OVER = "over"


@dataclass(frozen=True)
class BottomsUpState(State):
    """A Bottoms Up position. Immutable; ``apply`` returns a new state.

    ``phase``: ``secret`` (chance), ``opening``, ``play``, ``reveal``,
    ``over``. During ``play`` a non-``None`` ``pending`` is a choice of the
    active player (phase ``choice`` in ``to_json``)."""

    players: tuple[str, ...]
    secret_mode: str = "device"
    lone_count: bool = False
    per: int = 5
    warning: str | None = None
    phase: Phase = Phase.OPENING
    active: int = 0
    turn: int = 0
    secrets: tuple[Color | None, ...] = ()
    stash: Bag = field(default_factory=Bag)
    destroyed: Bag = field(default_factory=Bag)
    groups: tuple[Group, ...] = ()
    next_gid: int = 0
    next_slot: int = 0
    cursor: Cursor | None = None
    queue: tuple[int, ...] = ()
    pending: Pending | None = None
    last_steps: tuple[Step, ...] = ()
    last_changed: frozenset[str] = frozenset()
    game = "bottoms_up"

    # ------------------------------------------------------------ basics

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def total(self) -> int:
        return 18 * self.per

    @property
    def current_player(self) -> int:
        if self.phase == Phase.OVER:
            return TERMINAL
        if self.phase == Phase.SECRET:
            return CHANCE
        return self.active

    def group(self, label: str) -> Group | None:
        for g in self.groups:
            if g.label == label:
                return g
        return None

    def group_by_id(self, gid: int) -> Group | None:
        """The group with internal id ``gid`` (ids are what ``Pending`` and
        ``Cursor`` refer to), or ``None`` once it is gone."""
        for g in self.groups:
            if g.gid == gid:
                return g
        return None

    def pending_at(self) -> tuple[Group, int, Piece] | None:
        """Where the pending choice is: its group, the piece's index in it
        (0 = bottom) and the piece; ``None`` when no choice is pending."""
        pend = self.pending
        if pend is None:
            return None
        g = self.group_by_id(pend.gid)
        assert g is not None, "a pending choice is always about a piece on the field"
        i = next(k for k, (sl, _) in enumerate(g.slots) if sl == pend.slot)
        return g, i, g.slots[i][1]

    def field_groups(self) -> list[Group]:
        """The groups in label order (A, B, ..., Z, AA, ...)."""
        return sorted(self.groups, key=lambda g: _label_key(g.label))

    def field_lines(self) -> list[str]:
        """``["A: wS rM", ...]`` in label order, pieces bottom to top."""
        return [str(g) for g in self.field_groups()]

    def field_pieces(self) -> Bag:
        return Bag(p for g in self.groups for p in g.pieces)

    def last_lines(self) -> list[str]:
        """The human lines of the last move's step log."""
        return [s.text for s in self.last_steps]

    # ------------------------------------------------------------ moves

    def parse_move(self, text: str) -> Move:
        return parse_bu_move(text)

    # ------------------------------------------------------------ decisions

    def decision_kind(self) -> Kind:
        if self.pending is not None:
            return Kind.BLUE if self.pending.kind == "blue" else Kind.YELLOW
        return {Phase.SECRET: Kind.SECRET, Phase.OPENING: Kind.OPENING, Phase.PLAY: Kind.PLACE,
                Phase.REVEAL: Kind.REVEAL, Phase.OVER: Kind.OVER}[self.phase]

    def option_label(self, move: Move) -> str:
        if isinstance(move, Place):
            words = f"{move.piece.color.value} {move.piece.size.name.lower()}"
            return words if move.target is None else f"{words} on {move.target}"
        if isinstance(move, (BlueChoice, Secret, Reveal)):
            return move.color.value
        if isinstance(move, YellowChoice):
            return "open space" if move.target is None else f"onto {move.target}"
        return str(move)

    def is_turn_start(self, move: Move) -> bool:
        """``move`` played here begins a turn (a placement after the opening, BU-5)."""
        return isinstance(move, Place) and self.phase == Phase.PLAY and self.pending is None

    def chance_outcomes(self) -> list[tuple[Move, Fraction]]:
        if self.phase != Phase.SECRET:
            return []
        left = [c for c in COLORS if c not in self.secrets]
        return [(Secret(c), Fraction(1, len(left))) for c in left]

    def legal_moves(self) -> list[Move]:
        ph = self.phase
        if ph == Phase.OVER:
            return []
        if ph == Phase.SECRET:
            return [m for m, _ in self.chance_outcomes()]
        if ph == Phase.REVEAL:
            return [Reveal(c) for c in COLORS if c not in self.secrets]
        if self.pending is not None:
            return list(self.pending.options)
        if ph == Phase.OPENING:
            return [Place(Piece(c, Size.SMALL)) for c in COLORS if Piece(c, Size.SMALL) in self.stash]
        pieces = [Piece(c, z) for c in COLORS for z in Size if Piece(c, z) in self.stash]
        if not self.groups:
            return [Place(p) for p in pieces]
        labels = [g.label for g in self.field_groups()]
        return [Place(p, x) for p in pieces for x in labels]

    def forced_move(self) -> Move | None:
        """The single option of a pending choice (BU-13 applies it without asking)."""
        if self.pending is not None and len(self.pending.options) == 1:
            return self.pending.options[0]
        return None

    def apply(self, move: Move) -> "BottomsUpState":
        ph = self.phase
        if ph == Phase.OVER:
            raise IllegalMoveError("the game is over (BU-10)")
        if ph == Phase.SECRET:
            if not isinstance(move, Secret):
                raise IllegalMoveError(f"waiting for {self.players[self.active]}'s secret color draw (secret C, BU-3)")
            if move.color in self.secrets:
                raise IllegalMoveError(f"{move.color.value} was already drawn: the secret colors are distinct (BU-3)")
            secrets = self.secrets[:self.active] + (move.color,) + self.secrets[self.active + 1:]
            nxt = self.active + 1
            if nxt < self.n:
                return replace(self, secrets=secrets, active=nxt, last_steps=(), last_changed=frozenset())
            return replace(self, secrets=secrets, active=0, phase=Phase.OPENING, last_steps=(), last_changed=frozenset())
        if isinstance(move, Secret):
            raise IllegalMoveError("the secret colors are not being drawn now (BU-3)")
        if ph == Phase.REVEAL:
            if not isinstance(move, Reveal):
                raise IllegalMoveError(f"the game is over: enter {self.players[self.active]}'s secret color (reveal C, BU-3)")
            if move.color in self.secrets:
                raise IllegalMoveError(f"{move.color.value} is already someone's color: the secret colors are distinct (BU-3)")
            secrets = self.secrets[:self.active] + (move.color,) + self.secrets[self.active + 1:]
            s = replace(self, secrets=secrets, last_steps=(), last_changed=frozenset())
            if self.active + 1 < self.n:
                return replace(s, active=self.active + 1)
            return replace(s, phase=Phase.OVER, active=0)
        if isinstance(move, Reveal):
            raise IllegalMoveError("colors are revealed at the end of the game (BU-10)")
        if self.pending is not None:
            return self._apply_choice(move)
        if isinstance(move, (BlueChoice, YellowChoice)):
            raise IllegalMoveError(f"no {'blue' if isinstance(move, BlueChoice) else 'yellow'} choice is pending")
        if not isinstance(move, Place):
            raise IllegalMoveError(f"not a Bottoms Up move: {move!r}")
        return self._apply_place(move)

    def _apply_place(self, move: Place) -> "BottomsUpState":
        p = move.piece
        if self.phase == Phase.OPENING:
            if move.target is not None:
                raise IllegalMoveError("opening pieces go down as lone pieces: 'place cS' (BU-4)")
            if p.size != Size.SMALL:
                raise IllegalMoveError(f"the opening piece must be a small, not {p} (BU-4)")
        if p not in self.stash:
            raise IllegalMoveError(f"no {p} left in the stash")
        if self.phase == Phase.PLAY and self.groups and move.target is None:
            raise IllegalMoveError(f"put {p} on a piece in play: 'place {p} on X' (BU-5)")
        if move.target is not None and self.group(move.target) is None:
            have = ", ".join(g.label for g in self.field_groups()) or "none"
            raise IllegalMoveError(f"there is no {move.target} on the field (labels: {have})")
        w = _Work(self)
        who = self.players[self.active]
        slot = w.new_slot()
        w.take(p)
        if move.target is None:
            label = w.new_group([(slot, p)])
            why = "BU-4" if self.phase == Phase.OPENING else "BU-5"
            w.log(StepKind.PLACE, label, f"{label}: {who} puts {p} down as a lone piece", why, ("lone", who, p))
            w.changed.add(label)
            return w.finish_turn()
        gid = w.gid_of(move.target)
        w.groups[gid][1].append((slot, p))
        w.log(StepKind.PLACE, move.target, f"{move.target}: {who} places {p} on {w.piece_text_below(gid)}", "BU-5",
              ("on", who, p, w.piece_text_below(gid)))
        w.start_pass(gid)
        w.run()
        return w.finish_turn() if w.pending is None else w.freeze()

    def _apply_choice(self, move: Move) -> "BottomsUpState":
        pend = self.pending
        assert pend is not None
        if move not in pend.options:
            if isinstance(move, (BlueChoice, YellowChoice)) and type(move) is type(pend.options[0]):
                opts = " ".join(str(o) for o in pend.options)
                raise IllegalMoveError(f"{move} is not an option now: {opts} (BU-8)")
            raise IllegalMoveError(f"first choose for {pend.why}: {' '.join(str(o) for o in pend.options)}")
        w = _Work(self)
        w.pending = None
        w.resolve(pend, move)
        w.run()
        return w.finish_turn() if w.pending is None else w.freeze()

    # ------------------------------------------------------------ results

    def score_breakdown(self, colors: Sequence[Color | None] | None = None) -> list[list[dict[str, Any]]]:
        """Per seat, the groups that score for it (BU-11): ``{"label", "piece", "points"}``.

        ``colors`` default to the known secret colors; an unknown color scores nothing."""
        colors = list(self.secrets) if colors is None else list(colors)
        owner = {c: i for i, c in enumerate(colors) if c is not None}
        out: list[list[dict[str, Any]]] = [[] for _ in range(self.n)]
        for g in self.field_groups():
            if len(g.slots) < 2 and not self.lone_count:
                continue
            seat = owner.get(g.top.color)
            if seat is not None:
                out[seat].append({"label": g.label, "piece": str(g.top), "points": POINTS[g.top.size]})
        return out

    def final_scores(self) -> tuple[int, ...]:
        return tuple(sum(x["points"] for x in b) for b in self.score_breakdown())

    def turn_number(self) -> int:
        return self.turn

    def scores(self) -> tuple[int, ...]:
        """BU-11 scores once the game is over; zeros before (scoring happens at the end)."""
        if self.phase != Phase.OVER:
            return (0,) * self.n
        return self.final_scores()

    def winners(self) -> tuple[int, ...]:
        sc = self.final_scores()
        best = max(sc)
        return tuple(i for i, v in enumerate(sc) if v == best)

    def outcome(self) -> Outcome | None:
        if self.phase != Phase.OVER:
            return None
        win = self.winners()
        sc = self.final_scores()
        detail = (Detail("highest score (BU-12)", "highest_score") if len(win) == 1 else
                  Detail(f"shared win: {len(win)} players tied on {sc[win[0]]} (BU-12)", "shared_highest",
                         (len(win), sc[win[0]])))
        return Outcome(Termination.STASH_EMPTY, win, sc, detail)

    # ------------------------------------------------------------ text

    def describe_end(self) -> str | None:
        """The scores come at the end (BU-11): the move that ended the game is not what scored."""
        if self.phase != Phase.OVER:
            return None
        return "game over: the stacks score (BU-11)"

    def describe(self, move: Move) -> str:
        who = self.players[self.active] if self.players else "?"
        if isinstance(move, Secret):
            return f"{who}'s secret color is drawn"  # never shown: it is secret
        if isinstance(move, Reveal):
            return f"{who} reveals {move.color.value}"
        if isinstance(move, Place):
            if move.target is None:
                return f"{who} puts {move.piece} down as a lone piece"
            g = self.group(move.target)
            on = f" ({g.top})" if g else ""
            return f"{who} places {move.piece} on {move.target}{on}"
        if isinstance(move, (BlueChoice, YellowChoice)) and self.pending is not None:
            g = self.group_by_id(self.pending.gid)
            piece = dict(g.slots).get(self.pending.slot) if g else None
            if isinstance(move, BlueChoice) and g is not None and piece is not None:
                return f"{who}: blue turns {piece} into {Piece(move.color, piece.size)} on {g.label}"
            if isinstance(move, YellowChoice) and g is not None and piece is not None:
                dest = f"onto {move.target}" if move.target else "to open space"
                return f"{who}: yellow moves {piece} from {g.label} {dest}"
        return str(move)

    def pending_json(self) -> dict[str, Any] | None:
        pend = self.pending
        if pend is None:
            return None
        g = self.group_by_id(pend.gid)
        piece = dict(g.slots)[pend.slot] if g else None
        return {"kind": pend.kind, "label": g.label if g else None, "piece": str(piece),
                "options": [str(o) for o in pend.options], "why": pend.why}

    def to_json(self) -> dict[str, Any]:
        over = self.phase == Phase.OVER
        phase = "choice" if self.pending is not None else str(self.phase)
        label = {g.gid: g.label for g in self.groups}
        out: dict[str, Any] = {
            "players": list(self.players),
            "warning": self.warning,
            "secret_mode": self.secret_mode,
            "lone_pieces_count": self.lone_count,
            "phase": phase,
            "active_player": self.current_player,
            "turn": self.turn,
            "turns_played": max(0, self.turn - 1),  # turns after the opening that are over
            "field": [{"label": g.label, "pieces": [str(p) for p in g.pieces]} for g in self.field_groups()],
            "stash": self.stash.to_json(),
            "stash_count": len(self.stash),
            "destroyed": self.destroyed.to_json(),
            "destroyed_count": len(self.destroyed),
            "field_count": sum(len(g.slots) for g in self.groups),
            "pending": self.pending_json(),
            "recalculating": label.get(self.cursor.gid) if self.cursor else None,
            "queue": [label.get(q) for q in self.queue],
            "secret_colors": [c.value if c else None for c in self.secrets],
            "last_steps": self.last_lines(),
            "changed": sorted(self.last_changed, key=_label_key),
        }
        out["scores"] = list(self.scores())
        out["breakdown"] = self.score_breakdown() if over else None
        out["winners"] = list(self.winners()) if over else None
        o = self.outcome()
        out["result"] = str(o.detail) if o else None
        return out


# ---------------------------------------------------------------- the recalculation machine


class _Work:
    """A mutable working copy of a state for one move: runs BU-7..BU-9 until
    a choice is needed or everything is recalculated, then freezes."""

    __slots__ = ("s", "groups", "_stash", "_destroyed", "next_gid", "next_slot", "cursor", "queue",
                 "pending", "steps", "changed")

    def __init__(self, s: BottomsUpState):
        self.s = s
        # gid -> [label, [(slot, piece), ...]]; dict order = creation order
        self.groups: dict[int, list] = {g.gid: [g.label, list(g.slots)] for g in s.groups}
        # copied on first change (a yellow cascade often changes neither); BU-6
        self._stash: Counter | None = None
        self._destroyed: Counter | None = None
        self.next_gid = s.next_gid
        self.next_slot = s.next_slot
        self.cursor = s.cursor
        self.queue = list(s.queue)
        self.pending = s.pending
        self.steps: list[Step] = []
        self.changed: set[str] = set()

    # --- small helpers
    def log(self, kind: StepKind, label: str, text: str, rule: str = "", args: tuple = ()) -> None:
        self.steps.append(Step(kind, label, text, rule, tuple(map(str, args))))

    def new_slot(self) -> int:
        self.next_slot += 1
        return self.next_slot - 1

    def have(self, p: Piece) -> int:
        """How many ``p`` the stash holds now (BU-6: replacements come from it)."""
        return self._stash[p] if self._stash is not None else self.s.stash.count(p)

    def stash_empty(self) -> bool:
        return not (sum(self._stash.values()) if self._stash is not None else len(self.s.stash))

    def take(self, p: Piece) -> None:
        """A piece comes out of the stash (BU-5 placement, BU-6 replacement, a spawn)."""
        if self._stash is None:
            self._stash = Counter(dict(self.s.stash.items()))
        self._stash[p] -= 1
        if not self._stash[p]:
            del self._stash[p]

    def give(self, p: Piece) -> None:
        """A replaced piece goes back to the stash (BU-6)."""
        if self._stash is None:
            self._stash = Counter(dict(self.s.stash.items()))
        self._stash[p] += 1

    def destroy(self, p: Piece) -> None:
        """A destroyed piece leaves the game for good, never back to the stash (BU-6)."""
        if self._destroyed is None:
            self._destroyed = Counter(dict(self.s.destroyed.items()))
        self._destroyed[p] += 1

    def new_group(self, slots: list) -> str:
        used = {v[0] for v in self.groups.values()}
        label = next(label_of(i) for i in itertools.count() if label_of(i) not in used)
        self.groups[self.next_gid] = [label, slots]
        self.next_gid += 1
        return label

    def gid_of(self, label: str) -> int:
        for gid, (lab, _) in self.groups.items():
            if lab == label:
                return gid
        raise KeyError(label)

    def piece_text_below(self, gid: int) -> str:
        slots = self.groups[gid][1]
        return str(slots[-2][1]) if len(slots) >= 2 else "?"

    def find(self, gid: int, slot: int) -> int | None:
        g = self.groups.get(gid)
        if g is None:
            return None
        for i, (sl, _) in enumerate(g[1]):
            if sl == slot:
                return i
        return None

    def remove_slot(self, gid: int, slot: int) -> Piece:
        """Take a piece out of its group; the pieces above drop (BU-7). An
        emptied group disappears and frees its label."""
        g = self.groups[gid]
        i = self.find(gid, slot)
        assert i is not None
        _, p = g[1].pop(i)
        if not g[1]:
            del self.groups[gid]
        return p

    # --- passes (BU-7) and the queue (BU-9)
    def start_pass(self, gid: int) -> None:
        label, slots = self.groups[gid]
        self.cursor = Cursor(gid, tuple(sl for sl, _ in slots))
        self.changed.add(label)

    def run(self) -> None:
        while self.pending is None:
            cur = self.cursor
            if cur is None:
                if not self.queue:
                    return
                gid = self.queue.pop(0)
                if gid not in self.groups:
                    self.log(StepKind.SKIP, "", "a queued stack no longer exists: skipped (BU-9)", "BU-9")
                    continue
                label = self.groups[gid][0]
                self.log(StepKind.START, label, f"{label}: recalculating (queued, BU-9)", "BU-9")
                self.start_pass(gid)
                continue
            gid = cur.gid
            g = self.groups.get(gid)
            label = g[0] if g else "?"
            if cur.stage == 1:
                self.cursor = Cursor(gid, cur.noted, cur.idx + 1)
                assert cur.u is not None
                i = self.find(gid, cur.u)
                if i is None:  # cannot happen: only L was affected; kept for safety
                    continue
                assert g is not None  # find() found the slot, so the group exists
                u = g[1][i][1]
                self.effect(u.color, gid, cur.u, f"{u}'s own ", " (after white, BU-8 item 5)", ("own", u))
                continue
            if cur.idx >= len(cur.noted):
                self.cursor = None
                if g is not None:
                    self.log(StepKind.END, label, f"{label} recalculated", "BU-7")
                continue
            slot = cur.noted[cur.idx]
            i = self.find(gid, slot) if g is not None else None
            if i is None or g is None or i == len(g[1]) - 1:
                self.cursor = Cursor(gid, cur.noted, cur.idx + 1)
                continue
            low, up = g[1][i][1], g[1][i + 1][1]
            uslot = g[1][i + 1][0]
            if low.color == Color.BLACK:
                self.cursor = Cursor(gid, cur.noted, cur.idx + 1)
                self.log(StepKind.IMMUNE, label, f"{label}: {low} is black: immune to {up} (BU-8 item 1)", "BU-8", (low, up))
            elif up.color == Color.BLACK:
                self.cursor = Cursor(gid, cur.noted, cur.idx + 1)
                self.log(StepKind.NONE, label, f"{label}: {up} is black: no effect on {low} (BU-8 item 2)", "BU-8", ("black", up, low))
            elif up.color == Color.WHITE and low.color == Color.WHITE:
                self.cursor = Cursor(gid, cur.noted, cur.idx + 1)
                self.log(StepKind.NONE, label, f"{label}: white {up} has no effect on white {low} (BU-8 item 3)", "BU-8", ("white", up, low))
            elif up.color == Color.WHITE:
                self.cursor = Cursor(gid, cur.noted, cur.idx + 1)
                self.effect(low.color, gid, slot, f"{up} reflects: {low}'s own ", " (BU-8 item 4)",
                            ("reflect", up, low))
            elif low.color == Color.WHITE:
                self.cursor = Cursor(gid, cur.noted, cur.idx, 1, uslot)
                self.effect(up.color, gid, slot, f"{up} ", " (white takes it, BU-8 item 5)", ("white", up))
            else:
                self.cursor = Cursor(gid, cur.noted, cur.idx + 1)
                self.effect(up.color, gid, slot)

    # --- effects (BU-8), applied to the piece in ``slot`` of group ``gid``
    def effect(self, color: Color, gid: int, slot: int, pre: str = "", post: str = "",
               how: tuple = ()) -> None:
        """``color``'s effect on the piece in ``slot``. ``pre``/``post`` tell
        why in the log line (a reflection, BU-8 item 5); ``how`` is the same
        for ``Step.args``."""
        label, slots = self.groups[gid]
        i = self.find(gid, slot)
        assert i is not None
        p = slots[i][1]
        name = _EFFECT_NAME[color]
        head = f"{label}: {pre}{name}"
        self.changed.add(label)
        if color == Color.RED:
            for size in _SMALLER[p.size]:
                q = Piece(p.color, size)
                if self.have(q):
                    self.give(p)
                    self.take(q)
                    slots[i] = (slot, q)
                    self.log(StepKind.SHRINK, label, f"{head} shrinks {p} to {q}{post}", "BU-8", (p, q, *how))
                    return
            top = i == len(slots) - 1
            self.remove_slot(gid, slot)
            self.destroy(p)
            why = "a small" if p.size == Size.SMALL else "no smaller one left"
            drop = "" if top else "; the pieces above drop"
            self.log(StepKind.DESTROY, label, f"{head} destroys {p} ({why}){post}{drop}", "BU-8",
                     ("small" if p.size == Size.SMALL else "none", p, "drop" if drop else "", *how))
        elif color == Color.GREEN:
            if p.size == Size.LARGE:
                q = Piece(p.color, Size.SMALL)
                if self.have(q):
                    self.take(q)
                    new = self.new_group([(self.new_slot(), q)])
                    self.changed.add(new)
                    self.log(StepKind.SPAWN, label, f"{head} on {p} spawns a lone {q} as {new}{post}", "BU-8", (p, q, new, *how))
                else:
                    self.log(StepKind.NONE, label, f"{head} on {p}: no {q} left to spawn, nothing happens{post}", "BU-8",
                             ("nospawn", p, q, *how))
                return
            q = Piece(p.color, _LARGER[p.size])
            if self.have(q):
                self.give(p)
                self.take(q)
                slots[i] = (slot, q)
                self.log(StepKind.GROW, label, f"{head} grows {p} to {q}{post}", "BU-8", (p, q, *how))
            else:
                self.log(StepKind.NONE, label, f"{head} cannot grow {p}: no {q} left{post}", "BU-8",
                         ("nogrow", p, q, *how))
        elif color == Color.BLUE:
            opts: tuple[Move, ...] = tuple(BlueChoice(c) for c in COLORS if c != p.color and self.have(Piece(c, p.size)))
            if not opts:
                self.log(StepKind.NONE, label,
                         f"{head} cannot recolor {p}: no {p.size.name.lower()} of another color left{post}", "BU-8",
                         ("norecolor", p, *how))
                return
            self.log(StepKind.CHOICE, label, f"{head} recolors {p}: choose the color{post}", "BU-8", ("blue", p, *how))
            self.pending = Pending("blue", gid, slot, opts, f"blue on {p} in {label}")
        elif color == Color.YELLOW:
            others = sorted((v[0] for k, v in self.groups.items() if k != gid), key=_label_key)
            opts = tuple(YellowChoice(x) for x in others) + (YellowChoice(None),)
            self.log(StepKind.CHOICE, label, f"{head} moves {p}: choose where{post}", "BU-8", ("yellow", p, *how))
            self.pending = Pending("yellow", gid, slot, opts, f"yellow on {p} in {label}")
        else:  # pragma: no cover - BU-8 items 1-3 filter white and black out
            raise AssertionError(f"no effect of its own: {color}")

    def resolve(self, pend: Pending, move: Move) -> None:
        gid, slot = pend.gid, pend.slot
        label, slots = self.groups[gid]
        i = self.find(gid, slot)
        assert i is not None
        p = slots[i][1]
        if isinstance(move, BlueChoice):
            q = Piece(move.color, p.size)
            self.give(p)
            self.take(q)
            slots[i] = (slot, q)
            self.log(StepKind.RECOLOR, label, f"{label}: blue recolors {p} to {q}", "BU-8", (p, q))
            return
        assert isinstance(move, YellowChoice)
        self.remove_slot(gid, slot)
        drop = "" if i == len(slots) else "; the pieces above drop"
        if move.target is None:
            new = self.new_group([(slot, p)])
            self.changed.add(new)
            self.log(StepKind.MOVE, label, f"{label}: yellow moves {p} to open space as {new}{drop}", "BU-8",
                     ("open", p, new, "drop" if drop else ""))
        else:
            tg = self.gid_of(move.target)
            self.groups[tg][1].append((slot, p))
            self.queue.append(tg)
            self.changed.add(move.target)
            self.log(StepKind.MOVE, label, f"{label}: yellow moves {p} onto {move.target}{drop}; {move.target} is queued", "BU-9",
                     ("onto", p, move.target, "drop" if drop else ""))

    # --- freezing
    def freeze(self, **kw: Any) -> BottomsUpState:
        s = self.s
        groups = tuple(Group(gid, lab, tuple(sl)) for gid, (lab, sl) in self.groups.items())
        live = {v[0] for v in self.groups.values()}
        return replace(
            s, groups=groups,
            stash=s.stash if self._stash is None else Bag(self._stash),
            destroyed=s.destroyed if self._destroyed is None else Bag(self._destroyed),
            next_gid=self.next_gid, next_slot=self.next_slot, cursor=self.cursor,
            queue=tuple(self.queue), pending=self.pending, last_steps=tuple(self.steps),
            last_changed=frozenset(self.changed & live), **kw)

    def finish_turn(self) -> BottomsUpState:
        """Everything is recalculated: the next seat's turn, or the end (BU-10)."""
        s = self.s
        nxt = (s.active + 1) % s.n
        if s.phase == Phase.OPENING:
            if nxt != 0:
                return self.freeze(active=nxt)
            phase = Phase.PLAY
            turn = 1
        else:
            phase = Phase.PLAY
            turn = s.turn + 1
        if self.stash_empty():
            self.log(StepKind.END, "", "the stash is empty: the game is over (BU-10)", "BU-10", ("over",))
            if s.secret_mode == "physical":
                return self.freeze(phase=Phase.REVEAL, active=0, turn=turn)
            return self.freeze(phase=Phase.OVER, active=0, turn=turn)
        return self.freeze(phase=phase, active=nxt, turn=turn)


# ---------------------------------------------------------------- setup


def _read_setup(setup: Any) -> dict[str, Any]:
    players = read_players(setup, SETUP_KEYS, "Bottoms Up", 2, 6, "BU-2")
    secret = setup.get("secret", "device")
    if secret not in SECRET_MODES:
        raise SetupError(f"secret must be \"device\" or \"physical\", not {secret!r} (BU-3)")
    per = setup.get("stash", 5)
    if not isinstance(per, int) or isinstance(per, bool) or not 1 <= per <= 5:
        raise SetupError(f"stash must be 1 to 5 pieces per color and size, not {per!r} (BU-1)")
    lone = setup.get("lone_pieces_count", False)
    if not isinstance(lone, bool):
        raise SetupError("lone_pieces_count must be true or false (BU-11)")
    return {"players": players, "secret": secret, "per": per, "lone": lone}


def new_game(setup: dict[str, Any]) -> BottomsUpState:
    """A new game from a setup object (keys in ``docs/records-bottoms_up.md``)."""
    cfg = _read_setup(setup)
    n = len(cfg["players"])
    warning = None if 4 <= n <= 6 else f"Bottoms Up is meant for 4 to 6 players; {n} is allowed (BU-2)"
    return BottomsUpState(
        players=tuple(cfg["players"]), secret_mode=cfg["secret"], lone_count=cfg["lone"],
        per=cfg["per"], warning=warning, phase=Phase.SECRET if cfg["secret"] == "device" else Phase.OPENING,
        secrets=(None,) * n, stash=Bag.full_sets(COLORS, cfg["per"]),
    )


def position(setup: dict[str, Any], field: Sequence[str] | Mapping[str, str],
             active: int = 0, secrets: Sequence[str | None] | None = None,
             destroyed: str = "", turn: int = 1) -> BottomsUpState:
    """A position in the middle of play (phase ``play``, nothing pending): for
    tests, check mode, tutorials. ``field``: stacks as piece texts bottom to
    top (``["bM", "wS rM"]``, labels A, B, ... in order) or ``{"C": "wS rM"}``.
    Pieces come out of the stash; ``destroyed`` pieces leave it for good.
    ``secrets``: color letters per seat (default: none known; a device-mode
    setup is treated as drawn)."""
    s = new_game(setup)
    items = list(field.items()) if isinstance(field, Mapping) else [(label_of(i), t) for i, t in enumerate(field)]
    stash = s.stash
    groups = []
    slot = 0
    gone = Bag.parse(destroyed)
    if not stash.contains_all(gone):
        raise SetupError(f"the stash cannot supply destroyed {destroyed!r}")
    stash = stash.remove(*gone)
    for gid, (label, text) in enumerate(items):
        pcs = tuple(Piece.parse(t) for t in text.split())
        if not pcs:
            raise SetupError(f"group {label} is empty")
        if not stash.contains_all(pcs):
            raise SetupError(f"the stash cannot supply {text!r}")
        stash = stash.remove(*pcs)
        groups.append(Group(gid, label.upper(), tuple((slot + k, p) for k, p in enumerate(pcs))))
        slot += len(pcs)
    sec = tuple(None if c is None else _bu_color(c) for c in secrets) if secrets else (None,) * s.n
    if len(sec) != s.n:
        raise SetupError(f"give {s.n} secret colors")
    if not isinstance(active, int) or isinstance(active, bool) or not 0 <= active < s.n:  # QA 5
        raise SetupError(f"active must be a seat, 0 to {s.n - 1}, not {active!r}")
    return replace(s, phase=Phase.PLAY, active=active, turn=turn, secrets=sec, stash=stash,
                   destroyed=gone, groups=tuple(groups), next_gid=len(groups), next_slot=slot)


SPEC = GameSpec(
    "bottoms_up", "Bottoms Up", new_game, min_players=2, max_players=6,
    summary="Stack pieces; each color acts on the piece below; secret colors score the tops",
    tags=("stacking", "secret"),
)
