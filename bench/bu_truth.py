"""Bottoms Up check mode: ground truth by exhaustive enumeration (issue 15).

    .venv/bin/python -m bench.bu_truth --quick        # the quick set's unfinished claims
    .venv/bin/python -m bench.bu_truth --full         # the full set's
    .venv/bin/python -m bench.bu_truth --validate     # against the engine only
    (--cap=N: states per placement before "too large", default CAP)

An independent re-implementation of one placement's cascade (BU-7, BU-8,
BU-9 as ``companion/games/bottoms_up.py`` runs them, BU-7 as amended on
2026-11-23: a replacement keeps its place in the noted order), on a compact
state of its own, much faster than the engine's immutable states:

* a piece is one character (``_CH``: color index in ``COLORS`` times three
  plus size), a group a string of them, bottom to top;
* the pass cursor: the group being recalculated, the positions (in that
  group, now) of the noted pieces still to visit (-1: the piece left), the
  stage (1: BU-8 item 5's second half pending) and the upper piece's position;
* the queue of groups (BU-9), the pending choice (kind, group, position),
  the stash as 18 counts.

States are merged on a canonical form (groups sorted by their contents and
roles: being recalculated, holding the pending piece, places in the queue;
two groups with equal signatures are interchangeable). ``enumerate_finals``
lists every final field (a sorted tuple of stack strings) the cascade can end
with, with a parent pointer per state so that a choice sequence can be
rebuilt (``path_to``) and replayed on the real engine (``replay``).

``validate`` plays random games on the engine and checks, at every choice of
every cascade, that every option's successor here equals the engine's
successor read into this form (``from_engine``): the two implementations
agree step by step.

No cut, no guess: a field is "unreachable" only when the whole reachable set
was enumerated (up to ``CAP`` states), else "too large".
"""
from __future__ import annotations

import heapq
import pickle
import random
import sys
import time
from collections import Counter, deque

from companion.games.bottoms_up import COLORS, BlueChoice, Phase, YellowChoice, new_game
from companion.pieces import Piece, Size

CAP = 3_000_000
"""States per placement before giving up ("too large")."""

_CI = {c: i for i, c in enumerate(COLORS)}
R, B, G, Y, W, K = range(6)  # color indices, in the order of COLORS (r b g y w k)


def _CH(p: Piece) -> str:
    return chr(97 + 3 * _CI[p.color] + int(p.size) - 1)


def col(ch: str) -> int:
    return (ord(ch) - 97) // 3


def size(ch: str) -> int:
    return (ord(ch) - 97) % 3 + 1  # 1 small, 2 medium, 3 large


def mk(c: int, z: int) -> str:
    return chr(97 + 3 * c + z - 1)


def idx(ch: str) -> int:
    return ord(ch) - 97


def to_piece(ch: str) -> Piece:
    return Piece(COLORS[col(ch)], Size(size(ch)))


# ------------------------------------------------------------------ the state
#
# canonical state: (codes, cur, rem, stage, u, queue, pend, stash)
#   codes: tuple of group strings (sorted by signature)
#   cur: index of the group being recalculated, or -1 (no pass running)
#   rem: positions in that group of the noted pieces still to visit (-1: gone)
#   stage, u: BU-8 item 5 second half pending (stage 1) for the piece at u
#   queue: group indices (a queued group that no longer exists is dropped:
#          the engine skips it)
#   pend: (kind "b"/"y", group, position) or None
#   stash: 18 counts


def canon(groups: list, cur: int, rem: list, stage: int, u: int, queue: list, pend, stash: list) -> tuple:
    live = [k for k, g in enumerate(groups) if g]
    qpos: dict[int, list] = {}
    n = 0
    for q in queue:
        if groups[q]:
            qpos.setdefault(q, []).append(n)
            n += 1
    pg = pend[1] if pend else -1
    sig = sorted(((groups[k], k == cur, k == pg, tuple(qpos.get(k, ()))), k) for k in live)
    new = {k: j for j, (_, k) in enumerate(sig)}
    codes = tuple(s[0] for s, _ in sig)
    q2 = tuple(new[q] for q in queue if groups[q])
    c2 = new.get(cur, -1) if cur >= 0 else -1
    if c2 < 0:
        rem, stage, u = (), 0, -1
    p2 = (pend[0], new[pend[1]], pend[2]) if pend else None
    return (codes, c2, tuple(rem), stage, u, q2, p2, tuple(stash))


class Work:
    """A state being stepped (mutable), the engine's ``_Work`` in small."""

    __slots__ = ("groups", "cur", "rem", "stage", "u", "queue", "pend", "stash")

    def __init__(self, st: tuple):
        codes, cur, rem, stage, u, queue, pend, stash = st
        self.groups = [list(c) for c in codes]
        self.cur, self.rem, self.stage, self.u = cur, list(rem), stage, u
        self.queue = list(queue)
        self.pend = pend
        self.stash = list(stash)

    def key(self) -> tuple:
        return canon(["".join(g) for g in self.groups], self.cur, self.rem, self.stage, self.u,
                     self.queue, self.pend, self.stash)

    def field(self) -> tuple:
        return tuple(sorted("".join(g) for g in self.groups if g))

    # --- pieces leave the group being recalculated: the noted positions follow
    def remove(self, g: int, i: int) -> str:
        grp = self.groups[g]
        p = grp.pop(i)
        if g == self.cur:
            self.rem = [-1 if x == i else (x - 1 if x > i else x) for x in self.rem]
            if self.u == i:
                self.u = -1
            elif self.u > i:
                self.u -= 1
        return p

    def options(self) -> list:
        """The pending choice's options, in the engine's order of kinds
        (blue: colors in ``COLORS`` order; yellow: every other group, then open)."""
        kind, g, i = self.pend
        p = self.groups[g][i]
        if kind == "b":
            return [("b", c) for c in range(6) if c != col(p) and self.stash[idx(mk(c, size(p)))]]
        return [("y", k) for k, grp in enumerate(self.groups) if grp and k != g] + [("y", -1)]

    def resolve(self, opt: tuple) -> None:
        kind, g, i = self.pend
        self.pend = None
        if opt[0] == "b":
            p = self.groups[g][i]
            q = mk(opt[1], size(p))
            self.stash[idx(p)] += 1
            self.stash[idx(q)] -= 1
            self.groups[g][i] = q
            return
        p = self.remove(g, i)
        t = opt[1]
        if t < 0:
            self.groups.append([p])
        else:
            self.groups[t].append(p)
            self.queue.append(t)

    def effect(self, c: int, g: int, i: int) -> None:
        grp = self.groups[g]
        p = grp[i]
        pc, pz = col(p), size(p)
        st = self.stash
        if c == R:
            for z in range(pz - 1, 0, -1):
                q = mk(pc, z)
                if st[idx(q)]:
                    st[idx(p)] += 1
                    st[idx(q)] -= 1
                    grp[i] = q
                    return
            self.remove(g, i)  # destroyed for good (BU-6)
        elif c == G:
            if pz == 3:
                q = mk(pc, 1)
                if st[idx(q)]:
                    st[idx(q)] -= 1
                    self.groups.append([q])
                return
            q = mk(pc, pz + 1)
            if st[idx(q)]:
                st[idx(p)] += 1
                st[idx(q)] -= 1
                grp[i] = q
        elif c == B:
            if any(st[idx(mk(k, pz))] for k in range(6) if k != pc):
                self.pend = ("b", g, i)
        elif c == Y:
            self.pend = ("y", g, i)
        else:  # pragma: no cover
            raise AssertionError(c)

    def run(self) -> None:
        """The engine's ``_Work.run``: until a choice is pending or all is done."""
        groups = self.groups
        while self.pend is None:
            if self.cur < 0:
                if not self.queue:
                    return
                g = self.queue.pop(0)
                if not groups[g]:
                    continue
                self.cur, self.rem, self.stage, self.u = g, list(range(len(groups[g]))), 0, -1
                continue
            g = self.cur
            grp = groups[g]
            if self.stage == 1:
                u = self.u
                self.rem.pop(0)
                self.stage, self.u = 0, -1
                if u < 0:  # pragma: no cover - only the lower piece was affected
                    continue
                self.effect(col(grp[u]), g, u)
                continue
            if not self.rem:
                self.cur, self.rem = -1, []
                continue
            i = self.rem[0]
            if i < 0 or not grp or i == len(grp) - 1:
                self.rem.pop(0)
                continue
            lc, uc = col(grp[i]), col(grp[i + 1])
            if lc == K or uc == K or (lc == W and uc == W):
                self.rem.pop(0)
            elif uc == W:  # item 4: reflection
                self.rem.pop(0)
                self.effect(lc, g, i)
            elif lc == W:  # item 5: the lower takes it, then the upper its own
                self.stage, self.u = 1, i + 1
                self.effect(uc, g, i)
            else:
                self.rem.pop(0)
                self.effect(uc, g, i)


def successor(st: tuple, opt: tuple) -> tuple[tuple, tuple | None]:
    """Apply option ``opt`` to canonical state ``st``: (canonical key or
    None when the cascade is over, the final field or None)."""
    w = Work(st)
    w.resolve(opt)
    w.run()
    if w.pend is None:
        return None, w.field()
    return w.key(), None


def options_of(st: tuple) -> list:
    return Work(st).options()


# ------------------------------------------------------------------ the engine, read

def from_engine(s) -> tuple[tuple, dict]:
    """An engine state (a choice pending) in canonical form, and the map from
    canonical group index to the engine's label."""
    gids = [g.gid for g in s.groups]
    at = {gid: k for k, gid in enumerate(gids)}
    groups = ["".join(_CH(p) for p in g.pieces) for g in s.groups]
    cur, rem, stage, u = -1, [], 0, -1
    if s.cursor is not None and s.cursor.gid in at:
        c = s.cursor
        g = s.groups[at[c.gid]]
        pos = {sl: i for i, (sl, _) in enumerate(g.slots)}
        cur = at[c.gid]
        rem = [pos.get(x, -1) for x in c.noted[c.idx:]]
        stage = c.stage
        u = -1 if c.u is None else pos.get(c.u, -1)
    queue = [at[q] for q in s.queue if q in at]
    pend = None
    if s.pending is not None:
        g = s.groups[at[s.pending.gid]]
        i = next(k for k, (sl, _) in enumerate(g.slots) if sl == s.pending.slot)
        pend = ("b" if s.pending.kind == "blue" else "y", at[s.pending.gid], i)
    stash = [0] * 18
    for p, n in s.stash.items():
        stash[idx(_CH(p))] += n
    # canonical order, remembering labels
    live = list(range(len(groups)))
    qpos: dict[int, list] = {}
    for n, q in enumerate(queue):
        qpos.setdefault(q, []).append(n)
    pg = pend[1] if pend else -1
    sig = sorted(((groups[k], k == cur, k == pg, tuple(qpos.get(k, ()))), k) for k in live)
    labels = {j: s.groups[k].label for j, (_, k) in enumerate(sig)}
    return canon(groups, cur, rem, stage, u, queue, pend, stash), labels


def engine_field(s) -> tuple:
    return tuple(sorted("".join(_CH(p) for p in g.pieces) for g in s.groups))


def to_engine_move(st: tuple, labels: dict, opt: tuple):
    if opt[0] == "b":
        return BlueChoice(COLORS[opt[1]])
    return YellowChoice(None if opt[1] < 0 else labels[opt[1]])


# ------------------------------------------------------------------ enumeration

def enumerate_finals(start_key: tuple, cap: int = CAP, want: set | None = None, prune: Prune | None = None):
    """Every final field reachable from ``start_key``: ``(finals, parents,
    complete, states)``. ``finals`` maps a field to (the state before the
    last choice, that choice); ``parents`` maps a state to (its parent, the
    choice). ``want``: stop early once all of these fields are found; the
    states are then taken nearest first (the fewest stacks differing from
    the one wanted field, a guess that only orders: every state is still
    taken, so a complete run is the whole set), else breadth first.
    ``prune``: leave the states that cannot end with its claim (``Prune``)."""
    parents: dict = {start_key: None}
    finals: dict = {}
    left = set(want) if want else None
    goal = Counter(next(iter(want))) if want and len(want) == 1 else None
    heap: list = [(0, 0, start_key)]
    todo = deque([start_key])
    n = 0
    while heap if goal is not None else todo:
        st = heapq.heappop(heap)[2] if goal is not None else todo.popleft()
        w0 = Work(st)
        for opt in w0.options():
            w = Work(st)
            w.resolve(opt)
            w.run()
            if w.pend is None:
                f = w.field()
                if f not in finals:
                    finals[f] = (st, opt)
                    if left is not None:
                        left.discard(f)
                        if not left:
                            return finals, parents, False, len(parents)
                continue
            k = w.key()
            if k not in parents:
                parents[k] = (st, opt)
                if prune is not None and not prune.ok(k):
                    continue
                if goal is not None:
                    got = Counter(c for c in k[0])
                    n += 1
                    heapq.heappush(heap, (sum(((got - goal) + (goal - got)).values()), n, k))
                else:
                    todo.append(k)
                if len(parents) > cap:
                    return finals, parents, False, len(parents)
    return finals, parents, True, len(parents)


class Prune:
    """Two facts of the rules that hold from a state to every end of its
    cascade (so a state failing one cannot end with ``claim``; exact, and
    derived here independently of ``companion.games.bu_check``):

    * supply: a piece in play or in the stash leaves both only when it is
      destroyed, for good (BU-6: a replacement swaps a piece of the field
      with one of the stash, a spawn moves one from the stash to the field);
      so each kind's count on the field plus in the stash never grows, and
      must stay at least the claim's count;
    * blacks: a black piece is never affected (BU-8 item 1), so it never
      moves, changes or leaves its group, and groups never merge (a piece
      moves alone); nothing is ever put under a piece (a move lands on top),
      so the pieces between two blacks of a group (or under the lowest) can
      only become fewer. Each group holding blacks must end as its own stack
      of the claim (a matching) holding those blacks in that order with at
      most that many pieces between them (more blacks may appear: blue can
      recolor a piece black).
    """

    def __init__(self, claim: tuple):
        self.claim = claim
        self.need = Counter("".join(claim))
        self.cache: dict = {}

    def ok(self, key: tuple) -> bool:
        codes, stash = key[0], key[7]
        have = Counter("".join(codes))
        for ch, n in self.need.items():
            if have[ch] + stash[idx(ch)] < n:
                return False
        pats = tuple(sorted(p for p in map(_black_pattern, codes) if p))
        if not pats:
            return True
        r = self.cache.get(pats)
        if r is None:
            r = self.cache[pats] = self._match(pats)
        return r

    def _match(self, pats: tuple) -> bool:
        fits = [[j for j, st in enumerate(self.claim) if _embeds(p, st)] for p in pats]
        owner: dict[int, int] = {}

        def augment(i: int, seen: set) -> bool:
            for j in fits[i]:
                if j not in seen:
                    seen.add(j)
                    if j not in owner or augment(owner[j], seen):
                        owner[j] = i
                        return True
            return False

        return all(augment(i, set()) for i in range(len(pats)))


def _black_pattern(code: str) -> tuple:
    """A group's blacks, each with the count of pieces under it down to the black below."""
    out, lo = [], 0
    for i, ch in enumerate(code):
        if col(ch) == K:
            out.append((i - lo, ch))
            lo = i + 1
    return tuple(out)


def _embeds(pat: tuple, st: str) -> bool:
    def go(k: int, at: int) -> bool:
        if k == len(pat):
            return True
        gap, b = pat[k]
        for e in range(at, min(at + gap, len(st) - 1) + 1):
            if st[e] == b and go(k + 1, e + 1):
                return True
        return False
    return go(0, 0)


def path_to(finals: dict, parents: dict, field: tuple) -> list:
    st, opt = finals[field]
    path = [(st, opt)]
    while parents[st] is not None:
        st, opt = parents[st]
        path.append((st, opt))
    return path[::-1]


def replay(after, path: list):
    """Replay a path of (canonical state, option) on the engine from ``after``;
    the engine's final state and the choice texts."""
    s, texts = after, []
    for st, opt in path:
        key, labels = from_engine(s)
        assert key == st, "the engine and the tool disagree on the way"
        m = to_engine_move(st, labels, opt)
        texts.append(str(m))
        s = s.apply(m)
    assert s.pending is None
    return s, texts


# ------------------------------------------------------------------ validation against the engine

def validate(games: int = 30, seed: int = 1, verbose: bool = True) -> int:
    """Random whole games on the engine; at every pending choice, every
    option's successor computed here must equal the engine's. Returns the
    number of (state, option) pairs compared."""
    rng = random.Random(seed)
    n = 0
    for gno in range(games):
        players = rng.choice([2, 3, 4, 5, 6])
        s = new_game({"players": [f"P{i}" for i in range(players)], "stash": rng.choice([1, 2, 3, 5, 5])})
        while s.phase != Phase.OVER:
            if s.phase == Phase.SECRET:
                s = s.apply(rng.choice([m for m, _ in s.chance_outcomes()]))
                continue
            m = rng.choice(s.legal_moves())
            s = s.apply(m)
            steps = 0
            while s.pending is not None:
                key, labels = from_engine(s)
                mine = options_of(key)
                eng = list(s.pending.options)
                assert sorted(str(to_engine_move(key, labels, o)) for o in mine) == sorted(map(str, eng)), \
                    (s.field_lines(), mine, eng)
                for o in mine:
                    em = to_engine_move(key, labels, o)
                    t = s.apply(em)
                    k2, f2 = successor(key, o)
                    if t.pending is None:
                        assert k2 is None and f2 == engine_field(t), (s.field_lines(), em, f2, t.field_lines())
                    else:
                        assert k2 == from_engine(t)[0], (s.field_lines(), em)
                    n += 1
                steps += 1
                opts = s.pending.options
                mv = opts[-1] if steps > 15 and s.pending.kind == "yellow" else rng.choice(opts)
                s = s.apply(mv)
        if verbose:
            print(f"game {gno}: {n} steps agree so far", flush=True)
    return n


# ------------------------------------------------------------------ classifying the bench's unfinished claims

def classify(quick: bool, cap: int = CAP, only_unfinished: bool = True, out: str | None = None,
             verbose: bool = True) -> list:
    """Every unfinished claim of the bench set (``bench.bu_check.claims``):
    reachable (a path here, replayed on the engine to the claim),
    unreachable (the whole reachable set enumerated) or too large."""
    from bench.bu_check import claims, table_of
    from companion.games.bu_check import check
    rows = []
    todo: list = []  # the claims of one placement, enumerated together
    for name, before, move, after, stt, known in list(claims(quick)) + [(None,) * 6]:
        if todo and (name is None or todo[0][3] is not after):
            rows += _classify_placement(todo, cap, verbose)
            todo = []
            if out:
                with open(out, "wb") as f:
                    pickle.dump(rows, f)
        if name is None:
            break
        if only_unfinished:
            r = check(before, move, table_of(stt))
            if r.complete:
                continue
        todo.append((name, before, move, after, stt, known))
    if verbose:
        print(Counter((r["known"], r["verdict"]) for r in rows))
    return rows


def _classify_placement(todo: list, cap: int, verbose: bool) -> list:
    """Each claim of one placement on its own, with its ``Prune``."""
    from bench.bu_check import stacks_of
    rows = []
    for name, _before, _move, after, stt, known in todo:
        w = tuple(sorted("".join(_CH(p) for p in st) for st in stt))
        t0 = time.perf_counter()
        start = from_engine(after)[0]
        prune = Prune(w)
        if prune.ok(start):
            finals, parents, complete, n = enumerate_finals(start, cap, {w}, prune)
        else:
            finals, parents, complete, n = {}, {}, True, 0
        secs = round(time.perf_counter() - t0, 1)
        texts: list = []
        if w in finals:
            end, texts = replay(after, path_to(finals, parents, w))
            assert stacks_of(end) == stt, "the replay does not give the claim"
            verdict = "reachable"
        elif complete:
            verdict = "unreachable"
        else:
            verdict = "too large"
        row = dict(name=name, known=bool(known), verdict=verdict, states=n, finals=len(finals),
                   choices=" ".join(texts), secs=secs)
        rows.append(row)
        if verbose:
            print(f"{verdict:11s} {'known' if known else 'near '} states={n:8d} finals={len(finals):7d} "
                  f"{secs:6.1f}s {name}" + (f"\n            {len(texts)} choices: {row['choices']}" if texts else ""),
                  flush=True)
    return rows


if __name__ == "__main__":
    if "--validate" in sys.argv:
        print(validate(), "successors agree")
    else:
        cap = next((int(a[6:]) for a in sys.argv if a.startswith("--cap=")), CAP)
        classify("--full" not in sys.argv, cap, out="/tmp/bu_truth_" + ("full" if "--full" in sys.argv else "quick") + ".pkl")
