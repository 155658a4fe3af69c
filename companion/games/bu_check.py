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
names. A search, not a listing: states are memoized on a canonical form
without labels or internal ids (two identical lone pieces are one
destination), branches that cannot supply a target piece any more are cut
(destroyed pieces never come back), and the choices that build a prefix of
a target stack are tried first.
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from ..errors import IllegalMoveError, InvalidMoveError
from ..pieces import Piece
from .bottoms_up import BlueChoice, BottomsUpState, Place, YellowChoice, parse_bu_move

__all__ = ["CheckResult", "check", "parse_table", "canonical_key", "first_difference"]

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
    the search budget ran out before every result was ruled out."""

    reachable: bool
    choices: tuple[str, ...]
    result: BottomsUpState
    difference: str | None
    explored: int
    complete: bool = True
    depth: int = 0

    @property
    def result_field(self) -> list[str]:
        return self.result.field_lines()

    def to_json(self) -> dict[str, Any]:
        return {"reachable": self.reachable, "choices": list(self.choices), "result": self.result_field,
                "difference": self.difference, "explored": self.explored, "complete": self.complete,
                "depth": self.depth}


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
                lab, rest = it.split(":", 1)
                items.append((lab.strip().upper(), rest))
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


def canonical_key(s: BottomsUpState) -> tuple:
    """What decides the rest of a recalculation, without labels or ids:
    group contents with their roles (being recalculated, queued where,
    holding the pending piece), the pass position, the pending piece, the stash."""
    cur = s.cursor.gid if s.cursor else None
    pend = s.pending.gid if s.pending else None
    live = {g.gid for g in s.groups}
    qpos: dict[int, list[int]] = {}
    k = 0
    for q in s.queue:
        if q in live:
            qpos.setdefault(q, []).append(k)
            k += 1
    sigs = sorted((g.pieces, g.gid == cur, g.gid == pend, tuple(qpos.get(g.gid, ()))) for g in s.groups)
    cursor: tuple = ()
    if s.cursor is not None:
        g = s._gid_group(s.cursor.gid)
        pos = {sl: i for i, (sl, _) in enumerate(g.slots)} if g else {}
        c = s.cursor
        cursor = (tuple(pos.get(x, -1) for x in c.noted[c.idx:]), c.stage, pos.get(c.u, -1))
    pending: tuple = ()
    if s.pending is not None:
        g = s._gid_group(s.pending.gid)
        pos = {sl: i for i, (sl, _) in enumerate(g.slots)} if g else {}
        pending = (s.pending.kind, pos.get(s.pending.slot, -1))
    return (tuple(sigs), cursor, pending, tuple(s.stash.items()))


def _field_counter(s: BottomsUpState) -> Counter:
    return Counter(g.pieces for g in s.groups)


def first_difference(s: BottomsUpState, table: Sequence[tuple[str | None, Stack]]) -> str | None:
    """The first difference between the rules' field ``s`` and the table's,
    in label order; ``None`` when they are the same multiset of stacks."""
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
    txt = lambda pcs: " ".join(map(str, pcs))  # noqa: E731
    for g in groups:
        if g.label in matched:
            continue
        cands = [i for i, (lab, _) in enumerate(want) if not used[i] and lab == g.label]
        if not cands:
            def common(pcs: Stack) -> int:
                n = 0
                while n < min(len(pcs), len(g.pieces)) and pcs[n] == g.pieces[n]:
                    n += 1
                return n
            cands = sorted((i for i, (lab, _) in enumerate(want) if not used[i] and common(want[i][1]) > 0),
                           key=lambda i: -common(want[i][1]))
        if cands:
            return f"{g.label}: the rules give {txt(g.pieces)}, the table has {txt(want[cands[0]][1])}"
        return f"{g.label}: the rules give {txt(g.pieces)}, the table has no such stack"
    for i, (lab, pcs) in enumerate(want):
        if not used[i]:
            where = f"{lab}: " if lab else ""
            return f"{where}the table has {txt(pcs)}, which the rules do not give"
    return None


class _OutOfTime(Exception):
    pass


def check(state: BottomsUpState, placement: Place | str | None,
          table: Iterable[Any] | Mapping[str, Any], *, time_limit: float = 0.9,
          max_choices: int = 200) -> CheckResult:
    """Can ``placement`` (a move or its text; ``None`` when ``state`` is
    already at a choice) followed by some legal choices end with the table's
    field? Raises ``IllegalMoveError`` for an illegal placement and
    ``InvalidMoveError`` for an unreadable table.

    Cascades have no length limit (BU-9), so the search deepens on the number
    of choices: every sequence of up to ``depth`` choices is ruled out before
    longer ones are tried. ``complete`` is ``True`` when the search covered
    every sequence (the answer "not reachable" is then exact); ``False`` when
    ``time_limit`` seconds ran out first (then no sequence of up to
    ``CheckResult.depth`` choices reaches the table's field)."""
    want = parse_table(table)
    if placement is not None:
        move = parse_bu_move(placement) if isinstance(placement, str) else placement
        if not isinstance(move, Place):
            raise IllegalMoveError(f"check mode starts from a placement, not {move}")
        start = state.apply(move)
    else:
        if state.phase not in ("play", "opening"):
            raise IllegalMoveError("check mode needs a position in play")
        start = state
    target = Counter(stack for _, stack in want)
    need = Counter(p for _, stack in want for p in stack)
    prefixes: set[Stack] = {stack[:k] for stack in target for k in range(1, len(stack) + 1)}
    total_stacks = sum(target.values())
    deadline = time.perf_counter() + time_limit

    def supply_ok(s: BottomsUpState) -> bool:
        """Destroyed pieces never come back: field + stash must still hold the table's pieces."""
        have = Counter(dict(s.stash.items()))
        for g in s.groups:
            have.update(g.pieces)
        return all(have[p] >= n for p, n in need.items())

    def lower_bound(s: BottomsUpState) -> int:
        """Choices still needed at least: the pending one, and one landing
        (a yellow move onto it) for every settled stack the table lacks."""
        busy = set(s.queue)
        if s.cursor is not None:
            busy.add(s.cursor.gid)
        if s.pending is not None:
            busy.add(s.pending.gid)
        settled = Counter(g.pieces for g in s.groups if g.gid not in busy)
        excess = sum(max(0, n - target[c]) for c, n in settled.items())
        return max(1 if s.pending is not None else 0, excess)

    def order(s: BottomsUpState) -> list:
        pend = s.pending
        assert pend is not None
        g = s._gid_group(pend.gid)
        i = next(k for k, (sl, _) in enumerate(g.slots) if sl == pend.slot)
        p = g.slots[i][1]
        scored = []
        for m in pend.options:
            if isinstance(m, BlueChoice):
                score = 0 if g.pieces[:i] + (Piece(m.color, p.size),) in prefixes else 1
            elif m.target is None:
                score = 0 if (p,) in prefixes else 2
            else:
                d = s.group(m.target)
                score = 0 if (d.pieces + (p,)) in prefixes else 1
            scored.append((score, m))
        scored.sort(key=lambda t: t[0])
        return [m for _, m in scored]

    best: list = [None]  # (score, path, state)
    explored = [0]
    cut = [False]

    def final(s: BottomsUpState, path: tuple[str, ...]) -> bool:
        got = _field_counter(s)
        if got == target:
            best[0] = (None, path, s)
            return True
        score = 2 * sum((got & target).values()) - abs(sum(got.values()) - total_stacks)
        if best[0] is None or score > best[0][0]:
            best[0] = (score, path, s)
        return False

    def dfs(s: BottomsUpState, rem: int, path: tuple[str, ...], memo: dict) -> bool:
        explored[0] += 1
        if not explored[0] & 255 and time.perf_counter() > deadline:
            raise _OutOfTime
        if s.pending is None:
            return final(s, path)
        if lower_bound(s) > rem:
            cut[0] = True
            return False
        key = canonical_key(s)
        if memo.get(key, -1) >= rem:
            return False
        memo[key] = rem
        if not supply_ok(s):
            return False
        for m in order(s):
            if dfs(s.apply(m), rem - 1, path + (str(m),), memo):
                return True
        return False

    depth = 0
    complete = False
    try:
        depth = lower_bound(start)
        while depth <= max_choices:
            cut[0] = False
            if dfs(start, depth, (), {}):
                _, path, res = best[0]
                return CheckResult(True, path, res, None, explored[0], True, depth)
            if not cut[0]:
                complete = True
                break
            depth += 1
    except _OutOfTime:
        depth -= 1
    except RecursionError:  # pragma: no cover - max_choices keeps the depth far below the limit
        depth -= 1
    if best[0] is None:
        end, more = _finish_any(start)
        final(end, more)
    _, path, res = best[0]
    return CheckResult(False, path, res, first_difference(res, want), explored[0], complete, depth)


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
