"""A second, independent Undercut referee (full-table level) written from the
rules text and rulings U-3..U-13 with plain Counters, compared with the engine
move by move on seeded random games: same scores, combo values, hands, bag,
stacks, bids, start player, phase, player to act and winners; and the same
answer (legal or refused) for probe moves, legal and illegal. Also run from
positions where the bag is nearly empty (U-7 short stacks, U-11 empty-bag pass)."""
from __future__ import annotations

import copy
import random
from collections import Counter

import pytest

from companion.engine import pick_chance
from companion.errors import InvalidMoveError
from companion.games import spec
from companion.games.undercut import position
from companion.games.undercut_moves import find_combos
from companion.pieces import Bag

PIPS = {"S": 1, "M": 2, "L": 3}
MIXES = ("LL", "LMS", "LSSS", "MMM", "MMSS", "MSSSS", "SSSSSS")


class Illegal(Exception):
    pass


def has_combo(hand: Counter) -> bool:
    h = +hand
    if any(n >= 3 for n in h.values()):                                           # TRIPLETS
        return True
    if any(h[c + "L"] and h[c + "M"] and h[c + "S"] for c in {p[0] for p in h}):  # TREE
        return True
    return any(len({p[0] for p in h if p[1] == s}) >= 4 for s in "SML")          # FOURSOME


def combo_ok(name, ps):
    if name == "tree":
        return len(ps) == 3 and len({p[0] for p in ps}) == 1 and sorted(p[1] for p in ps) == ["L", "M", "S"]
    if name == "triplets":
        return len(ps) == 3 and len(set(ps)) == 1
    return len(ps) == 4 and len({p[1] for p in ps}) == 1 and len({p[0] for p in ps}) == 4


def value(ps):
    return (sum(PIPS[p[1]] for p in ps), len(ps))


class Model:
    def __init__(self, n, start):
        self.n, self.start = n, start
        self.scores = [0] * n
        self.values = {"tree": 2, "triplets": 2, "foursome": 2}
        self.bag = Counter({c + s: 5 for c in "rygbk" for s in "SML"})
        self.hands = [Counter() for _ in range(n)]
        self.stacks, self.bids = [], []
        self.end, self.phase, self.i, self.active = False, "setup", 0, start
        self.pending, self.target, self.round, self.winners, self.slot = [], None, 1, None, 0

    def seat(self, i):
        return (self.start + i) % self.n

    def size_left(self, s):
        return sum(k for p, k in self.bag.items() if p[1] == s)

    def held(self, seat, ps):
        return all(self.hands[seat][p] >= k for p, k in Counter(ps).items())

    def apply(self, text):
        w = text.split()
        if self.phase == "over":
            raise Illegal
        if w[0] == "got":
            return self.got(w[1])
        if self.pending:
            raise Illegal
        if w[0] == "take" and self.phase == "setup":
            mix = "".join(sorted(w[1], key="LMS".index))
            if mix not in MIXES or any(mix.count(s) > self.size_left(s) for s in "LMS"):
                raise Illegal
            self.pending, self.target = list(mix), ("hand", self.active)
        elif w[0] in self.values and self.phase == "scoring":
            if not combo_ok(w[0], w[1:]) or not self.held(self.active, w[1:]):
                raise Illegal
            for p in w[1:]:
                self.hands[self.active][p] -= 1
                self.bag[p] += 1
            self.score(self.active, self.values[w[0]])
            self.values[w[0]] += 1
            self.settle()
        elif w[0] == "bid" and self.phase == "bidding":
            k, ps = "ABCD".index(w[1]), w[2:]
            if k >= len(self.stacks) or not self.held(self.active, ps):
                raise Illegal
            old = self.bids[k]
            if old and not value(ps) < value(old[1]):
                raise Illegal
            for p in ps:
                self.hands[self.active][p] -= 1
            if old:
                for p in old[1]:
                    self.hands[old[0]][p] += 1
            self.bids[k] = (self.active, ps)
            on_table = {b[0] for b in self.bids if b}
            self.active = next(c for c in ((self.active + j) % self.n for j in range(1, self.n + 1))
                               if c not in on_table)
        elif w[0] == "pass" and self.phase == "bidding":
            size = w[1] if len(w) > 1 else None
            if any(b is None for b in self.bids) or (size is None and +self.bag) \
                    or (size is not None and (size not in PIPS or not self.size_left(size))):
                raise Illegal
            self.score(self.active, 1)
            self.start = self.active
            if size is None:
                self.resolve()
            else:
                self.phase, self.pending, self.target = "pass", [size], ("pass", self.active)
        else:
            raise Illegal

    def got(self, p):
        if not self.pending or p[1] != self.pending[0] or self.bag[p] <= 0:
            raise Illegal
        self.bag[p] -= 1
        self.pending.pop(0)
        kind, idx = self.target
        if kind == "hand":
            self.hands[idx][p] += 1
            if not self.pending:
                self.i += 1
                if self.i == self.n:
                    self.begin_scoring()
                else:
                    self.active = self.seat(self.i)
        elif kind == "stack":
            if len(self.stacks) <= idx:
                self.stacks.append([])
            self.stacks[idx].append(p)
            self.slot += 1
            self.next_stack()
        else:
            self.hands[idx][p] += 1
            self.resolve()

    def score(self, seat, pts):
        self.scores[seat] += pts
        self.end = self.end or self.scores[seat] >= 10

    def begin_scoring(self):
        self.phase, self.i = "scoring", 0
        self.settle()

    def settle(self):
        while self.i < self.n and not has_combo(self.hands[self.seat(self.i)]):
            self.i += 1
        if self.i < self.n:
            self.active = self.seat(self.i)
        elif self.end:
            self.finish()
        else:
            self.phase, self.stacks, self.slot = "stacks", [], 0
            self.next_stack()

    def next_stack(self):
        while self.slot < 3 * (self.n - 1) and +self.bag:
            size = "LMS"[self.slot % 3]
            if self.size_left(size):
                self.pending, self.target = [size], ("stack", self.slot // 3)
                return
            self.slot += 1
        self.phase, self.bids, self.active = "bidding", [None] * len(self.stacks), self.start

    def resolve(self):
        for st, (seat, ps) in zip(self.stacks, self.bids):
            self.hands[seat].update(st)
            self.bag.update(ps)
        self.stacks, self.bids, self.round = [], [], self.round + 1
        self.begin_scoring()

    def finish(self):
        self.phase = "over"
        t = [i for i in range(self.n) if self.scores[i] == min(self.scores)]
        for key in (lambda i: sum(PIPS[p[1]] * k for p, k in self.hands[i].items()),
                    lambda i: sum(self.hands[i].values())):
            best = min(key(i) for i in t)
            t = [i for i in t if key(i) == best]
        self.winners = t

    def snapshot(self):
        shown = self.phase in ("bidding", "pass")
        return dict(scores=self.scores, values=self.values, bag=+self.bag, hands=[+h for h in self.hands],
                    phase=self.phase, start=self.start, round=self.round, end=self.end, winners=self.winners,
                    active=-1 if self.pending else -2 if self.phase == "over" else self.active,
                    stacks=[sorted(s) for s in self.stacks],
                    bids=[(b[0], sorted(b[1])) if b else None for b in self.bids] if shown
                    else [None] * len(self.stacks))


def engine_snapshot(s):
    j = s.to_json()
    return dict(scores=j["scores"], values={k.lower(): v for k, v in j["combo_values"].items()},
                bag=Counter(j["bag"]), hands=[Counter(h) for h in j["hands"]], phase=j["phase"],
                start=j["start_player"], round=j["round"], end=j["end_triggered"], winners=j["winners"],
                active=j["active_player"], stacks=[sorted(st["pieces"]) for st in j["stacks"]],
                bids=[(st["bid"]["seat"], sorted(st["bid"]["pieces"])) if st["bid"] else None
                      for st in j["stacks"]])


def probes(m, rng):
    out = [f"take {rng.choice(MIXES)}", "take LLL", "pass", "pass S", "pass M", "pass L", "done",
           "got rL", "got kS", "got yM"]
    if m.phase in ("scoring", "bidding") and not m.pending:
        hand = sorted((+m.hands[m.active]).elements())
        for _ in range(6):
            k = rng.choice((3, 4))
            if len(hand) >= k:
                out.append(f"{rng.choice(('tree', 'triplets', 'foursome'))} {' '.join(rng.sample(hand, k))}")
            sub = [p for p in hand if rng.random() < 0.3]
            out.append(" ".join(["bid", "ABCD"[rng.randrange(min(4, len(m.stacks) + 1))], *sub]))
    return rng.sample(out, 8)


def run(s, m, rng, pass_rate):
    for _ in range(4000):
        assert engine_snapshot(s) == m.snapshot()
        if s.is_terminal():
            return
        for text in probes(m, rng):
            try:
                move = s.parse_move(text)
            except InvalidMoveError:
                continue
            trial = copy.deepcopy(m)
            try:
                trial.apply(text)
                model_ok = True
            except Illegal:
                model_ok = False
            assert s.is_legal(move) == model_ok, text
        if s.is_chance_node():
            text = str(pick_chance(s, rng))
        else:
            moves = sorted(str(x) for x in s.legal_moves())
            passes = [x for x in moves if x.startswith("pass")]
            others = [x for x in moves if not x.startswith("pass")]
            text = rng.choice(passes) if passes and (rng.random() < pass_rate or not others) else rng.choice(others)
        s = s.apply_text(text)
        m.apply(text)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seed", range(6))
def test_engine_agrees_with_the_model_from_setup(seed):
    rng = random.Random(seed)
    n, start = 3 + seed % 3, rng.randrange(3)
    s = spec("undercut").new({"players": [f"P{i}" for i in range(n)], "start": start})
    run(s, Model(n, start), rng, pass_rate=(0.1, 0.4, 0.7)[seed % 3])


@pytest.mark.parametrize("seed", range(6))
def test_engine_agrees_with_the_model_with_a_nearly_empty_bag(seed):
    """Hands hold as much as they can without a combo; the bag keeps 0..8 pieces."""
    rng = random.Random(100 + seed)
    n = 3 + seed % 3
    pieces = [c + s for c in "rygbk" for s in "SML" for _ in range(5)]
    rng.shuffle(pieces)
    hands = [Counter() for _ in range(n)]
    for p in pieces:
        for i in rng.sample(range(n), n):
            trial = hands[i] + Counter([p])
            if not find_combos(Bag.parse(" ".join(trial.elements()))):
                hands[i] = trial
                break
    out = [(i, p) for i in range(n) for p in hands[i].elements()]
    rng.shuffle(out)
    while 75 - len(out) < seed + 3 * (seed % 2):
        i, p = out.pop()
        hands[i][p] -= 1
    start = rng.randrange(n)
    scores = [rng.randrange(9) for _ in range(n)]
    s = position({"players": [f"P{i}" for i in range(n)], "start": start},
                 [" ".join(h.elements()) or "-" for h in hands], scores=scores)
    m = Model(n, start)
    m.bag = Counter(s.to_json()["bag"])
    m.hands = [+h for h in hands]
    m.scores = list(scores)
    m.begin_scoring()
    run(s, m, rng, pass_rate=0.5)
