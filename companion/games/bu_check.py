"""Bottoms Up check mode (BU-13): can the rules reach the field the table built?

The table makes a placement, resolves it by hand and enters the field it
ended with. ``check`` searches the active player's choices (blue colors,
yellow destinations) for a sequence that reaches exactly that field::

    >>> from companion.games.bottoms_up import position
    >>> s = position({"players": ["Ann", "Bob", "Cat", "Dan"]}, ["yS", "rS", "gS"])
    >>> r = check(s, "place yL on A", ["yL", "yS", "rS"])   # rS landed on gS
    >>> r.reachable, r.choices
    (True, ('yellow B', 'yellow C'))
    >>> r = check(s, "place yL on A", ["yL", "rS yS", "gS"])
    >>> r.reachable, r.difference
    (False, 'B: the rules give rS, the table has rS yS')

The field is compared as a multiset of stacks (bottom to top): labels the
table gives (``"C: wS rM"``) only steer which stack the first difference
names. A search, not a listing: positions are merged on a canonical form
without labels or internal ids (two identical lone pieces are one
destination); positions that provably cannot end with the table's field are
cut (``_Target``: destroyed pieces never come back, black pieces never move
or change and nothing is ever put under a piece, so what lies under a black
is a closed system whose every future content is listed
(``_segment_closure``), no color appears without blue...), and an option is
never applied when a proof shows it cannot end with the table's field
(``_Search.hopeless``: once no yellow move can happen any more, every stack
not being recalculated stays as it is); breadth first for the fewest
choices, then best first guided by the table's field (``_Search``): the
choices that build one of its stacks (directly, or by a guess at the pass of
the stack a piece lands on) without breaking one it shows, that change a
stack it does not show or that give a piece it has, first, in a
limited-discrepancy order (the cost of a path counts every choice that
leaves that order, from the first choice on). Each position is read once
(``_Look``), its stacks written one character a piece.

The budget is counted in positions, never in seconds: the same answer on
every machine. What the search cannot settle within it, it says so ("not
found up to N choices"): mostly fields where yellow and white pieces pass
each other on without end (BU-8 items 4, 5; BU-9), whose cascades reach tens
of thousands of positions and where only the blacks and the supply bound
what the table may show.

Not every fact that looks like a proof is one (tests/test_bu_check_sound.py):
a stack a piece landed on can come back to its old pieces (a white lands on
it, then a yellow on the white: in its pass both move away, BU-8 item 5), and
a piece can end right under a red that never acted on it (the piece between
them grew nothing, none larger being left, then moved away before the red
dropped onto it, BU-7). Some fields the search leaves unfinished are
reachable only through such a detour: one of the bench's near misses needs a
stack the table shows as it is to be broken and built again, 13 choices.
"""
from __future__ import annotations

import functools
import gc
import heapq
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..engine import Move
from ..errors import IllegalMoveError, InvalidMoveError
from ..pieces import Color, Piece, Size
from .bottoms_up import COLORS, BlueChoice, Phase, BottomsUpState, Place, YellowChoice, parse_bu_move

__all__ = ["CheckResult", "Difference", "check", "parse_table", "canonical_key", "first_difference", "first_gap"]

Stack = tuple[Piece, ...]


@dataclass(frozen=True)
class CheckResult:
    """The answer of check mode.

    ``reachable``: some legal sequence of choices gives exactly the table's
    field; ``choices``: the choice move texts to apply after the placement
    (the path to the table's field, or to ``result`` when not reachable);
    ``result``: the state after them (a legal result); ``difference``: the
    first difference between ``result`` and the table (``None`` when
    reachable); ``explored``: search nodes; ``complete``: ``False`` only if
    the search stopped before every result was ruled out; ``depth``:
    the number of choices of ``choices`` when reachable, else every sequence
    of up to ``depth`` choices was ruled out; ``reason``: when a rule shows
    at once that no cascade can end with the table's field (a black piece
    that cannot move, a piece destroyed for good...), that rule in words;
    ``timed_out``: the search was stopped by the time guard (``time_limit``),
    not by its budget of positions: the answer is open (``complete`` false)
    and may differ from the one the budget gives (issue 42: it never fires
    within ``GUARD_S`` on a machine ten times slower than a Pi Zero 2 W)."""

    reachable: bool
    choices: tuple[str, ...]
    result: BottomsUpState
    difference: str | None
    explored: int
    complete: bool = True
    depth: int = 0
    reason: str | None = None
    gap: Difference | None = None  # ``difference`` as data, for the screens
    timed_out: bool = False

    @property
    def result_field(self) -> list[str]:
        return self.result.field_lines()

    @property
    def moves(self) -> tuple[Move, ...]:
        """``choices`` as ``Move`` values (the screens test moves by type, never by text)."""
        return tuple(parse_bu_move(t) for t in self.choices)

    def to_json(self) -> dict[str, Any]:
        return {"reachable": self.reachable, "choices": list(self.choices), "result": self.result_field,
                "difference": self.difference, "explored": self.explored, "complete": self.complete,
                "depth": self.depth, "reason": self.reason, "timed_out": self.timed_out}


def parse_table(table: Iterable[Any] | Mapping[str, Any]) -> list[tuple[str | None, Stack]]:
    """The table's field: ``{"C": "wS rM"}``, or a list of ``"wS rM"`` /
    ``"C: wS rM"`` / ``["wS", "rM"]`` items; pieces bottom to top."""
    items: list[tuple[str | None, Any]]
    if isinstance(table, Mapping):
        items = [(str(k).upper(), v) for k, v in table.items()]
    else:
        items = []
        for it in table:
            if isinstance(it, str) and ":" in it:
                head, rest = it.split(":", 1)
                items.append((head.strip().upper(), rest))
            else:
                items.append((None, it))
    out: list[tuple[str | None, Stack]] = []
    for lab, v in items:
        words = v.split() if isinstance(v, str) else list(v)
        pcs = tuple(p if isinstance(p, Piece) else Piece.parse(p) for p in words)
        if not pcs:
            raise InvalidMoveError(f"an empty stack{' ' + lab if lab else ''} in the table's field")
        out.append((lab, pcs))
    return out


# Pieces as one character each (any color ``Piece.parse`` reads, three sizes),
# stacks as strings of them: hashing and comparing a string is done once and
# in C, where a tuple of ``Piece`` values hashes every piece in Python. A
# bijection: two stacks have the same code exactly when they are equal.
_CHAR: dict[tuple[str, int], str] = {}
_PIECE_OF: dict[str, Piece] = {}
for _i, _c in enumerate(Color):
    for _z in Size:
        _CHAR[_c._value_, _z._value_] = chr(0x41 + 3 * _i + _z - 1)
        _PIECE_OF[chr(0x41 + 3 * _i + _z - 1)] = Piece(_c, _z)
_COLOR_OF = {ch: p.color for ch, p in _PIECE_OF.items()}
_BLACKS = frozenset(ch for ch, c in _COLOR_OF.items() if c == Color.BLACK)
_SMALLER = {Size.LARGE: (Size.MEDIUM, Size.SMALL), Size.MEDIUM: (Size.SMALL,), Size.SMALL: ()}  # red (BU-8)
_LARGER = {Size.SMALL: Size.MEDIUM, Size.MEDIUM: Size.LARGE}  # green (BU-8)


def _ch(p: Piece) -> str:
    return _CHAR[p.color._value_, p.size._value_]


def _code(pieces: Iterable[Piece]) -> str:
    """A stack (bottom to top) as a string, one character a piece."""
    return "".join([_CHAR[p.color._value_, p.size._value_] for p in pieces])


def _pieces(code: str) -> Stack:
    return tuple(_PIECE_OF[ch] for ch in code)


class _Look:
    """A position read once for the key, the order, the distance and the
    cuts: each group's code (``codes``, by internal id) and internal id by
    label (``gid_of``), the field's stacks (``stacks``) and pieces
    (``chars``) counted, the stash as a string."""

    __slots__ = ("codes", "gid_of", "stacks", "chars", "stash", "_stash_count")

    def __init__(self, s: BottomsUpState):
        self.codes = {g.gid: "".join([_CHAR[p.color._value_, p.size._value_] for _, p in g.slots])
                      for g in s.groups}
        self.gid_of = {g.label: g.gid for g in s.groups}
        self.stacks = Counter(self.codes.values())
        self.chars = Counter("".join(self.codes.values()))
        self.stash = "".join([_CHAR[p.color._value_, p.size._value_] * n for p, n in s.stash.items()])
        self._stash_count: Counter | None = None

    def stash_count(self, ch: str) -> int:
        if self._stash_count is None:
            self._stash_count = Counter(self.stash)
        return self._stash_count[ch]


def _key(s: BottomsUpState, look: _Look) -> tuple:
    cur = s.cursor.gid if s.cursor else None
    pend = s.pending.gid if s.pending else None
    codes = look.codes
    qpos: dict[int, list[int]] = {}
    k = 0
    for q in s.queue:
        if q in codes:
            qpos.setdefault(q, []).append(k)
            k += 1
    sigs = sorted((codes[g.gid], g.gid == cur, g.gid == pend, tuple(qpos.get(g.gid, ()))) for g in s.groups)
    cursor: tuple = ()
    if s.cursor is not None:
        g = s.group_by_id(s.cursor.gid)
        pos = {sl: i for i, (sl, _) in enumerate(g.slots)} if g else {}
        c = s.cursor
        cursor = (tuple(pos.get(x, -1) for x in c.noted[c.idx:]), c.stage,
                  -1 if c.u is None else pos.get(c.u, -1))
    pending: tuple = ()
    if s.pending is not None:
        g = s.group_by_id(s.pending.gid)
        pos = {sl: i for i, (sl, _) in enumerate(g.slots)} if g else {}
        pending = (s.pending.kind, pos.get(s.pending.slot, -1))
    return (tuple(sigs), cursor, pending, look.stash)


def canonical_key(s: BottomsUpState) -> tuple:
    """What decides the rest of a recalculation, without labels or ids:
    group contents with their roles (being recalculated, queued where,
    holding the pending piece), the pass position, the pending piece, the
    stash. Stacks and the stash are written one character a piece
    (``_code``): equal keys, equal positions up to labels and ids."""
    return _key(s, _Look(s))


@dataclass(frozen=True)
class Difference:
    """The first difference between the rules' field and the table's, as data
    (screens put it in words): group ``label`` (``None`` for an unlabelled
    table stack) where the rules give ``rules`` and the table has ``table``;
    ``table`` is ``None`` when the table has no such stack, ``rules`` is
    ``None`` when the table has a stack the rules do not give."""

    label: str | None
    rules: Stack | None
    table: Stack | None

    def __str__(self) -> str:
        txt = lambda pcs: " ".join(map(str, pcs))  # noqa: E731
        if self.rules is None:
            where = f"{self.label}: " if self.label else ""
            return f"{where}the table has {txt(self.table or ())}, which the rules do not give"
        if self.table is None:
            return f"{self.label}: the rules give {txt(self.rules)}, the table has no such stack"
        return f"{self.label}: the rules give {txt(self.rules)}, the table has {txt(self.table)}"


def first_difference(s: BottomsUpState, table: Sequence[tuple[str | None, Stack]]) -> str | None:
    """The first difference between the rules' field ``s`` and the table's,
    in label order, in words; ``None`` when they are the same multiset of stacks."""
    gap = first_gap(s, table)
    return None if gap is None else str(gap)


def first_gap(s: BottomsUpState, table: Sequence[tuple[str | None, Stack]]) -> Difference | None:
    """``first_difference`` as a ``Difference``."""
    groups = s.field_groups()
    want = list(table)
    used = [False] * len(want)
    matched: dict[str, int] = {}
    by_label = {g.label: g for g in groups}
    for i, (lab, pcs) in enumerate(want):  # labelled and equal
        if lab and lab in by_label and by_label[lab].pieces == pcs and lab not in matched:
            matched[lab] = i
            used[i] = True
    for g in groups:  # then equal contents anywhere
        if g.label in matched:
            continue
        for i, (lab, pcs) in enumerate(want):
            if not used[i] and pcs == g.pieces and (lab is None or lab not in by_label):
                matched[g.label] = i
                used[i] = True
                break
    for g in groups:
        if g.label in matched:
            continue
        cands = [i for i, (lab, _) in enumerate(want) if not used[i] and lab == g.label]
        if not cands:
            def common(pcs: Stack, have: Stack = g.pieces) -> int:  # used in this iteration only
                n = 0
                while n < min(len(pcs), len(have)) and pcs[n] == have[n]:
                    n += 1
                return n
            cands = sorted((i for i, (lab, _) in enumerate(want) if not used[i] and common(want[i][1]) > 0),
                           key=lambda i: -common(want[i][1]))
        return Difference(g.label, g.pieces, want[cands[0]][1] if cands else None)
    for i, (lab, pcs) in enumerate(want):
        if not used[i]:
            return Difference(lab, None, pcs)
    return None


class _OutOfBudget(Exception):
    """The budget of positions (``max_positions``) is spent: an open answer, the same on every machine."""


class _OutOfTime(Exception):
    """The time guard (``time_limit``) fired before the budget was spent: an open answer that says so."""


# ---------------------------------------------------------------- proofs of impossibility

_EFFECTS = (Color.RED, Color.GREEN, Color.BLUE, Color.YELLOW)


class _Target:
    """The table's field, prepared for the necessary conditions below.

    Each condition is a fact of the rules that holds from a position to
    every end of its cascade, so a position failing one is cut with
    certainty (the search stays exact):

    * supply: destroyed pieces never come back (BU-6), so the field and the
      stash together must still hold every piece the table shows;
    * black (BU-8 items 1, 2): a black piece is never affected, so it never
      changes, never leaves its group and groups never merge; pieces only
      arrive on top of a group. A group holding black pieces ends as one of
      the table's stacks that holds them in the same order (a matching: two
      such groups never end as one stack). Under each black, down to the
      black below or the bottom, lies a closed segment: nothing is ever put
      into it, the black above it has no effect on it (item 2) and the piece
      under it is black or nothing (never a white taking item 5's effect
      from it), and its pieces change or leave only in the passes over their
      own stack (BU-7). So the segment ends as one of the contents that any
      number of passes (BU-9 sets no limit) can make of it, with any choices
      and whatever the stash holds (``_segment_closure``: every replacement
      may or may not be there, so a superset of the truth). A segment in the
      middle of a pass (it holds the pending piece, or the current pass has
      visited part of it) or with too many contents is bounded by its count
      of pieces only. A segment of one piece never changes (its upper is
      black, nothing is below it);
    * colors: effects come only from the colors on the field (an upper
      piece's color, or a white's reflection of the lower piece's own color).
      With no blue piece no piece changes color and no new color appears;
      with no red piece too, nothing is destroyed; with no green piece too,
      nothing grows or is spawned (a black large is immune: it never spawns).
    """

    def __init__(self, want: Sequence[tuple[str | None, Stack]]):
        self.stacks: list[str] = [_code(st) for _, st in want]  # one character a piece (``_code``)
        self.need = Counter("".join(self.stacks))
        self.colors = Counter(_COLOR_OF[ch] for ch in self.need.elements())
        self._black_ok: dict[tuple, tuple | None] = {}
        self._patterns: dict[str, tuple] = {}  # an idle group's pieces -> its black pattern

    def why_not(self, s: BottomsUpState, look: _Look | None = None) -> str | None:
        """A reason the table's field cannot be the end of ``s``'s cascade, or
        ``None``. ``look``: ``s`` already read (``_Look``)."""
        if look is None:
            look = _Look(s)
        field = look.chars
        for ch, n in self.need.items():
            have = field[ch] + look.stash_count(ch)
            if have < n:
                return f"the table has {n} {_PIECE_OF[ch]}, the field and the stash hold only {have} (BU-6)"
        bad = self._black(s, look)
        if bad:
            return bad
        present = {_COLOR_OF[ch] for ch in field}
        if Color.BLUE not in present:
            by_color: Counter = Counter()
            for ch, n in field.items():
                by_color[_COLOR_OF[ch]] += n
            # colors in the vocabulary's order (not set order), so the reason given is
            # the same in every process
            for c in sorted(set(by_color) | set(self.colors), key=list(Color).index):
                # a spawn takes a small of its color from the stash; grown pieces give
                # theirs back, so the stash's whole count of that color bounds them
                spawn = (sum(look.stash_count(_ch(Piece(c, z))) for z in Size)
                         if Color.GREEN in present and c != Color.BLACK else 0)
                if self.colors[c] > by_color[c] + spawn:
                    return (f"the table has {self.colors[c]} {c.value} pieces; with no blue piece "
                            f"on the field there can be at most {by_color[c] + spawn} (BU-8)")
                if Color.RED not in present and self.colors[c] < by_color[c]:
                    return (f"the table has {self.colors[c]} {c.value} pieces; with no red or blue "
                            f"piece on the field none of the {by_color[c]} can go (BU-8)")
            if Color.RED not in present and Color.GREEN not in present and self.need != field:
                return "with no red, green or blue piece on the field no piece can change (BU-8)"
        return None

    def _black(self, s: BottomsUpState, look: _Look) -> str | None:
        patterns = []
        cur = s.cursor.gid if s.cursor is not None else None
        pend = s.pending.gid if s.pending is not None else None
        for g in s.groups:
            pcs = look.codes[g.gid]
            if _BLACKS.isdisjoint(pcs):
                continue
            if g.gid in (cur, pend):
                pattern = _black_pattern(s, g, pcs)
            elif pcs in self._patterns:  # an idle group's pattern depends on its pieces only
                pattern = self._patterns[pcs]
            else:
                pattern = self._patterns[pcs] = _black_pattern(s, g, pcs)
            patterns.append((g.label, pattern))
        if not patterns:
            return None
        # a cache key of the multiset of patterns (hash order: cheap, one process only);
        # the matching sees them in an order that is the same in every process
        key = tuple(sorted((p for _, p in patterns), key=hash))
        if key not in self._black_ok:
            self._black_ok[key] = self._black_match(sorted(key, key=_pattern_order))
        bad = self._black_ok[key]
        if bad is None:
            return None
        label = next(lab for lab, p in patterns if p == bad)
        blacks = [_PIECE_OF[b] for _, b in bad]
        closed = [spec for spec, _ in bad if not isinstance(spec, int)]
        under = [_PIECE_OF[ch] for spec in closed if len(spec[0]) == 1 for ch in spec[2]]
        if under:
            also = (f"; {' '.join(map(str, under))} under black never {'changes' if len(under) == 1 else 'change'}"
                    f" (BU-8 item 2)")
        else:
            also = "; what lies under a black changes only in its own stack's passes (BU-7, BU-8 item 2)" if closed else ""
        return (f"{label}: its black {' '.join(map(str, blacks))} never moves or changes (BU-8 item 1){also} "
                f"and no stack of the table can be what {label} becomes")

    def _black_match(self, patterns: list[tuple]) -> tuple | None:
        """Every group holding black pieces needs a stack of its own: ``None``
        when there is such a matching, else a pattern left without one."""
        fits = [[j for j, st in enumerate(self.stacks) if _black_fit(pat, st)] for pat in patterns]
        match: dict[int, int] = {}

        def augment(i: int, seen: set[int]) -> bool:
            for j in fits[i]:
                if j not in seen:
                    seen.add(j)
                    if j not in match or augment(match[j], seen):
                        match[j] = i
                        return True
            return False

        for i, pat in enumerate(patterns):
            if not augment(i, set()):
                return pat
        return None


def _black_fit(pattern: tuple, st: str) -> bool:
    """Can ``st`` be what a group with the black pattern ``pattern``
    (``_black_pattern``) becomes? Nothing is ever put under a piece, so each
    black is preceded by what its segment can become: a string of its
    ``_segment_closure`` (a set) or at most that many pieces (an ``int``)."""

    def go(k: int, at: int) -> bool:
        if k == len(pattern):
            return True
        spec, b = pattern[k]
        if isinstance(spec, int):
            lengths: Iterable[int] = range(spec + 1)
        else:
            lengths = range(spec[1] + 1)
        for n in lengths:
            e = at + n
            if e >= len(st):
                break
            if st[e] == b and (isinstance(spec, int) or st[at:e] in spec[0]) and go(k + 1, e + 1):
                return True
        return False

    return go(0, 0)


def _black_pattern(s: BottomsUpState, g: Any, pcs: str) -> tuple:
    """The blacks of group ``g`` (``pcs``, bottom to top), each with what the
    segment of pieces under it (down to the black below, or the bottom) can
    become: ``(set of strings, longest)`` from ``_segment_closure``, or the
    count of its pieces when only that is known (the segment is in the middle
    of a pass: it holds the pending piece, or a pass over the group has
    visited part of it; or its closure is too large to list)."""
    busy = set()  # a piece taking an effect right now
    if s.pending is not None and s.pending.gid == g.gid:
        busy.add(s.pending.slot)
    todo: set[int] = set()  # pieces the current pass has still to visit
    if s.cursor is not None and s.cursor.gid == g.gid:
        c = s.cursor
        if c.u is not None:
            busy.add(c.u)
        todo = set(c.noted[c.idx:])
    out = []
    lo = 0
    for i, ch in enumerate(pcs):
        if ch not in _BLACKS:
            continue
        seg = pcs[lo:i]
        slots = [g.slots[k][0] for k in range(lo, i)]
        visited = [sl not in todo for sl in slots]
        clean = not busy.intersection(slots) and (all(visited) or not any(visited))
        spec: Any = len(seg)
        if seg and clean:
            closure = _segment_closure(seg)
            if closure is not None:
                spec = (closure, len(seg), seg)
        out.append((spec, ch))
        lo = i + 1
    return tuple(out)


_CLOSURE_CAP = 200
"""``_segment_closure`` gives up beyond this many contents (the count of pieces still bounds them)..."""
_CLOSURE_WORK = 10000
"""... or beyond this many states of passes in all (at most about 6 ms here, once per segment: cached)."""
_SEGMENT_MAX = 6
"""``_segment_closure`` is not tried on longer segments (the count of pieces still bounds them)."""


def _effect_outcomes(color: Color, ch: str) -> Sequence[str | None]:
    """What ``color``'s effect (BU-8) can make of the piece ``ch``, whatever
    the stash holds (an over-approximation: every replacement may or may not
    be there): a piece, or ``None`` when it leaves (destroyed or moved)."""
    p = _PIECE_OF[ch]
    if color == Color.RED:  # a smaller one of its color, or destroyed
        return [_ch(Piece(p.color, z)) for z in _SMALLER[p.size]] + [None]
    if color == Color.GREEN:  # grown, or nothing left to grow into (a large spawns elsewhere)
        return [ch] if p.size == Size.LARGE else [_ch(Piece(p.color, _LARGER[p.size])), ch]
    if color == Color.BLUE:  # any other color, or none left
        return [_ch(Piece(c, p.size)) for c in COLORS if c != p.color] + [ch]
    if color == Color.YELLOW:  # moved away
        return [None]
    raise AssertionError(f"no effect of its own: {color}")  # pragma: no cover - items 1-3 filter them


def _pattern_order(pattern: tuple) -> tuple:
    """A sort key for black patterns that is the same in every process (a
    set's order is not): the segments' pieces and the blacks."""
    return (tuple(b for _, b in pattern),
            tuple((0, spec, "") if isinstance(spec, int) else (1, spec[1], spec[2]) for spec, _ in pattern))


_PASS_CAP = 300
"""``_one_pass`` gives up beyond this many states of a pass (blue choices multiply them)."""


class _TooMany(Exception):
    pass


@functools.lru_cache(maxsize=4096)
def _one_pass(seg: str) -> tuple[frozenset[str], int] | None:
    """Every content a recalculation pass (BU-7, BU-8) can leave of ``seg``,
    a segment of a stack with a black piece directly above it, whatever the
    choices and the stash. The black above has no effect (item 2) and the
    piece under the segment is black or nothing, so the pass over the stack
    does to the segment exactly this: its pieces visited bottom to top in the
    noted order, one that left skipped, a replacement keeping its place, the
    upper piece of item 5 taking its own effect right after the lower one
    and keeping its turn (BU-7 as amended). With the count of states the
    pass went through; ``None`` when there are more than ``_PASS_CAP``."""
    results: set[str] = set()
    n = len(seg)
    seen: set[tuple] = set()
    todo: list[tuple[tuple[tuple[int, str], ...], int, int]] = []

    def push(pcs: tuple, idx: int, u: int) -> None:
        state = (pcs, idx, u)
        if state not in seen:
            if len(seen) >= _PASS_CAP:
                raise _TooMany
            seen.add(state)
            todo.append(state)

    try:
        push(tuple(enumerate(seg)), 0, -1)
        while todo:
            pcs, idx, u = todo.pop()
            if u >= 0:  # item 5, second half: the upper piece takes its own effect
                i = next((k for k, (sl, _) in enumerate(pcs) if sl == u), None)
                if i is None:  # pragma: no cover - only the lower piece was affected
                    push(pcs, idx + 1, -1)
                    continue
                for o in _effect_outcomes(_COLOR_OF[pcs[i][1]], pcs[i][1]):
                    push(_put(pcs, i, o), idx + 1, -1)
                continue
            if idx >= n:
                results.add("".join(ch for _, ch in pcs))
                continue
            i = next((k for k, (sl, _) in enumerate(pcs) if sl == idx), None)
            if i is None or i == len(pcs) - 1:  # gone, or under the black: nothing (item 2)
                push(pcs, idx + 1, -1)
                continue
            low, up = pcs[i][1], pcs[i + 1][1]
            lc, uc = _COLOR_OF[low], _COLOR_OF[up]
            if lc == Color.BLACK or uc == Color.BLACK or (lc == Color.WHITE and uc == Color.WHITE):
                push(pcs, idx + 1, -1)
            elif uc == Color.WHITE:  # item 4: the lower piece takes its own effect
                for o in _effect_outcomes(lc, low):
                    push(_put(pcs, i, o), idx + 1, -1)
            elif lc == Color.WHITE:  # item 5: the lower takes the upper's effect, then the upper its own
                for o in _effect_outcomes(uc, low):
                    push(_put(pcs, i, o), idx, pcs[i + 1][0])
            else:
                for o in _effect_outcomes(uc, low):
                    push(_put(pcs, i, o), idx + 1, -1)
    except _TooMany:
        return None
    return frozenset(results), len(seen)


def _put(pcs: tuple, i: int, o: str | None) -> tuple:
    if o is None:
        return pcs[:i] + pcs[i + 1:]
    return pcs[:i] + ((pcs[i][0], o),) + pcs[i + 1:]


@functools.lru_cache(maxsize=4096)
def _segment_closure(seg: str) -> frozenset[str] | None:
    """Every content the segment ``seg`` under a black piece can have after
    any number of passes over its stack (BU-9 sets no limit): a closed
    system, since a black never moves or changes and has no effect (BU-8
    items 1, 2), nothing is ever put under a piece (a yellow move lands on
    top, BU-8) and a piece changes or leaves only in a pass over its own
    stack (BU-7). ``None`` when there are more than ``_CLOSURE_CAP``, or
    listing them takes more than ``_CLOSURE_WORK`` states of passes
    (``_one_pass``), or ``seg`` is longer than ``_SEGMENT_MAX``."""
    if len(seg) > _SEGMENT_MAX:
        return None
    seen = {seg}
    todo = [seg]
    work = 0
    while todo:
        after = _one_pass(todo.pop())
        if after is None:
            return None
        work += after[1]
        if work > _CLOSURE_WORK:
            return None
        for nxt in after[0]:
            if nxt not in seen:
                seen.add(nxt)
                if len(seen) > _CLOSURE_CAP:
                    return None
                todo.append(nxt)
    return frozenset(seen)


# ---------------------------------------------------------------- no landing left (a proof, per option)

_YELLOWS = frozenset(ch for ch, c in _COLOR_OF.items() if c == Color.YELLOW)
_WHITES = frozenset(ch for ch, c in _COLOR_OF.items() if c == Color.WHITE)
_BLUES = frozenset(ch for ch, c in _COLOR_OF.items() if c == Color.BLUE)


def _may_move(code: str, wild: Iterable[int], again: bool) -> bool:
    """May recalculating the stack ``code`` (bottom to top) make a yellow
    move? ``wild``: the indices of pieces whose color is not known yet (the
    piece of a pending choice); ``again``: the stack may be recalculated more
    than once (queued twice, BU-9), so pieces that are not neighbours now
    may become neighbours (a piece between them leaves, BU-7).

    A yellow move is a yellow effect (BU-8), and a pass gives one only where
    it visits a lower piece L under an upper piece U, neither black (items
    1, 2), with U yellow (items 5, 6; L white takes it too) or U white and L
    yellow (item 4, L's own effect). In one pass (BU-7) the pairs visited
    are pairs of neighbours as the pass starts: a piece above L is not
    visited before L, nothing lands on a stack during its own pass, and a
    piece that leaves only lets the pieces above drop onto a piece already
    visited. A visited L can differ from the piece noted at the start only
    by its own effect as the upper piece of item 5 (the piece below it is
    white): a blue L then takes any color; red and green keep the color, a
    yellow L moves (its lower piece white and L yellow: a move is found
    there already). So "no" here is certain; "yes" may be too careful."""
    n = len(code)
    wilds = set(wild)
    if again and (wilds or not _BLUES.isdisjoint(code)):
        wilds = {i for i in range(n) if code[i] not in _BLACKS}  # a recolor may make any color
    else:
        for i in range(1, n):  # blue taking its own effect over a (maybe) white (BU-8 item 5)
            if code[i] in _BLUES and (code[i - 1] in _WHITES or i - 1 in wilds):
                wilds.add(i)

    def black(i: int) -> bool:
        return i not in wilds and code[i] in _BLACKS

    def yellow(i: int) -> bool:
        return i in wilds or code[i] in _YELLOWS

    def white(i: int) -> bool:
        return i in wilds or code[i] in _WHITES

    for j in range(1, n):
        if black(j) or not (yellow(j) or white(j)):
            continue
        for i in (range(j) if again else (j - 1,)):
            if not black(i) and (yellow(j) or yellow(i)):
                return True
    return False


def _rest_may_move(s: BottomsUpState, g: Any, i: int, code: str, again: bool) -> bool:
    """``_may_move`` for the rest of the pass over ``g`` (``code``), which
    holds the pending choice's piece at index ``i``. The pass goes on with
    the noted pieces not yet visited (BU-7): the pieces from the first of
    them up. At BU-8 item 5's first half (cursor stage 1) the upper piece
    still takes its own effect: a yellow one moves itself, a blue one takes
    any color. ``again``: ``g`` is queued too, so the whole stack is
    recalculated once more."""
    c = s.cursor
    if again or c is None or c.gid != g.gid:
        return _may_move(code, (i,), True)
    pos = {sl: k for k, (sl, _) in enumerate(g.slots)}
    wild = [i]
    start = c.idx
    if c.stage == 1:
        start += 1
        if c.u is not None and c.u in pos:
            k = pos[c.u]
            if code[k] in _YELLOWS:
                return True
            if code[k] in _BLUES:
                wild.append(k)
    rest = [pos[x] for x in c.noted[start:] if x in pos]
    if not rest:
        return False
    k0 = min(rest)
    return _may_move(code[k0:], [w - k0 for w in wild if w >= k0], False)


# ---------------------------------------------------------------- a guess at a pass (ordering only)



def _predict_pass(pieces: Stack, stash: Mapping[Piece, int]) -> tuple | None:
    """A guess at what one recalculation pass (BU-7, BU-8) makes of a stack,
    for the search's order only (never a cut): a piece moved by yellow
    leaves, a piece recolored by blue becomes its ``Size`` (any color: the
    choice is still open), the stash (counts of pieces) is read as it is now. ``None`` when the
    guess would need a color it does not know."""
    st: list[list] = [[k, p] for k, p in enumerate(pieces)]

    def where(k: int) -> int | None:
        for i, (kk, _) in enumerate(st):
            if kk == k:
                return i
        return None

    def hit(i: int, color: Color) -> None:
        p = st[i][1]
        if color == Color.RED:
            for z in _SMALLER[p.size]:
                if stash.get(Piece(p.color, z), 0):
                    st[i][1] = Piece(p.color, z)
                    return
            del st[i]
        elif color == Color.GREEN:
            if p.size != Size.LARGE and stash.get(Piece(p.color, _LARGER[p.size]), 0):
                st[i][1] = Piece(p.color, _LARGER[p.size])
        elif color == Color.BLUE:
            if any(stash.get(Piece(c, p.size), 0) for c in COLORS if c != p.color):
                st[i][1] = p.size
        elif color == Color.YELLOW:
            del st[i]

    for k in range(len(pieces)):
        i = where(k)
        if i is None or i == len(st) - 1:
            continue
        low, up = st[i][1], st[i + 1][1]
        if isinstance(low, Size) or isinstance(up, Size):
            return None
        if low.color == Color.BLACK or up.color == Color.BLACK or (
                low.color == Color.WHITE and up.color == Color.WHITE):
            continue
        if up.color == Color.WHITE:
            hit(i, low.color)
        elif low.color == Color.WHITE:
            ku = st[i + 1][0]
            hit(i, up.color)
            j = where(ku)
            if j is not None:
                hit(j, up.color)
        else:
            hit(i, up.color)
    return tuple(p for _, p in st)


def _like(guess: tuple, st: Stack) -> bool:
    """``guess`` (a ``Size`` for a piece of any color) can be the stack ``st``."""
    return len(guess) == len(st) and all(q.size == g if isinstance(g, Size) else g == q
                                         for g, q in zip(guess, st))


# ---------------------------------------------------------------- the search


def check(state: BottomsUpState, placement: Place | str | None,
          table: Iterable[Any] | Mapping[str, Any], *, time_limit: float | None = None,
          max_choices: int = 200, max_positions: int = 300,
          clock: Callable[[], float] = time.perf_counter) -> CheckResult:
    """Can ``placement`` (a move or its text; ``None`` when ``state`` is
    already at a choice) followed by some legal choices end with the table's
    field? Raises ``IllegalMoveError`` for an illegal placement and
    ``InvalidMoveError`` for an unreadable table.

    What a referee outside the project passes (BU-13, docs/records.md "Check mode"):

    * ``state``: the ``BottomsUpState`` before the placement: from
      ``bottoms_up.position(setup, field, active=...)`` (the field as piece
      texts bottom to top, ``["bM", "wS rM"]`` labelled A, B, ... or
      ``{"C": "wS rM"}``), or a replayed record's state
      (``records.replay(records.read(path)).fold.state``). Its phase is
      ``play`` with nothing pending, or a pending choice with ``placement=None``.
    * ``placement``: ``"place yL on A"`` (or a ``Place``), a legal placement in ``state``.
    * ``table``: the field the table has after the cascade, as
      ``parse_table`` reads it: ``{"C": "wS rM"}`` or a list of ``"wS rM"``,
      ``"C: wS rM"`` or ``["wS", "rM"]`` items, pieces bottom to top. It is
      compared as a multiset of stacks; labels only steer the message.
    * ``max_positions`` (default 300): the budget, in choices applied; the
      same answer on any machine. ``max_choices`` is a guard.
    * ``time_limit`` (s, default ``GUARD_S`` = 30) is only a safety net, read
      on ``clock`` (``time.perf_counter``; tests inject a slower one): it is
      far beyond what the budget takes (300 positions take about 0.1 s here,
      about 1 s on a Pi Zero 2 W), and when it does fire the answer says so
      (``timed_out``, ``complete`` false) instead of passing for the budget's.

    It returns a ``CheckResult`` (``to_json()`` for JSON): ``reachable`` and
    the ``choices`` that give the table's field, else a legal ``result`` and
    its first ``difference`` from the table; "not reachable" is certain when
    ``complete`` is true. ``state`` is left unchanged.

    Cascades have no length limit (BU-9). The search is exact: positions are
    merged on ``canonical_key``, a position is cut only when a rule proves
    it cannot end with the table's field (``_Target``), and an option is
    left unapplied only when a proof shows the same (``_Search.hopeless``)
    or it gives the same position as another (``_Search.options``). Its budget is
    counted in positions (``max_positions`` choices applied; 300 take at
    most about 0.1 s here, so about 1 s on a Pi Zero 2 W), so its answer
    does not depend on the machine's speed or load (issue 42);
    ``time_limit`` seconds are only a safety net. One search (``_Search``) runs in two phases that share one
    expansion step: first breadth first, one choice more at each level (so
    the choices found are as few as possible, and when the budget runs out
    every sequence of up to ``CheckResult.depth`` choices has been ruled
    out), for an eighth of the budget (a level it does not finish stays open
    for the next phase); then best first from the open positions, guided by
    the table's field: the positions nearest to it and, in each, the options
    nearest to it first (``_Search.order``, ``_Search.distance``), a path
    that follows that order before one that often leaves it. The
    guidance only orders: every option is still tried, so ``complete`` is
    ``True`` when every reachable position was seen or cut, and then
    "not reachable" is certain."""
    # the search makes many short-lived objects and no cycles: the cyclic
    # garbage collector's full passes would only cost time
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _check(state, placement, table, GUARD_S if time_limit is None else time_limit, max_choices,
                      max_positions, clock)
    finally:
        if was_enabled:
            gc.enable()


GUARD_S = 30.0
"""The default time guard (s): a safety net, never the budget (issue 42). The
budget of 300 positions takes about 0.1 s on a PC and about 1 s on a Pi Zero
2 W; a guard of 0.9 s used to cut the search short on a slow or loaded
machine (144 positions under emulation), so the same claim got another answer
on a Pi than on a PC. At 30 s even a machine ten times slower than a Pi Zero
spends the budget first (tests/test_bu_check_search.py runs the claims with
clocks that stand for machines 10 and 100 times slower than a PC, advanced by
the positions searched, issue 51; bench key ``bu_check_same_verdict_slow``)."""

CLOCK_EVERY = 16
"""The search reads ``clock`` once every CLOCK_EVERY positions it applies (and
once every CLOCK_EVERY open positions it queues for best first), never more:
reading a clock costs time, and a test's clock can stand for a machine's speed
by advancing a fixed step at each read (bench.bu_check.by_positions, issue 51)."""

BFS_SHARE = 8
"""Breadth first for 1/BFS_SHARE of the budget (the fewest choices), then best first.
An eighth rather than a quarter: the claims that need a long cascade (ten
choices or more, issue 15) are found by best first, which then has more of
the budget; on the bench's claims (bench/bu_check.py) it finds one more and
loses none."""


class _Found(Exception):
    """The table's field is reached: the search stops."""


class _Search:
    """One check: the table's field, the budget, the positions seen.

    ``step`` is the one child-expansion step both phases use (breadth first,
    then best first): it applies one option of a pending choice, counts it
    against the budget, scores a finished cascade (``final``) and returns the
    child when it is open, new (``canonical_key``) and not cut
    (``_Target.why_not``). The phases differ only in which option they give
    it next (``order``, ``distance``)."""

    def __init__(self, start: BottomsUpState, want: Sequence[tuple[str | None, Stack]],
                 max_choices: int, max_positions: int, deadline: float,
                 clock: Callable[[], float] = time.perf_counter):
        self.start = start
        self.want = want
        self.tgt = _Target(want)
        self.target = Counter(self.tgt.stacks)
        self.prefixes: set[str] = {st[:k] for st in self.target for k in range(1, len(st) + 1)}
        # colors at the bottom of the table's stacks: a lone piece of that color can grow or
        # shrink into one (red, green) before pieces land on it
        self.base_colors = {_PIECE_OF[st[0]].color for st in self.target if len(st) > 1}
        self.total_stacks = sum(self.target.values())
        self.by_len: dict[int, list[str]] = {}
        for st in self.target:
            self.by_len.setdefault(len(st), []).append(st)
        self._like: dict[tuple, tuple] = {}  # (stack, stash) -> the table's stacks a pass may give
        self._stash_pieces: dict[str, Counter] = {}  # a stash string, counted by piece
        self.max_choices = max_choices
        self.max_positions = max_positions
        self.deadline = deadline
        self.clock = clock
        self.explored = 0
        self.best: tuple | None = None  # (score, path, state); score None when reached
        self.seen: set = set()
        self.cut = False  # some position was left because of ``max_choices``
        self.depth = 0  # every sequence of up to ``depth`` choices is ruled out

    # ------------------------------------------------------------ the one step

    def tick(self) -> None:
        if self.explored >= self.max_positions:
            raise _OutOfBudget
        self.explored += 1
        if not self.explored % CLOCK_EVERY and self.clock() > self.deadline:  # only a safety net
            raise _OutOfTime

    def step(self, s: BottomsUpState, path: tuple[str, ...], m: Any) -> tuple | None:
        """The one child-expansion step of both phases: option ``m`` of ``s``'s
        pending choice, counted against the budget. Returns the child when it
        is open, new (``canonical_key``) and not cut (``_Target.why_not``), as
        ``(child, its path, its view)`` (the field counted once, ``_Look``);
        raises ``_Found`` when it ends with the table's field."""
        self.tick()
        child, cpath = s.apply(m), path + (str(m),)
        if child.pending is None:
            if self.final(child, cpath):
                raise _Found
            return None
        view = _Look(child)
        key = _key(child, view)
        if key in self.seen:
            return None
        if len(cpath) >= self.max_choices:
            self.cut = True
            return None
        self.seen.add(key)
        if self.tgt.why_not(child, view):
            return None
        return child, cpath, view

    def order(self, s: BottomsUpState, view: _Look) -> list[tuple[int, Any]]:
        """The options of ``s``'s pending choice with a score (0 nearest to
        the table's field, 3 farthest), in that order. An order, never a cut:
        every option is still tried.

        A blue choice: first the colors that build a prefix of one of the
        table's stacks, then those giving a piece the table has more of than
        the field, then a color the table holds at all. A yellow destination:
        first one that builds a prefix of a table's stack (or whose pass may
        give one the field lacks) on a group the table does not need as it
        is, or open space when the table has that lone piece; then the same
        on a group the table shows as it is (the landing breaks it, so it is
        only a trade) or a group that has to change anyway (the field has
        more of its stack than the table); a group the table shows as it is,
        with nothing to build, last. Open space for a piece that is not one
        of the table's lone pieces: 1 when it starts one of the table's
        stacks, 2 when its color does (red or green may resize it before a
        piece lands on it, BU-8), else 3."""
        pend = s.pending
        at = s.pending_at()
        assert pend is not None and at is not None
        g, i, p = at
        field, pcs, codes = view.stacks, view.chars, view.codes
        below = codes[g.gid][:i]
        ch = _ch(p)
        scored = []
        for m in pend.options:
            if isinstance(m, BlueChoice):
                q = _ch(Piece(m.color, p.size))
                if below + q in self.prefixes:
                    score = 0
                elif self.tgt.need[q] > pcs[q]:
                    score = 1
                else:
                    score = 2 if self.tgt.colors[m.color] else 3
            elif not isinstance(m, YellowChoice):  # pragma: no cover - a choice is blue or yellow
                raise AssertionError(f"not a choice: {m}")
            elif m.target is None:
                score = 0 if self.target[ch] > field[ch] else (
                    1 if ch in self.prefixes else 2 if p.color in self.base_colors else 3)
            else:
                d = codes[view.gid_of[m.target]]
                # landing changes ``d``: a stack the table shows as often as the field
                # (or more) is lost, one the field has too many of has to change anyway
                lose = field[d] <= self.target[d]
                if d + ch in self.prefixes or self.wanted(d + ch, view.stash, field):
                    score = 1 if lose else 0
                else:
                    score = 3 if lose else 1
            scored.append((score, m))
        scored.sort(key=lambda t: t[0])
        return scored

    def options(self, s: BottomsUpState, view: _Look) -> list[tuple[int, Any]]:
        """``order`` without the options ``hopeless`` proves cannot end with
        the table's field and without a landing on an idle stack equal to
        one already offered (they are never applied: a proof, not a cut of
        the budget's making)."""
        dead = self.hopeless(s, view)
        scored = self.order(s, view)
        if s.pending is not None and s.pending.kind == "yellow":
            # two idle stacks with the same pieces give the same position up to
            # labels (``canonical_key``): landing on the second is not applied
            busy = set(s.queue) | {s.pending.gid} | ({s.cursor.gid} if s.cursor else set())
            gid_of = view.gid_of
            same: set[str] = set()
            for _, m in scored:
                if isinstance(m, YellowChoice) and m.target is not None and gid_of[m.target] not in busy:
                    code = view.codes[gid_of[m.target]]
                    if code in same:
                        dead = dead | {m}
                    same.add(code)
        return [x for x in scored if x[1] not in dead] if dead else scored

    def hopeless(self, s: BottomsUpState, view: _Look) -> set:
        """The options of ``s``'s choice after which no piece can land on
        a stack any more, while some stack the table does not show would be
        left as it is.

        A stack that is neither being recalculated nor queued changes only
        when a piece lands on it (BU-9: a yellow move onto it queues it; its
        pieces leave or change only in its own pass, BU-7). When neither the
        rest of the current pass, nor the queued passes, nor the pass of the
        stack this choice puts a piece on can make a yellow move
        (``_may_move``), no piece lands after this choice, so every such
        stack but the one landed on ends the cascade as it is; the table's
        field must hold them all. A blue choice lands nothing; a move to open
        space makes a lone piece, which is never recalculated (BU-9)."""
        pend = s.pending
        at = s.pending_at()
        assert pend is not None and at is not None
        g, i, p = at
        codes = view.codes
        queued = Counter(q for q in s.queue if q in codes)
        cur = s.cursor.gid if s.cursor is not None else g.gid
        if _rest_may_move(s, g, i, codes[g.gid], g.gid in queued) or (
                cur != g.gid and _may_move(codes[cur], (), True)):
            return set()
        for gid, k in queued.items():
            if gid not in (g.gid, cur) and _may_move(codes[gid], (), k > 1):
                return set()
        idle = Counter(codes[gid] for gid in codes if gid not in queued and gid not in (g.gid, cur))
        left = idle - self.target
        if pend.kind == "blue":
            return set(pend.options) if left else set()
        ch = _ch(p)
        gid_of = view.gid_of
        dead = set()
        for m in pend.options:
            assert isinstance(m, YellowChoice)
            if m.target is None:
                if left:
                    dead.add(m)
                continue
            d = gid_of[m.target]
            if _may_move(codes[d] + ch, (), d in queued):
                continue
            if d in queued or d == cur or not left[codes[d]]:
                if left:
                    dead.add(m)
            elif sum(left.values()) > 1:
                dead.add(m)
        return dead

    def wanted(self, stack: str, stash: str, field: Counter) -> bool:
        """The guess at a pass over ``stack`` (``_predict_pass``) can be one
        of the table's stacks that the field has fewer of."""
        key = (stack, stash)
        like = self._like.get(key)
        if like is None:
            pieces = self._stash_pieces.get(stash)
            if pieces is None:
                pieces = self._stash_pieces[stash] = Counter(_PIECE_OF[ch] for ch in stash)
            guess = _predict_pass(_pieces(stack), pieces)
            like = self._like[key] = () if not guess else tuple(
                st for st in self.by_len.get(len(guess), ()) if _like(guess, _pieces(st)))
        return any(self.target[st] > field[st] for st in like)

    def distance(self, s: BottomsUpState, view: _Look) -> int:
        """Best-first order (a guess, not a bound): the table's stacks still
        missing, the field's stacks the table does not have (each needs a
        piece to land on it or to leave it), plus the pieces still to change,
        destroy or create. A queued stack (a piece landed on it, BU-9) counts
        as the table's when the guess at its pass (``wanted``) can be."""
        got, pcs = view.stacks, view.chars
        matched = sum((got & self.target).values())
        left = got - self.target
        for gid in set(s.queue):
            st = view.codes.get(gid)
            if st is not None and left[st] and self.wanted(st, view.stash, got):
                left[st] -= 1
                matched += 1
        need = self.tgt.need
        return (self.total_stacks - matched) + (len(s.groups) - matched) + sum(((pcs - need) + (need - pcs)).values())

    def final(self, s: BottomsUpState, path: tuple[str, ...]) -> bool:
        """Score a finished cascade; ``True`` when it is the table's field."""
        got = Counter(_code(g.pieces) for g in s.groups)
        if got == self.target:
            self.best = (None, path, s)
            return True
        # the nearest: the fewest stacks that differ, the field's and the table's counted
        # alike (a stack the rules destroyed is one difference, not one plus a stray one)
        score = 2 * sum((got & self.target).values()) - sum(got.values()) - self.total_stacks
        if self.best is None or (score, -len(path)) > (self.best[0], -len(self.best[1])):
            self.best = (score, path, s)  # the nearest, then the fewest choices
        return False

    def result(self, reachable: bool, complete: bool, reason: str | None = None,
               timed_out: bool = False) -> CheckResult:
        if not reachable:
            # the legal result shown: the nearest found, or the one where every yellow
            # goes to open space (BU-9) when that is as near with fewer choices (an
            # option the search proved hopeless is never applied, so it may not have
            # seen that one)
            end, more = _finish_any(self.start)
            if self.final(end, more):
                reachable = complete = True
        assert self.best is not None
        _, path, res = self.best
        gap = None if reachable else first_gap(res, self.want)
        return CheckResult(reachable, path, res, None if gap is None else str(gap), self.explored, complete,
                           len(path) if reachable else self.depth, reason, gap,
                           timed_out and not (reachable and complete))

    # ------------------------------------------------------------ the two phases

    def run(self) -> CheckResult:
        start = self.start
        if start.pending is None:
            return self.result(self.final(start, ()), True)
        reason = self.tgt.why_not(start)
        if reason:
            return self.result(False, True, reason)
        self.seen.add(canonical_key(start))
        try:
            level = self.breadth_first([(start, (), _Look(start), 0)], self.max_positions // BFS_SHARE)
            if level:
                self.best_first(level)
            return self.result(False, not self.cut)
        except _Found:
            return self.result(True, True)
        except (_OutOfBudget, RecursionError):
            return self.result(False, False)
        except _OutOfTime:
            return self.result(False, False, timed_out=True)

    def breadth_first(self, level: list, until: int) -> list:
        """One choice more at each level (the fewest choices first) until
        ``until`` positions are explored; the open positions left."""
        while level and self.depth < self.max_choices:
            nxt: list = []
            for k, (s, path, view, cost) in enumerate(level):
                if self.explored >= until:  # mid-level: the rest of it and what it gave stay open
                    return level[k:] + nxt
                for rank, (score, m) in enumerate(self.options(s, view)):
                    child = self.step(s, path, m)
                    if child is not None:
                        nxt.append(child + (cost + _step_cost(score, rank),))
            level = nxt
            self.depth += 1
        return level

    def best_first(self, level: list) -> None:
        """From the open positions, the option nearest to the table's field
        first: a heap of (position, its next option), an option applied only
        when it comes first, so a position's far options cost nothing until
        its near ones are tried. Priority: the path's cost (``_step_cost`` of
        each choice on it) plus the position's ``distance``; deeper first on
        a tie."""
        heap: list = []
        count = 0

        def push(s: BottomsUpState, path: tuple[str, ...], opts: list, k: int, dist: int, cost: int) -> None:
            nonlocal count
            if k < len(opts):
                count += 1
                mine = cost + _step_cost(opts[k][0], k)
                heapq.heappush(heap, (mine + dist, -len(path), count, s, path, opts, k, dist, cost))

        for n, (s, path, view, cost) in enumerate(level):
            if not n % CLOCK_EVERY and self.clock() > self.deadline:
                raise _OutOfTime
            push(s, path, self.options(s, view), 0, self.distance(s, view), cost)
        while heap:
            _, _, _, s, path, opts, k, dist, cost = heapq.heappop(heap)
            push(s, path, opts, k + 1, dist, cost)
            child = self.step(s, path, opts[k][1])
            if child is not None:
                c, cpath, view = child
                push(c, cpath, self.options(c, view), 0, self.distance(c, view), cost + _step_cost(opts[k][0], k))


def _step_cost(score: int, rank: int) -> int:
    """What one choice adds to a path's cost (the best-first priority): its
    ``order`` score three times, plus its rank among its position's options,
    at most 2 (a limited-discrepancy order: a path that follows the order is
    tried before one that often leaves it). Three rather than two: on the
    bench's claims (bench/bu_check.py) it finds a few more reachable fields
    within the budget and loses none."""
    return 3 * score + min(rank, 2)


def _check(state: BottomsUpState, placement: Place | str | None,
           table: Iterable[Any] | Mapping[str, Any], time_limit: float, max_choices: int,
           max_positions: int, clock: Callable[[], float] = time.perf_counter) -> CheckResult:
    want = parse_table(table)
    if placement is not None:
        move = parse_bu_move(placement) if isinstance(placement, str) else placement
        if not isinstance(move, Place):
            raise IllegalMoveError(f"check mode starts from a placement, not {move}")
        start = state.apply(move)
    else:
        if state.phase not in (Phase.PLAY, Phase.OPENING):
            raise IllegalMoveError("check mode needs a position in play")
        start = state
    # freeing the positions seen takes a few hundredths of a second: stop early enough
    deadline = clock() + 0.92 * time_limit
    return _Search(start, want, max_choices, max_positions, deadline, clock).run()


def _finish_any(s: BottomsUpState) -> tuple[BottomsUpState, tuple[str, ...]]:
    """Some legal result and its choices: a yellow goes to open space (that
    ends a cascade, BU-9), a blue takes its first option."""
    path = []
    while s.pending is not None:
        opts = s.pending.options
        m = next((o for o in opts if isinstance(o, YellowChoice) and o.target is None), opts[0])
        path.append(str(m))
        s = s.apply(m)
    return s, tuple(path)
