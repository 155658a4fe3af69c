"""Bottoms Up against an independent reference referee.

``Ref`` below is a second, deliberately plain implementation of rulings
BU-4..BU-11, written from RULINGS.md and not from the engine: pieces are
objects whose identity is the "noted piece" of BU-7 (a replacement changes
the object's color or size in place, so it keeps its place and counts as
visited), groups are lists, a recalculation is a generator that yields each
choice BU-8 gives the active player (BU-13) and receives the answer. Random
games (random placements and random choices) are played on both at once; at
every step the options offered, the field with its labels, the stash, the
destroyed pieces, the player to act and finally the scores must be equal.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.engine import pick_chance
from companion.games.bottoms_up import new_game

COLORS = "rbgywk"          # BU-1, the order the device lists blue options in
SIZES = "SML"
POINTS = {"S": 1, "M": 2, "L": 3}  # BU-11


def label(n: int) -> str:
    s, n = "", n + 1
    while n:
        n, r = divmod(n - 1, 26)
        s = chr(65 + r) + s
    return s


def label_key(lab: str):
    return (len(lab), lab)


class P:
    """A piece on the field; its identity survives replacements (BU-7)."""

    def __init__(self, color: str, size: str):
        self.color, self.size = color, size

    def __str__(self) -> str:
        return self.color + self.size


class G:
    """A group (lone piece or stack) with a stable label."""

    def __init__(self, lab: str, pieces: list[P]):
        self.label, self.pieces = lab, pieces


class Ref:
    def __init__(self, n: int, per: int, lone: bool):
        self.n, self.lone = n, lone
        self.stash = Counter({c + z: per for c in COLORS for z in SIZES})
        self.destroyed: Counter = Counter()
        self.groups: list[G] = []
        self.turn_gen = None
        self.pending = None  # (kind, options)
        self.active = 0
        self.opening = True
        self.over = False

    # --- field helpers
    def new_group(self, p: P) -> G:
        used = {g.label for g in self.groups}
        i = 0
        while label(i) in used:
            i += 1
        g = G(label(i), [p])
        self.groups.append(g)
        return g

    def take(self, name: str) -> None:
        assert self.stash[name] > 0, name
        self.stash[name] -= 1

    def give(self, name: str) -> None:
        self.stash[name] += 1

    def leave(self, g: G, p: P) -> None:
        """p leaves its group; the pieces above drop; an empty group is gone."""
        g.pieces.remove(p)
        if not g.pieces:
            self.groups.remove(g)

    # --- BU-8 effects
    def effect(self, color: str, p: P, g: G):
        if color == "r":  # shrink
            smaller = {"L": "MS", "M": "S", "S": ""}[p.size]
            for z in smaller:
                if self.stash[p.color + z]:
                    self.give(str(p))
                    self.take(p.color + z)
                    p.size = z
                    return
            self.leave(g, p)
            self.destroyed[str(p)] += 1
        elif color == "g":  # grow
            if p.size == "L":
                if self.stash[p.color + "S"]:
                    self.take(p.color + "S")
                    self.new_group(P(p.color, "S"))
                return
            z = {"S": "M", "M": "L"}[p.size]
            if self.stash[p.color + z]:
                self.give(str(p))
                self.take(p.color + z)
                p.size = z
        elif color == "b":  # recolor
            opts = [f"blue {c}" for c in COLORS if c != p.color and self.stash[c + p.size]]
            if not opts:
                return
            answer = yield opts
            c = answer.split()[1]
            self.give(str(p))
            self.take(c + p.size)
            p.color = c
        elif color == "y":  # move
            others = sorted((x.label for x in self.groups if x is not g), key=label_key)
            opts = [f"yellow {x}" for x in others] + ["yellow open"]
            answer = yield opts
            dest = answer.split()[1]
            target = None if dest == "open" else next(x for x in self.groups if x.label == dest)
            self.leave(g, p)
            if target is None:
                self.new_group(p)
            else:
                target.pieces.append(p)
                self.queue.append(target)
        else:
            raise AssertionError(color)

    # --- BU-7 pass, BU-9 queue
    def recalc(self, g: G):
        noted = list(g.pieces)
        for low in noted:
            if g not in self.groups or not any(x is low for x in g.pieces):
                continue
            i = next(k for k, x in enumerate(g.pieces) if x is low)
            if i == len(g.pieces) - 1:
                continue
            up = g.pieces[i + 1]
            if low.color == "k" or up.color == "k":
                continue
            if low.color == "w" and up.color == "w":
                continue
            if up.color == "w":
                yield from self.effect(low.color, low, g)
            elif low.color == "w":
                yield from self.effect(up.color, low, g)
                yield from self.effect(up.color, up, g)
            else:
                yield from self.effect(up.color, low, g)

    def turn(self, piece: str, dest: str | None):
        self.take(piece)
        p = P(piece[0], piece[1])
        if dest is None:
            self.new_group(p)
            return
        g = next(x for x in self.groups if x.label == dest)
        g.pieces.append(p)
        self.queue = []
        yield from self.recalc(g)
        while self.queue:
            q = self.queue.pop(0)
            if q in self.groups:
                yield from self.recalc(q)

    # --- driving
    def play(self, move: str) -> None:
        w = move.split()
        if self.pending is not None:
            assert move in self.pending, (move, self.pending)
            self._step(move)
            return
        assert w[0] == "place"
        self.turn_gen = self.turn(w[1], w[3] if len(w) == 4 else None)
        self._step(None)

    def _step(self, answer) -> None:
        gen = self.turn_gen
        try:
            self.pending = gen.send(answer) if answer is not None else next(gen)
        except StopIteration:
            self.pending = None
            self.turn_gen = None
            if self.opening and self.active == self.n - 1:
                self.opening = False
                self.active = 0
            else:
                self.active = (self.active + 1) % self.n
            if sum(self.stash.values()) == 0:  # BU-10
                self.over = True

    def options(self) -> list[str]:
        if self.pending is not None:
            return list(self.pending)
        pieces = [c + z for c in COLORS for z in SIZES if self.stash[c + z]]
        if self.opening:
            return [f"place {c}S" for c in COLORS if self.stash[c + "S"]]
        if not self.groups:
            return [f"place {p}" for p in pieces]
        labels = sorted((g.label for g in self.groups), key=label_key)
        return [f"place {p} on {x}" for p in pieces for x in labels]

    def field(self) -> list[str]:
        return [f"{g.label}: " + " ".join(map(str, g.pieces))
                for g in sorted(self.groups, key=lambda g: label_key(g.label))]

    def scores(self, secrets: list[str]) -> list[int]:
        out = [0] * self.n
        for g in self.groups:
            if len(g.pieces) < 2 and not self.lone:
                continue
            top = g.pieces[-1]
            if top.color in secrets:
                out[secrets.index(top.color)] += POINTS[top.size]
        return out


def census(counter) -> dict[str, int]:
    return {k: v for k, v in counter.items() if v}


@pytest.mark.parametrize("seed", range(40))
def test_engine_agrees_with_the_reference_referee(seed):
    rng = random.Random(seed)
    n = rng.choice([2, 3, 4, 5, 6])
    per = rng.choice([1, 1, 2, 3])
    lone = rng.random() < 0.3
    s = new_game({"players": [f"p{i}" for i in range(n)], "stash": per, "lone_pieces_count": lone})
    while s.is_chance_node():
        s = s.apply(pick_chance(s, rng))
    ref = Ref(n, per, lone)
    choices = 0
    for _ in range(5000):
        assert s.is_terminal() == ref.over
        if s.is_terminal():
            break
        engine_opts = [str(m) for m in s.legal_moves()]
        assert engine_opts == ref.options()
        assert s.current_player == ref.active
        move = rng.choice(engine_opts)
        if s.pending is not None:
            choices += 1
            if choices > 8 and s.pending.kind == "yellow":
                move = "yellow open"  # end long cascades (BU-9)
        else:
            choices = 0
        s = s.apply_text(move)
        ref.play(move)
        assert s.field_lines() == ref.field(), move
        assert census(s.stash.to_json()) == census(ref.stash)
        assert census(s.destroyed.to_json()) == census(ref.destroyed)
    assert s.is_terminal() and ref.over
    secrets = [c.letter for c in s.secrets]
    assert list(s.scores()) == ref.scores(secrets)
    best = max(ref.scores(secrets))
    assert list(s.outcome().winners) == [i for i, v in enumerate(ref.scores(secrets)) if v == best]
