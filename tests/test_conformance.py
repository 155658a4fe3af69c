"""One conformance test over every registered game, as OpenSpiel runs one
over ``registered_names()``: for each game in ``companion.games.GAMES``, random
legal games (the chance outcomes picked by a seeded generator, the driver's, never
the engine's) go through every view: the OLED frame (the app), the serial console,
the projection, a seat's part (V-3) and the exports (JSON, CSV, PNG). A game whose
plug-in lacks a part fails at once, by name.

For each game that has hidden information (its plug-in hides a move, V-1), two
games alike but for one secret give the same public bytes: the projection, the
page's state.json and the exports.

A throwaway fourth game, "Coin", lives in this file: its engine, its plug-in and
its screen, and one registry line (``register``). Complete, it passes the same
test; registered without a part, it fails with a message that names the part.
"""
from __future__ import annotations

import json
import random
import sys
import types
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Callable, Sequence

import pytest
from starlette.testclient import TestClient

from companion import games, plugins, public
from companion.braille import braille
from companion.config import Settings
from companion.console import Console, direct
from companion.engine import CHANCE, TERMINAL, Detail, GameSpec, Move, Outcome, State, Termination, pick_chance
from companion.errors import IllegalMoveError, InvalidMoveError, SetupError
from companion.journal import Journal
from companion.plugins import blocks
from companion.seats import seat_part
from companion.session import Session
from companion.ui.app import App
from companion.ui.base import SessionScreen
from companion.ui.screens import open_session
from companion.web import Board, WebApp, new_secret

SETUP: dict[str, Any] = {"players": ["Ann", "Bob", "Cy"]}
SEEDS = (1, 2)           # a few random games per game: fast enough for a Pi Zero
MAX_MOVES = 3000         # a random game longer than this is cut (and checked as it stands)
BLOCK_KINDS = {"facts", "heading", "list", "grid", "stacks", "note"}  # what app.js draws


# ---------------------------------------------------------------- the driver


def start(journal: Journal, game: str, setup: dict[str, Any]) -> Session:
    """A session whose chance outcomes the test's driver picks (none drawn yet)."""
    games.spec(game).new(setup)
    sid = journal.start_session(game, setup)
    s = Session(journal, sid, game, setup, random.Random(0))
    s.auto_chance = False
    return s


def drive(s: Session, rng: random.Random, moves: int = MAX_MOVES,
          pick: Callable[[State, Sequence[Move]], Move] | None = None) -> None:
    """Random legal moves; at a chance node the driver's seeded pick (``pick_chance``)."""
    for _ in range(moves):
        st = s.state
        if st.is_terminal():
            return
        if st.current_player == CHANCE:
            m = pick(st, [m for m, _p in st.chance_outcomes()]) if pick is not None else pick_chance(st, rng)
        else:
            m = rng.choice(list(st.legal_moves()))
        s.play(m)


def hides(game: str, s: Session) -> bool:
    plug = plugins.of(game)
    return any(plug.hidden_move(p.text) for p in s.fold.moves)


# ---------------------------------------------------------------- every view


def check_views(game: str, s: Session, journal: Journal) -> None:
    """Every view of ``s`` as it stands, and of each position on the way."""
    plug = plugins.of(game)
    fold = s.fold
    step = max(1, len(fold.moves) // 25)
    for k in [*range(0, len(fold.moves), step), len(fold.moves)]:
        st = fold.states[k]
        if k < len(fold.moves):  # the move played here, in words (a game words all of its own)
            assert plug.move_words(st, fold.moves[k].move), (game, str(fold.moves[k].move))
        if not st.is_terminal():
            kind = st.decision_kind()
            names = [f"P{i}" for i in range(len(st.scores()))]
            who = st.current_player
            assert plug.waiting_words(st, str(getattr(kind, "value", kind)),
                                      names[who] if 0 <= who < len(names) else None), (game, kind)
    v = public.view(s, number=s.number)
    json.dumps(v)
    assert v["waiting"] and v["session"]["game"] == game
    table = v["table"]
    assert isinstance(table.get("blocks"), list), f"{game}: the table has no blocks"
    for b in table["blocks"]:
        assert b["kind"] in BLOCK_KINDS, (game, b)
    for code in public.piece_names_in(table):
        assert code in json.dumps(table)
    over = s.state.is_terminal()
    if over:
        end = v["end"]
        assert end and end["reason"], f"{game}: no win reason"
        assert sorted(end["order"]) == list(range(len(v["players"])))
        assert end["places"][0] == 1 and end["places"] == sorted(end["places"])
        assert all(end["places"][i] == 1 for i in range(len(end["names"])))  # the winners share the first place
    # a seat's part (V-3): what one seat alone sees, in words, or nothing
    for seat in range(len(v["players"])):
        part = seat_part(s, seat)
        if part is not None:
            json.dumps(plug.seat_words(part))
    # the exports: the record (refused while it would show a hidden move), the CSV, the PNG
    info = journal.session(s.id)
    for fmt in ("csv", "png"):
        assert public.export(journal, info.number, fmt)
    if over or not hides(game, s):
        record = public.export(journal, info.number, "json").decode()
        assert json.loads(record.splitlines()[0])["game"] == game
    else:
        with pytest.raises(public.HiddenInformation):
            public.export(journal, info.number, "json")
    # the console: the session's events as it shows them (a hidden move as "secret ?")
    for e in journal.events(s.id):
        shown = public.public_event(info, e)
        if not over and e.type == "move" and plug.hidden_move(e.data.get("move")):
            assert shown["move"] != e.data["move"]


def check_device(game: str, journal: Journal, sid: int) -> None:
    """The OLED frame and the console over it: the app opens the session and draws it."""
    app = App(journal, Settings(), rng=random.Random(1))
    open_session(app, sid)
    frame = app.frame()
    assert frame.size == (128, 64) and frame.getbbox() is not None, f"{game}: an empty frame"
    c = Console(direct(app))
    out = c.handle("status")
    assert out[0] == "OK status" and any(line.startswith(f"session: {journal.number(sid)} {game}") for line in out)
    assert c.handle("screen")[0] == "OK screen" and braille(frame)


def conformance(game: str, tmp_path, seeds: Sequence[int] = SEEDS) -> None:
    assert plugins.of(game) is not None
    for seed in seeds:
        journal = Journal(str(tmp_path / f"{game}-{seed}.db"))
        try:
            rng = random.Random(seed)
            s = start(journal, game, SETUP)
            drive(s, rng, moves=rng.randrange(5, 40))  # mid-game first
            check_views(game, s, journal)
            check_device(game, journal, s.id)
            drive(s, rng)
            check_views(game, s, journal)
            check_device(game, journal, s.id)
        finally:
            journal.close()


@pytest.mark.parametrize("game", sorted(games.GAMES))
def test_every_registered_game_plays_through_every_view(game, tmp_path):
    conformance(game, tmp_path)


# ---------------------------------------------------------------- hidden information


def public_bytes(journal: Journal, s: Session) -> dict[str, Any]:
    """What the table may see of ``s``: the projection, the page's state.json, the exports."""
    v = public.view(s, number=s.number)
    board = Board()
    board.set(v["seq"], v)
    secret = new_secret()
    with TestClient(WebApp(board, journal.path, secret)) as c:
        page = c.get(f"/{secret}/state.json")
        assert page.status_code == 200
    out: dict[str, Any] = {"view": json.dumps(v, sort_keys=True), "page": page.content}
    for fmt in ("csv", "png", "json"):
        try:
            out[fmt] = public.export(journal, s.number, fmt)
        except public.HiddenInformation as e:
            out[fmt] = f"refused: {e}"
    return out


def twins(game: str, tmp_path, seed: int, moves: int) -> tuple[Session, Session, Journal, Journal]:
    """Two games alike but for their first hidden move (another secret the driver could
    have drawn there), played ``moves`` moves on with the same choices."""
    plug = plugins.of(game)
    ja, jb = Journal(str(tmp_path / f"a{seed}.db")), Journal(str(tmp_path / f"b{seed}.db"))
    a = start(ja, game, SETUP)
    drive(a, random.Random(seed), moves=moves)
    texts = [p.text for p in a.fold.moves]
    secrets = {t for t in texts if plug.hidden_move(t)}
    first = next((k for k, t in enumerate(texts) if plug.hidden_move(t)), None)
    assert first is not None, f"{game}: no hidden move in {moves} moves"
    b = start(jb, game, SETUP)
    for k, text in enumerate(texts):
        st = b.state
        if k == first:
            others = [str(m) for m, _p in st.chance_outcomes() if str(m) != text and plug.hidden_move(str(m))]
            assert others, f"{game}: one secret only"
            text = ([o for o in others if o not in secrets] or others)[0]  # one A never draws, if any
        b.play(text)
    return a, b, ja, jb


@pytest.mark.parametrize("game", sorted(games.GAMES))
def test_two_games_alike_but_for_a_secret_look_the_same(game, tmp_path):
    """V-1: before the end, the public bytes never tell one secret from another."""
    probe = Journal(str(tmp_path / "probe.db"))
    s = start(probe, game, SETUP)
    drive(s, random.Random(3), moves=60)
    has_hidden = hides(game, s)
    probe.close()
    if not has_hidden:
        pytest.skip(f"{game} hides nothing (V-1): no differential to run")
    for seed, moves in ((3, 12), (4, 45)):
        a, b, ja, jb = twins(game, tmp_path, seed, moves)
        try:
            assert a.state.to_json() != b.state.to_json()  # the secret differs
            if a.state.is_terminal() or b.state.is_terminal():
                continue
            pa, pb = public_bytes(ja, a), public_bytes(jb, b)
            for key in pa:
                assert pa[key] == pb[key], f"{game}: the {key} tells one secret from another"
        finally:
            ja.close()
            jb.close()


# ---------------------------------------------------------------- a fourth game: Coin
# Its engine, its plug-in and its screen are this file; its registry line is ``register``.

@dataclass(frozen=True)
class Hide(Move):
    """Chance: the next seat's secret side (hidden until the end, like BU-3)."""
    side: str

    def __str__(self) -> str:
        return f"hide {self.side}"


@dataclass(frozen=True)
class Flip(Move):
    def __str__(self) -> str:
        return "flip"


@dataclass(frozen=True)
class Land(Move):
    side: str

    def __str__(self) -> str:
        return f"land {self.side}"


@dataclass(frozen=True)
class CoinState(State):
    """Each seat gets a secret side (its guess, shown at the end); then in turn each
    flips: heads scores a point; the first to 2 wins."""
    players: tuple[str, ...]
    secrets: tuple[str, ...] = ()
    points: tuple[int, ...] = ()
    turn: int = 0
    flipping: bool = False
    game = "coin"

    @property
    def current_player(self) -> int:
        if self.points and max(self.points) >= 2:
            return TERMINAL
        return CHANCE if self.flipping or len(self.secrets) < len(self.players) else self.turn

    def legal_moves(self) -> Sequence[Move]:
        if self.is_terminal():
            return []
        return [m for m, _p in self.chance_outcomes()] if self.current_player == CHANCE else [Flip()]

    def chance_outcomes(self) -> list[tuple[Move, Fraction]]:
        if self.current_player != CHANCE:
            return []
        cls: Any = Hide if len(self.secrets) < len(self.players) else Land
        return [(cls("h"), Fraction(1, 2)), (cls("t"), Fraction(1, 2))]

    def parse_move(self, text: str) -> Move:
        w = text.split()
        if w == ["flip"]:
            return Flip()
        if len(w) == 2 and w[0] in ("hide", "land") and w[1] in ("h", "t"):
            return (Hide if w[0] == "hide" else Land)(w[1])
        raise InvalidMoveError(f"not a coin move: {text!r}")

    def apply(self, move: Move) -> "CoinState":
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move} is not possible now")
        if isinstance(move, Hide):
            secrets = self.secrets + (move.side,)
            return replace(self, secrets=secrets, points=(0,) * len(self.players) if len(secrets) == len(
                self.players) else ())
        if isinstance(move, Flip):
            return replace(self, flipping=True)
        assert isinstance(move, Land)
        pts = list(self.points)
        pts[self.turn] += move.side == "h"
        return replace(self, points=tuple(pts), flipping=False, turn=(self.turn + 1) % len(self.players))

    def scores(self) -> tuple[int, ...]:
        return self.points or (0,) * len(self.players)

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        won = tuple(i for i, p in enumerate(self.points) if p >= 2)
        return Outcome(Termination.TARGET, won, self.points, Detail("first to 2 points", "first_to_two"))

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "secrets": list(self.secrets), "points": list(self.scores())}

    def describe(self, move: Move) -> str:
        return "a secret side is hidden" if isinstance(move, Hide) else str(move)


def _new(setup: dict[str, Any]) -> CoinState:
    players = setup.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise SetupError("coin needs 2 to 4 players")
    return CoinState(tuple(players))


SPEC = GameSpec("coin", "Coin", _new, 2, 4)


# the plug-in (companion/plugins/__init__.py lists the parts)
def move_words(st: CoinState, m: Move) -> str | None:
    who = st.players[st.turn]
    return {Hide: "a secret side is hidden", Flip: f"{who} flips", Land: f"{who}'s coin lands"}.get(type(m))


def shown_move_words(st: CoinState, m: Move) -> str | None:
    return None


def waiting_words(st: CoinState, kind: str, name: str | None) -> str | None:
    return "The device flips." if kind == "chance" else f"{name} flips."


def win_reason(st: CoinState, outcome: Outcome) -> str:
    return "first to 2 points wins"


def standout(before: Any, after: Any, scored: bool, words: Callable[[], str]) -> tuple[str, str, list[int]] | None:
    return None


def table(st: CoinState, names: list[str], ended: bool, settings: Any = None) -> dict[str, Any]:
    shown = [blocks.facts([("Flips", st.turn)])]
    out: dict[str, Any] = {"blocks": shown}
    if ended:
        out["marks"] = [{"cls": "secret", "piece": "yS", "text": side} for side in st.secrets]
    return out


def ranking(st: CoinState, winners: list[int]) -> list[tuple[int, int]]:
    return plugins.ranked(list(st.scores()), winners, low_wins=False)


def hidden_move(text: str) -> bool:
    return isinstance(text, str) and text.startswith("hide ")


def hidden_words() -> str:
    return "Secret side hidden."


def seat_view(st: CoinState, seat: int) -> dict[str, Any] | None:
    return {"side": st.secrets[seat]} if seat < len(st.secrets) and not st.is_terminal() else None


def seat_words(part: dict[str, Any]) -> dict[str, Any]:
    return {**part, "side_word": {"h": "heads", "t": "tails"}[part["side"]]}


def view_key(st: CoinState, settings: Any) -> Any:
    return ()


def roles(st: CoinState) -> list[str | None]:
    return []


# the screen (the OLED's)
class CoinScreen(SessionScreen):
    def render(self, c) -> None:
        st = self.state
        c.title("Coin")
        c.text(2, 20, " ".join(f"{n} {p}" for n, p in zip(st.players, st.scores())))

    def on_game_key(self, key, app) -> None:
        self.play(app, "flip")


def play_screen(app, session: Session) -> CoinScreen:
    return CoinScreen(session)


def register(monkeypatch, name: str = "coin", plugin: str = __name__) -> None:
    """Coin's one registry line (the engine, the plug-in and the screen are this file)."""
    monkeypatch.setitem(games.GAMES, name, games.Entry(__name__, "Coin", plugin, __name__))


def test_a_fourth_game_needs_its_own_files_and_one_registry_line(monkeypatch, tmp_path):
    register(monkeypatch)
    conformance("coin", tmp_path, seeds=(1,))
    (tmp_path / "twins").mkdir()
    test_two_games_alike_but_for_a_secret_look_the_same("coin", tmp_path / "twins")


def test_a_game_registered_without_a_part_fails_naming_it(monkeypatch, tmp_path):
    """As OpenSpiel's loop over ``registered_names()``: a missing part fails at once."""
    lacking = types.ModuleType("tests.coin_without_ranking")
    lacking.__dict__.update({k: v for k, v in globals().items() if k in plugins.PARTS and k != "ranking"})
    monkeypatch.setitem(sys.modules, lacking.__name__, lacking)
    monkeypatch.setattr(plugins, "_CHECKED", {})
    register(monkeypatch, "coin", lacking.__name__)
    with pytest.raises(plugins.IncompletePlugin) as e:
        conformance("coin", tmp_path, seeds=(1,))
    assert str(e.value) == ("game 'coin' is registered without ranking in its plug-in tests.coin_without_ranking "
                            "(see companion/plugins/__init__.py)")
    print(e.value)
