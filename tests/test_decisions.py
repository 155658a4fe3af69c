"""``State.decision()``: who acts, an Enum kind and the options as
Move values with labels (and probabilities at a chance point), for every
position of random games of the three games and the tools."""
from __future__ import annotations

import doctest
import enum
import random
from fractions import Fraction

import pytest

from companion import engine
from companion.engine import CHANCE, TERMINAL, Decision, pick_chance
from companion.games import spec
from companion.games.bag_of_ice import Broken
from companion.games.bag_of_ice import Phase as BoiPhase

SETUPS = [
    ("bag_of_ice", {"players": ["Ann", "Bob", "Cat"], "target": 30}),
    ("bag_of_ice", {"players": ["Ann", "Bob"], "target": 20, "die": "physical", "bag": "physical"}),
    ("undercut", {"players": ["Ann", "Bob", "Cat"], "level": "full"}),
    ("undercut", {"players": ["Ann", "Bob", "Cat", "Dan"], "level": "score"}),
    ("bottoms_up", {"players": ["Ann", "Bob", "Cat", "Dan"], "stash": 1}),
    ("bottoms_up", {"players": ["Ann", "Bob"], "stash": 1, "secret": "physical"}),
    ("die", {}), ("bag", {"preset": "bag_of_ice"}), ("pick", {"players": 4}),
]


def test_the_engine_docstring_examples():
    """One decision() example per game, in companion/engine.py."""
    result = doctest.testmod(engine)
    assert result.attempted >= 12 and result.failed == 0


def check_decision(st) -> Decision:
    d = st.decision()
    assert isinstance(d, Decision) and isinstance(d.kind, enum.Enum)
    assert d.who == st.current_player
    if d.is_over:
        assert st.is_terminal() and d.options == ()
        return d
    moves = list(d.moves)
    if d.is_chance:
        outcomes = st.chance_outcomes()
        assert moves[:len(outcomes)] == [m for m, _ in outcomes]
        probs = [o.probability for o in d.options[:len(outcomes)]]
        assert sum(probs) == 1 and all(isinstance(p, Fraction) and p > 0 for p in probs)
        extra = d.options[len(outcomes):]
    else:
        legal = st.legal_moves()
        assert moves[:len(legal)] == list(legal)
        assert all(o.probability is None for o in d.options)
        extra = d.options[len(legal):]
    for o in d.options:
        assert o.label and o.label.strip() == o.label
        assert st.parse_move(str(o.move)) == o.move  # a real move, text round-trips
        st.apply(o.move)  # every option is legal here
    for o in extra:  # only Bag of Ice's broken rule (B-8) is an extra entry
        assert isinstance(o.move, Broken) and o.probability is None
    return d


@pytest.mark.parametrize("game,setup", SETUPS, ids=[f"{g}-{i}" for i, (g, _) in enumerate(SETUPS)])
def test_every_position_of_random_games(game, setup):
    rng = random.Random(7)
    for _ in range(3):
        st = spec(game).new(setup)
        kinds = set()
        for _ in range(400):
            d = check_decision(st)
            kinds.add(d.kind)
            if d.is_over:
                break
            if d.is_chance:
                m = pick_chance(st, rng)
            else:
                real = [o.move for o in d.options if not isinstance(o.move, Broken)]
                m = rng.choice(real or list(d.moves))
            st = st.apply(m)
        assert len(kinds) >= 2


def test_kinds_are_enums_so_a_typo_fails():
    st = spec("bag_of_ice").new({"players": ["Ann", "Bob"]})
    assert st.decision().kind is BoiPhase.DECIDE
    with pytest.raises(AttributeError):
        BoiPhase.DECDE  # noqa: B018 - a typo is an error, not a silent False
    assert st.phase == "decide"  # the record's word is unchanged (StrEnum)


def test_who_is_a_seat_chance_or_terminal():
    st = spec("undercut").new({"players": ["Ann", "Bob", "Cat"], "level": "full", "start": "random"})
    d = st.decision()
    assert d.who == CHANCE and d.kind.name == "START" and [o.label for o in d.options] == ["Ann", "Bob", "Cat"]
    assert TERMINAL not in (d.who,)
