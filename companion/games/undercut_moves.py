"""Undercut vocabulary: combos, size mixes, bid values and the move values.

Every move is a small frozen value whose ``str()`` is its text form and
``parse_move(str(m)) == m`` (see ``docs/records-undercut.md``). Piece lists
inside moves are kept in one canonical order (large first, then colors in
``Color`` order), so two texts naming the same pieces in another order give
equal moves.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterable

from ..engine import Move
from ..errors import InvalidMoveError
from ..pieces import Bag, Color, Got, Piece, Size

__all__ = [
    "TREE", "TRIPLETS", "FOURSOME", "COMBOS", "MIXES", "STACK_NAMES",
    "canon", "bid_value", "compare_bids", "value_text", "is_combo", "find_combos", "mix_sizes",
    "StartPlayer", "Take", "Got", "TurnIn", "Done", "Bid", "Pass", "HandPips", "HandPieces",
    "parse_undercut_move",
]

TREE, TRIPLETS, FOURSOME = "TREE", "TRIPLETS", "FOURSOME"
COMBOS = (TREE, TRIPLETS, FOURSOME)
"""The score-sheet columns, in sheet order (U-4)."""

MIXES = ("LL", "LMS", "LSSS", "MMM", "MMSS", "MSSSS", "SSSSSS")
"""The 7 size mixes worth exactly 6 pips a player may take at setup (U-3)."""

STACK_NAMES = "ABCD"
"""Auction stacks are named A, B, C, D (at most players - 1 = 4, U-7)."""

_COLOR_ORDER = {c: i for i, c in enumerate(Color)}


def _key(p: Piece) -> tuple[int, int]:
    return (-p.size.value, _COLOR_ORDER[p.color])


def canon(pieces: Iterable[Piece]) -> tuple[Piece, ...]:
    """Pieces in canonical order: larger first, then by color (red, yellow, green, blue, black...)."""
    return tuple(sorted(pieces, key=_key))


def bid_value(pieces: Iterable[Piece]) -> tuple[int, int]:
    """A bid's value ``(pips, pieces)``; tuples compare as U-9 orders bids."""
    ps = list(pieces)
    return (sum(p.pips for p in ps), len(ps))


def compare_bids(a: str | Iterable[Piece], b: str | Iterable[Piece]) -> int:
    """Compare two bids by U-9: negative when ``a`` is lower than ``b`` (so ``a``
    may undercut ``b``), 0 when they are worth the same, positive when ``a`` is higher.

    A bid is lower when it has fewer pips, or as many pips and fewer pieces;
    colors do not count. A bid is its pieces: a ``Piece`` sequence or their text
    (``"rS rS"``, ``"yM"``; ``""`` or ``"-"`` is the zero bid, the marker only).
    ``InvalidMoveError`` for a text that names no pieces (``"qL"``)::

        >>> compare_bids("yM", "rS rS")    # 2 pips/1 piece < 2 pips/2 pieces
        -1
        >>> compare_bids("kL", "rS rS")    # 3 pips > 2 pips
        1
        >>> compare_bids("", "-"), compare_bids("rS", "bS")
        (0, 0)
    """
    va, vb = bid_value(_bid_pieces(a)), bid_value(_bid_pieces(b))
    return (va > vb) - (va < vb)


def _bid_pieces(bid: str | Iterable[Piece]) -> tuple[Piece, ...]:
    if not isinstance(bid, str):
        return tuple(bid)
    words = bid.split()
    if words == ["-"]:
        return ()
    try:
        return tuple(Piece.parse(w) for w in words)
    except ValueError as e:
        raise InvalidMoveError(f"not a bid: {bid!r} ({e})") from None


def value_text(value: tuple[int, int]) -> str:
    pips, n = value
    return f"{pips} pip{'s' if pips != 1 else ''}/{n} piece{'s' if n != 1 else ''}"


def mix_sizes(mix: str) -> tuple[Size, ...]:
    return tuple(Size.parse(ch) for ch in mix)


def is_combo(combo: str, pieces: tuple[Piece, ...]) -> str | None:
    """``None`` if ``pieces`` form ``combo`` (U-5), else the reason they do not."""
    if combo == TREE:
        ok = len(pieces) == 3 and len({p.color for p in pieces}) == 1 \
            and sorted(p.size for p in pieces) == [Size.SMALL, Size.MEDIUM, Size.LARGE]
        return None if ok else "TREE needs one large, one medium and one small of one color (U-5)"
    if combo == TRIPLETS:
        ok = len(pieces) == 3 and len(set(pieces)) == 1
        return None if ok else "TRIPLETS needs three identical pieces (U-5)"
    if combo == FOURSOME:
        ok = len(pieces) == 4 and len({p.size for p in pieces}) == 1 and len({p.color for p in pieces}) == 4
        return None if ok else "FOURSOME needs four pieces of one size in four different colors (U-5)"
    raise ValueError(combo)  # pragma: no cover


def find_combos(hand: Bag) -> list["TurnIn"]:
    """Every distinct turn-in the hand allows (U-5: one per multiset), in
    sheet order TREE, TRIPLETS, FOURSOME."""
    out: list[TurnIn] = []
    colors = sorted({p.color for p in hand.distinct()}, key=_COLOR_ORDER.__getitem__)
    for c in colors:
        trio = tuple(Piece(c, s) for s in (Size.LARGE, Size.MEDIUM, Size.SMALL))
        if all(hand.count(p) for p in trio):
            out.append(TurnIn(TREE, trio))
    for p in canon(hand.distinct()):
        if hand.count(p) >= 3:
            out.append(TurnIn(TRIPLETS, (p, p, p)))
    for s in (Size.LARGE, Size.MEDIUM, Size.SMALL):
        cs = [c for c in colors if hand.count(Piece(c, s))]
        for four in combinations(cs, 4):
            out.append(TurnIn(FOURSOME, tuple(Piece(c, s) for c in four)))
    return out


# ---------------------------------------------------------------- moves


@dataclass(frozen=True)
class StartPlayer(Move):
    """Chance outcome of a random start (setup ``"start": "random"``): seat, 1-based in text."""

    seat: int

    def __str__(self) -> str:
        return f"start {self.seat + 1}"


@dataclass(frozen=True)
class Take(Move):
    """Full level, setup (U-3): the acting player takes a size mix, e.g. ``take LMS``."""

    mix: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "mix", "".join(sorted(self.mix.upper(), key="LMS".index)))

    def __str__(self) -> str:
        return f"take {self.mix}"



@dataclass(frozen=True)
class TurnIn(Move):
    """A turn-in (U-4..U-6). Full level names the pieces; score level does not."""

    combo: str
    pieces: tuple[Piece, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "pieces", canon(self.pieces))

    def __str__(self) -> str:
        return " ".join([self.combo.lower(), *(str(p) for p in self.pieces)])


@dataclass(frozen=True)
class Done(Move):
    """Score level: the acting player has no (more) combo to turn in."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True)
class Bid(Move):
    """Full level, auction (U-9): a bid on a stack (0-based index; letter in text)."""

    stack: int
    pieces: tuple[Piece, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "pieces", canon(self.pieces))

    @property
    def value(self) -> tuple[int, int]:
        return bid_value(self.pieces)

    def __str__(self) -> str:
        return " ".join(["bid", STACK_NAMES[self.stack], *(str(p) for p in self.pieces)])


@dataclass(frozen=True)
class Pass(Move):
    """A pass (U-11). Full level: ``pass L`` names the size to draw (``pass``
    alone when the bag is empty). Score level: ``pass K`` names the passer (1-based)."""

    size: Size | None = None
    seat: int | None = None

    def __str__(self) -> str:
        if self.seat is not None:
            return f"pass {self.seat + 1}"
        return f"pass {self.size.letter}" if self.size else "pass"


@dataclass(frozen=True)
class HandPips(Move):
    """Score level, end tiebreak (U-13): pips in the acting player's hand."""

    pips: int

    def __str__(self) -> str:
        return f"pips {self.pips}"


@dataclass(frozen=True)
class HandPieces(Move):
    """Score level, second tiebreak (U-13): pieces in the acting player's hand."""

    count: int

    def __str__(self) -> str:
        return f"pieces {self.count}"


def _int(word: str, what: str) -> int:
    if not word.isdigit():
        raise InvalidMoveError(f"{what} must be a whole number, not {word!r}")
    return int(word)


def parse_undercut_move(text: str) -> Move:
    """The move a text names (syntax only; legality is the state's business)."""
    words = text.split()
    if not words:
        raise InvalidMoveError("empty move")
    head, args = words[0].lower(), words[1:]
    if head == "start" and len(args) == 1:
        k = _int(args[0], "a seat")
        if k < 1:
            raise InvalidMoveError("seats are numbered from 1 in move texts")
        return StartPlayer(k - 1)
    if head == "take" and len(args) == 1:
        mix = args[0].upper()
        if not mix or any(ch not in "SML" for ch in mix):
            raise InvalidMoveError(f"not a size mix: {args[0]!r} (e.g. LMS, MMSS)")
        return Take(mix)
    if head == "got" and len(args) == 1:
        return Got(Piece.parse(args[0]))
    if head.upper() in COMBOS:
        return TurnIn(head.upper(), tuple(Piece.parse(a) for a in args))
    if head == "done" and not args:
        return Done()
    if head == "bid" and args:
        name = args[0].upper()
        if len(name) != 1 or name not in STACK_NAMES:
            raise InvalidMoveError(f"not a stack name: {args[0]!r} (A to D)")
        rest = args[1:]
        if rest == ["-"]:
            rest = []
        return Bid(STACK_NAMES.index(name), tuple(Piece.parse(a) for a in rest))
    if head == "pass" and len(args) <= 1:
        if not args:
            return Pass()
        if args[0].isdigit():
            k = int(args[0])
            if k < 1:
                raise InvalidMoveError("seats are numbered from 1 in move texts")
            return Pass(seat=k - 1)
        return Pass(size=Size.parse(args[0]))
    if head == "pips" and len(args) == 1:
        return HandPips(_int(args[0], "pips"))
    if head == "pieces" and len(args) == 1:
        return HandPieces(_int(args[0], "a piece count"))
    raise InvalidMoveError(f"not an Undercut move: {text!r}")
