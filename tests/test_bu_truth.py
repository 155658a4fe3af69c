"""bench/bu_truth.py, the ground-truth tool of check mode: it must agree with the engine."""
from bench.bu_check import exhaustive, stacks_of
from bench.bu_truth import Prune, _CH, enumerate_finals, from_engine, path_to, replay, validate
from companion.games.bottoms_up import position

P4 = {"players": ["Ann", "Bob", "Cat", "Dan"]}


def test_every_step_agrees_with_the_engine():
    assert validate(games=3, seed=2, verbose=False) > 100


def test_finals_are_the_engines_and_paths_replay():
    s = position(P4, ["yS", "rS", "bS", "wS gM", "kS"]).apply_text("place yL on A")
    truth = exhaustive(s, 20000)
    assert truth is not None
    start = from_engine(s)[0]
    finals, parents, complete, _ = enumerate_finals(start)
    code = lambda st: tuple(sorted("".join(_CH(p) for p in x) for x in st))  # noqa: E731
    assert complete and set(finals) == {code(f) for f in truth}
    for f in list(truth)[:10]:
        w = code(f)
        got, par, _, _ = enumerate_finals(start, want={w}, prune=Prune(w))
        end, _texts = replay(s, path_to(got, par, w))
        assert stacks_of(end) == f
