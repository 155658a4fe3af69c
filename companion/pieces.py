"""Shared vocabulary of the three games: colors, sizes, pieces, bags, the pyramid die.

Everything here is a small immutable value with a text form that round-trips::

    >>> Piece.parse("rL")
    Piece(color=<Color.RED: 'red'>, size=<Size.LARGE: 3>)
    >>> str(Piece(Color.CYAN, Size.SMALL))
    'cS'
    >>> DieFace.parse("S/M").sizes
    (<Size.SMALL: 1>, <Size.MEDIUM: 2>)

Chance is explicit (see ``companion.engine``): a bag or a die never picks an
outcome itself, it lists ``(outcome, probability)`` pairs with exact
``Fraction`` probabilities, and the driver picks one.
"""
from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Iterator, Mapping

from .engine import Move
from .errors import InvalidMoveError, IllegalMoveError

__all__ = [
    "Color", "Size", "Piece", "Got", "Bag", "DieFace", "PYRAMID_DIE",
    "die_outcomes", "parse_pieces", "format_pieces",
]


class Color(str, enum.Enum):
    """A piece color. Each has a one-letter code used in every text form."""

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"
    BLACK = "black"
    WHITE = "white"
    CYAN = "cyan"
    PURPLE = "purple"
    ORANGE = "orange"
    CLEAR = "clear"

    @property
    def letter(self) -> str:
        return _COLOR_LETTER[self]

    @classmethod
    def parse(cls, text: str) -> "Color":
        """A color from its letter (``r``) or its name (``red``), any case."""
        t = text.strip().lower()
        if t in _LETTER_COLOR:
            return _LETTER_COLOR[t]
        try:
            return cls(t)
        except ValueError:
            raise InvalidMoveError(f"unknown color {text!r}") from None

    def __str__(self) -> str:
        return self.value


_COLOR_LETTER = {
    Color.RED: "r", Color.YELLOW: "y", Color.GREEN: "g", Color.BLUE: "b",
    Color.BLACK: "k", Color.WHITE: "w", Color.CYAN: "c", Color.PURPLE: "p",
    Color.ORANGE: "o", Color.CLEAR: "x",
}
_LETTER_COLOR = {v: k for k, v in _COLOR_LETTER.items()}


class Size(enum.IntEnum):
    """A piece size; its value is its pip count (small 1, medium 2, large 3)."""

    SMALL = 1
    MEDIUM = 2
    LARGE = 3

    @property
    def letter(self) -> str:
        return "SML"[self.value - 1]

    @property
    def pips(self) -> int:
        return int(self.value)

    @classmethod
    def parse(cls, text: str) -> "Size":
        """A size from ``S``/``M``/``L`` or ``small``/``medium``/``large``."""
        t = text.strip().upper()
        for s in cls:
            if t in (s.letter, s.name):
                return s
        raise InvalidMoveError(f"unknown size {text!r}")

    def __str__(self) -> str:
        return self.letter


@dataclass(frozen=True, order=True)
class Piece:
    """One pyramid: a color and a size. Text form: color letter + size letter."""

    color: Color
    size: Size

    def __str__(self) -> str:
        return self.color.letter + self.size.letter

    @property
    def pips(self) -> int:
        return self.size.pips

    @classmethod
    def parse(cls, text: str) -> "Piece":
        t = text.strip()
        if len(t) < 2:
            raise InvalidMoveError(f"not a piece: {text!r} (expected e.g. rL)")
        return cls(Color.parse(t[:-1]), Size.parse(t[-1]))


def parse_pieces(text: str) -> tuple[Piece, ...]:
    """Pieces from a space-separated list; ``-`` or an empty string is none."""
    t = text.strip()
    if t in ("", "-"):
        return ()
    return tuple(Piece.parse(p) for p in t.split())


def format_pieces(pieces: Iterable[Piece]) -> str:
    """Space-separated text of pieces, sorted; ``-`` for none."""
    items = sorted(pieces)
    return " ".join(str(p) for p in items) if items else "-"



@dataclass(frozen=True)
class Got(Move):
    """Chance outcome of a draw from a bag (every game's and the bag tool's):
    the piece that came out. Text form ``got rS``."""

    piece: Piece

    def __str__(self) -> str:
        return f"got {self.piece}"


class Bag:
    """An immutable multiset of pieces.

    Operations return new bags; a removal of a piece that is not there raises
    ``IllegalMoveError``. ``draw_outcomes`` lists the chance outcomes of a
    blind draw, each piece weighted by its count.
    """

    __slots__ = ("_counts", "_hash")

    def __init__(self, counts: Mapping[Piece, int] | Iterable[Piece] = ()):
        if isinstance(counts, Mapping):
            c = {p: int(n) for p, n in counts.items() if n}
        else:
            c = dict(Counter(counts))
        for p, n in c.items():
            if n < 0:
                raise ValueError(f"negative count for {p}")
        self._counts: dict[Piece, int] = dict(sorted(c.items()))
        self._hash: int | None = None

    @classmethod
    def _sorted(cls, counts: dict[Piece, int]) -> "Bag":
        """A bag from counts already in piece order, all positive (no re-sort)."""
        b = object.__new__(cls)
        b._counts = counts
        b._hash = None
        return b

    # --- presets (rulings U-1, B-1, BU-1)
    @classmethod
    def full_sets(cls, colors: Iterable[Color], per_size: int) -> "Bag":
        return cls({Piece(c, s): per_size for c in colors for s in Size})

    # --- queries
    def count(self, piece: Piece) -> int:
        return self._counts.get(piece, 0)

    def count_size(self, size: Size) -> int:
        return sum(n for p, n in self._counts.items() if p.size == size)

    def count_color(self, color: Color) -> int:
        return sum(n for p, n in self._counts.items() if p.color == color)

    def __len__(self) -> int:
        return sum(self._counts.values())

    def __bool__(self) -> bool:
        return bool(self._counts)

    def __contains__(self, piece: object) -> bool:
        # a frozen dataclass equals only its own class, so the check changes nothing
        return isinstance(piece, Piece) and self._counts.get(piece, 0) > 0

    def __iter__(self) -> Iterator[Piece]:
        for p, n in self._counts.items():
            for _ in range(n):
                yield p

    def items(self) -> list[tuple[Piece, int]]:
        return list(self._counts.items())

    def distinct(self) -> list[Piece]:
        return list(self._counts)

    def pips(self) -> int:
        return sum(p.pips * n for p, n in self._counts.items())

    def sizes_available(self) -> list[Size]:
        return [s for s in Size if self.count_size(s)]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Bag) and self._counts == other._counts

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(self._counts.items()))
        return self._hash

    def __repr__(self) -> str:
        return f"Bag({str(self)!r})"

    def __str__(self) -> str:
        return format_pieces(self)

    @classmethod
    def parse(cls, text: str) -> "Bag":
        return cls(parse_pieces(text))

    def to_json(self) -> dict[str, int]:
        return {str(p): n for p, n in self._counts.items()}

    @classmethod
    def from_json(cls, data: Mapping[str, int]) -> "Bag":
        return cls({Piece.parse(k): int(v) for k, v in data.items()})

    # --- changes (each returns a new bag)
    def add(self, *pieces: Piece) -> "Bag":
        c = dict(self._counts)
        for p in pieces:
            c[p] = c.get(p, 0) + 1
        # Only a kind of piece the bag did not hold changes the order.
        return Bag._sorted(c) if len(c) == len(self._counts) else Bag(c)

    def remove(self, *pieces: Piece) -> "Bag":
        c = dict(self._counts)
        for p in pieces:
            if c.get(p, 0) <= 0:
                raise IllegalMoveError(f"no {p} left in the bag")
            c[p] -= 1
            if not c[p]:
                del c[p]
        return Bag._sorted(c)  # removing keeps the order

    def contains_all(self, pieces: Iterable[Piece]) -> bool:
        need = Counter(pieces)
        return all(self._counts.get(p, 0) >= n for p, n in need.items())

    # --- chance
    def draw_outcomes(self, size: Size | None = None) -> list[tuple[Piece, Fraction]]:
        """Chance outcomes of drawing one piece (of ``size``, or any) blind.

        Every piece in the bag is equally likely, so a piece with two copies is
        twice as likely as a piece with one (ruling B-4). Empty when nothing can
        be drawn.
        """
        pool = [(p, n) for p, n in self._counts.items() if size is None or p.size == size]
        total = sum(n for _, n in pool)
        return [(p, Fraction(n, total)) for p, n in pool] if total else []


class DieFace(enum.Enum):
    """A face of the pyramid die (ruling B-2): six equally likely faces."""

    S = (Size.SMALL,)
    M = (Size.MEDIUM,)
    L = (Size.LARGE,)
    SM = (Size.SMALL, Size.MEDIUM)
    SL = (Size.SMALL, Size.LARGE)
    ML = (Size.MEDIUM, Size.LARGE)

    @property
    def sizes(self) -> tuple[Size, ...]:
        return self.value

    @property
    def pips(self) -> int:
        """Pip total of the face: S 1, M 2, L 3, S/M 3, S/L 4, M/L 5."""
        return sum(s.pips for s in self.sizes)

    @property
    def label(self) -> str:
        return "/".join(s.letter for s in self.sizes)

    def __str__(self) -> str:
        return self.label

    @classmethod
    def parse(cls, text: str) -> "DieFace":
        t = text.strip().upper().replace("/", "")
        for f in cls:
            if f.name == t:
                return f
        raise InvalidMoveError(f"unknown die face {text!r} (one of S M L S/M S/L M/L)")


PYRAMID_DIE: tuple[DieFace, ...] = tuple(DieFace)


_DIE_OUTCOMES: tuple[tuple[DieFace, Fraction], ...] = tuple((f, Fraction(1, 6)) for f in PYRAMID_DIE)


def die_outcomes() -> list[tuple[DieFace, Fraction]]:
    """Chance outcomes of a pyramid die roll: each face 1/6 (ruling B-2)."""
    return list(_DIE_OUTCOMES)
