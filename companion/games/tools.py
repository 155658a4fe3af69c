"""The table tools as engines: pyramid die, virtual bag, start-player pick.

They use the same engine API as the games, so their sessions are journaled,
undone, exported and replayed the same way.

Move texts:

* die:  ``roll`` (player), then the chance outcome ``face S/M``.
* bag:  ``draw S|M|L|any`` (player), chance ``got rL``, then ``keep`` or
  ``return``; ``refill`` puts every kept piece back.
* pick: ``pick`` (player), chance ``start 3`` (a seat, 1-based in text).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ..engine import CHANCE, GameSpec, Move, State
from ..i18n import N_  # preset names marked for the catalog; screens translate them
from ..errors import IllegalMoveError, InvalidMoveError, SetupError
from ..pieces import Bag, Color, DieFace, Got, Piece, Size, die_outcomes

# ---------------------------------------------------------------- bag presets

UNDERCUT_COLORS = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE, Color.BLACK)
BAG_OF_ICE_COLORS = (Color.RED, Color.YELLOW, Color.GREEN, Color.CYAN, Color.PURPLE)
BOTTOMS_UP_COLORS = (Color.RED, Color.BLUE, Color.GREEN, Color.YELLOW, Color.WHITE, Color.BLACK)


def undercut_bag(colors=UNDERCUT_COLORS) -> Bag:
    """75 pieces: 5 colors x 5 of each size (ruling U-1)."""
    return Bag.full_sets(colors, 5)


def bag_of_ice_bag(colors=BAG_OF_ICE_COLORS) -> Bag:
    """The 21-piece Bag of Ice bag (ruling B-1). ``colors``: bust color first,
    then the two single-medium colors' partners in the order
    red, yellow, green, cyan, purple."""
    red, yellow, green, cyan, purple = colors
    counts = {Piece(c, Size.LARGE): 1 for c in colors}
    counts.update({Piece(red, Size.MEDIUM): 1, Piece(yellow, Size.MEDIUM): 1,
                   Piece(purple, Size.MEDIUM): 1, Piece(cyan, Size.MEDIUM): 2,
                   Piece(green, Size.MEDIUM): 2})
    counts.update({Piece(red, Size.SMALL): 1})
    counts.update({Piece(c, Size.SMALL): 2 for c in (yellow, green, cyan, purple)})
    return Bag(counts)


def bottoms_up_bag(colors=BOTTOMS_UP_COLORS) -> Bag:
    """90 pieces: 6 colors x 5 of each size (ruling BU-1)."""
    return Bag.full_sets(colors, 5)


BAG_PRESETS = {
    "undercut": (N_("Undercut: 75 pieces"), undercut_bag),
    "bag_of_ice": (N_("Bag of Ice: 21 pieces"), bag_of_ice_bag),
    "bottoms_up": (N_("Bottoms Up: 90 pieces"), bottoms_up_bag),
}

# ---------------------------------------------------------------- moves


@dataclass(frozen=True)
class Roll(Move):
    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True)
class Face(Move):
    face: DieFace

    def __str__(self) -> str:
        return f"face {self.face}"


@dataclass(frozen=True)
class Draw(Move):
    size: Size | None  # None: any size

    def __str__(self) -> str:
        return f"draw {self.size.letter if self.size else 'any'}"



@dataclass(frozen=True)
class Keep(Move):
    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True)
class Return(Move):
    def __str__(self) -> str:
        return "return"


@dataclass(frozen=True)
class Refill(Move):
    def __str__(self) -> str:
        return "refill"


@dataclass(frozen=True)
class Pick(Move):
    def __str__(self) -> str:
        return "pick"


@dataclass(frozen=True)
class Start(Move):
    seat: int  # 0-based; text is 1-based

    def __str__(self) -> str:
        return f"start {self.seat + 1}"


def _parse_tool_move(text: str) -> Move:
    words = text.split()
    if not words:
        raise InvalidMoveError("empty move")
    head, args = words[0].lower(), words[1:]
    simple = {"roll": Roll, "keep": Keep, "return": Return, "refill": Refill, "pick": Pick}
    if head in simple and not args:
        return simple[head]()
    if head == "face" and len(args) == 1:
        return Face(DieFace.parse(args[0]))
    if head == "draw" and len(args) == 1:
        return Draw(None if args[0].lower() == "any" else Size.parse(args[0]))
    if head == "got" and len(args) == 1:
        return Got(Piece.parse(args[0]))
    if head == "start" and len(args) == 1 and args[0].isdigit():
        return Start(int(args[0]) - 1)
    raise InvalidMoveError(f"not a tool move: {text!r}")


class _ToolState(State):
    def parse_move(self, text: str) -> Move:
        return _parse_tool_move(text)

    def scores(self) -> tuple[int, ...]:
        return ()

    def _check(self, move: Move) -> None:
        legal = self.legal_moves()
        if move not in legal:  # the reason is what the tool waits for (QA 5: "not possible now" alone)
            shown = ", ".join(str(m) for m in legal[:6]) + (", ..." if len(legal) > 6 else "")
            raise IllegalMoveError(f"{move} is not possible now: {self.waiting_for()} ({shown})")

    def waiting_for(self) -> str:
        """What the tool waits for, in words (the reason an illegal move gets)."""
        return "the moves possible are"


# ---------------------------------------------------------------- die


@dataclass(frozen=True)
class DieState(_ToolState):
    """The pyramid die: a log of rolls. ``roll`` makes a chance node."""

    rolls: tuple[DieFace, ...] = ()
    rolling: bool = False
    game = "die"

    @property
    def current_player(self) -> int:
        return CHANCE if self.rolling else 0

    def legal_moves(self) -> list[Move]:
        return [m for m, _ in self.chance_outcomes()] if self.rolling else [Roll()]

    def chance_outcomes(self) -> list[tuple[Move, Fraction]]:
        if not self.rolling:
            return []
        return [(Face(f), p) for f, p in die_outcomes()]

    def apply(self, move: Move) -> "DieState":
        self._check(move)
        if isinstance(move, Roll):
            return replace(self, rolling=True)
        assert isinstance(move, Face)
        return replace(self, rolls=self.rolls + (move.face,), rolling=False)

    def to_json(self) -> dict[str, Any]:
        return {"rolls": [str(f) for f in self.rolls], "rolling": self.rolling}

    def describe(self, move: Move) -> str:
        if isinstance(move, Face):
            return f"rolled {move.face} ({move.face.pips} pips)"
        return str(move)


# ---------------------------------------------------------------- bag


@dataclass(frozen=True)
class BagState(_ToolState):
    """A virtual bag: draw a piece of a size (or any), then keep or return it."""

    preset: str
    full: Bag
    bag: Bag
    kept: tuple[Piece, ...] = ()
    asking: Size | None = None
    asking_any: bool = False
    held: Piece | None = None
    game = "bag"

    @property
    def current_player(self) -> int:
        return CHANCE if (self.asking or self.asking_any) else 0

    def legal_moves(self) -> list[Move]:
        if self.current_player == CHANCE:
            return [m for m, _ in self.chance_outcomes()]
        if self.held is not None:
            return [Keep(), Return()]
        moves: list[Move] = [Draw(s) for s in self.bag.sizes_available()]
        if self.bag:
            moves.append(Draw(None))
        if self.kept:
            moves.append(Refill())
        return moves

    def chance_outcomes(self) -> list[tuple[Move, Fraction]]:
        if self.current_player != CHANCE:
            return []
        return [(Got(p), pr) for p, pr in self.bag.draw_outcomes(self.asking)]

    def waiting_for(self) -> str:
        if self.asking or self.asking_any:
            size = "any size" if self.asking_any else f"a {self.asking.name.lower()}" if self.asking else ""
            return f"the piece drawn comes next ({size})"
        if self.held is not None:
            return f"{self.held} is held: keep it or return it"
        return "draw a size" + (", or refill" if self.kept else " (nothing kept to refill)")

    def apply(self, move: Move) -> "BagState":
        if isinstance(move, Draw) and self.held is None and not self.asking and not self.asking_any:
            if move.size is not None and not self.bag.count_size(move.size):
                raise IllegalMoveError(f"no {move.size.name.lower()} piece left in the bag")
            if not self.bag:
                raise IllegalMoveError("the bag is empty")
        self._check(move)
        if isinstance(move, Draw):
            return replace(self, asking=move.size, asking_any=move.size is None)
        if isinstance(move, Got):
            return replace(self, bag=self.bag.remove(move.piece), held=move.piece,
                           asking=None, asking_any=False)
        if isinstance(move, Keep):
            assert self.held is not None  # _check: Keep is legal only while a piece is held
            return replace(self, kept=self.kept + (self.held,), held=None)
        if isinstance(move, Return):
            assert self.held is not None  # _check: Return is legal only while a piece is held
            return replace(self, bag=self.bag.add(self.held), held=None)
        assert isinstance(move, Refill)
        return replace(self, bag=self.full, kept=())

    def to_json(self) -> dict[str, Any]:
        return {"preset": self.preset, "bag": self.bag.to_json(),
                "kept": [str(p) for p in self.kept],
                "held": str(self.held) if self.held else None,
                "left": len(self.bag)}

    def describe(self, move: Move) -> str:
        if isinstance(move, Got):
            return f"drew {move.piece.color.value} {move.piece.size.name.lower()}"
        return str(move)


# ---------------------------------------------------------------- pick


@dataclass(frozen=True)
class PickState(_ToolState):
    """Pick a start player at random among ``players`` seats; ``names``: the
    names of the first seats when the table's roster gave them (setup ``names``)."""

    players: int
    picks: tuple[int, ...] = ()
    picking: bool = False
    names: tuple[str, ...] = ()
    game = "pick"

    @property
    def current_player(self) -> int:
        return CHANCE if self.picking else 0

    def legal_moves(self) -> list[Move]:
        return [m for m, _ in self.chance_outcomes()] if self.picking else [Pick()]

    def chance_outcomes(self) -> list[tuple[Move, Fraction]]:
        if not self.picking:
            return []
        return [(Start(i), Fraction(1, self.players)) for i in range(self.players)]

    def apply(self, move: Move) -> "PickState":
        self._check(move)
        if isinstance(move, Pick):
            return replace(self, picking=True)
        assert isinstance(move, Start)
        return replace(self, picks=self.picks + (move.seat,), picking=False)

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "picks": [s + 1 for s in self.picks]}


def _only(setup: dict[str, Any], tool: str, keys: tuple[str, ...]) -> None:
    """The tools refuse setup keys they do not know, as the games do (QA 5)."""
    unknown = sorted(set(setup) - set(keys))
    if unknown:
        known = ", ".join(keys)
        raise SetupError(f"{tool} setup: unknown key {unknown[0]!r} (known: {known})")


def _new_die(setup: dict[str, Any]) -> DieState:
    _only(setup, "die", ("die",))  # "die": "physical": the table rolls and enters the face
    return DieState()


def _new_bag(setup: dict[str, Any]) -> BagState:
    _only(setup, "bag", ("preset", "bag"))
    preset = setup.get("preset", "undercut")
    if preset not in BAG_PRESETS:
        raise SetupError(f"unknown bag preset {preset!r} (one of {', '.join(BAG_PRESETS)})")
    full = BAG_PRESETS[preset][1]()
    return BagState(preset=preset, full=full, bag=full)


def _new_pick(setup: dict[str, Any]) -> PickState:
    _only(setup, "pick", ("players", "names"))
    n = setup.get("players", 4)
    if not isinstance(n, int) or not 2 <= n <= 12:
        raise SetupError("pick a start player among 2 to 12 players")
    names = setup.get("names", [])
    if not isinstance(names, list) or len(names) > n or not all(isinstance(x, str) and x for x in names):
        raise SetupError("names: a list of at most as many names as players")
    if len(set(names)) < len(names):
        raise SetupError("names: each player once (a name is given twice)")
    return PickState(players=n, names=tuple(names))


SPECS = {
    "die": GameSpec("die", "Pyramid die", _new_die, summary="Roll the pyramid die (B-2)"),
    "bag": GameSpec("bag", "Bag", _new_bag, summary="Draw from a virtual bag"),
    "pick": GameSpec("pick", "Start player", _new_pick, summary="Pick a start player"),
}
