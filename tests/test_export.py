"""Exports: CSV of scores per turn, PNG score sheet, summaries, CLI.

The tools keep no score, so a tiny scoring game, "tally", is registered here
for the tests: seats take turns; ``roll`` makes a chance node whose outcome
``gain N`` (N = 1..3) adds N to the roller; ``pass`` scores nothing; the game
ends when a score reaches the target; the highest scores win.
"""
from __future__ import annotations

import csv
import io
import json
import os
import random
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import pytest
from PIL import Image

from companion import export, games
from companion.cli import main
from companion.engine import CHANCE, TERMINAL, GameSpec, Move, Outcome, State, Termination
from companion.errors import IllegalMoveError, InvalidMoveError, SetupError
from companion.journal import Journal
from companion.records import parse_lines, replay
from companion.session import Session

# ---------------------------------------------------------------- the tally test game


@dataclass(frozen=True)
class TRoll(Move):
    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True)
class TPass(Move):
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class TGain(Move):
    n: int

    def __str__(self) -> str:
        return f"gain {self.n}"


@dataclass(frozen=True)
class TallyState(State):
    players: tuple[str, ...]
    target: int
    points: tuple[int, ...]
    turn: int = 0
    rolling: bool = False
    game = "tally"

    @property
    def current_player(self) -> int:
        if max(self.points) >= self.target:
            return TERMINAL
        return CHANCE if self.rolling else self.turn

    def legal_moves(self):
        if self.is_terminal():
            return []
        return [m for m, _ in self.chance_outcomes()] if self.rolling else [TRoll(), TPass()]

    def chance_outcomes(self):
        return [(TGain(n), Fraction(1, 3)) for n in (1, 2, 3)] if self.rolling else []

    def parse_move(self, text: str) -> Move:
        w = text.split()
        if w == ["roll"]:
            return TRoll()
        if w == ["pass"]:
            return TPass()
        if len(w) == 2 and w[0] == "gain" and w[1] in ("1", "2", "3"):
            return TGain(int(w[1]))
        raise InvalidMoveError(f"not a tally move: {text!r}")

    def apply(self, move: Move) -> "TallyState":
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move} is not possible now")
        nxt = (self.turn + 1) % len(self.players)
        if isinstance(move, TRoll):
            return replace(self, rolling=True)
        if isinstance(move, TPass):
            return replace(self, turn=nxt)
        pts = list(self.points)
        pts[self.turn] += move.n
        return replace(self, points=tuple(pts), rolling=False, turn=nxt)

    def scores(self):
        return self.points

    def outcome(self):
        if not self.is_terminal():
            return None
        best = max(self.points)
        return Outcome(Termination.TARGET, tuple(i for i, p in enumerate(self.points) if p == best), self.points)

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "points": list(self.points), "turn": self.turn}

    def describe(self, move: Move) -> str:
        if isinstance(move, TGain):
            return f"{self.players[self.turn]} gains {move.n}"
        return str(move)


def _new_tally(setup: dict[str, Any]) -> TallyState:
    players = setup.get("players", ["P1", "P2"])
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise SetupError("tally needs 2 to 4 players")
    return TallyState(tuple(players), int(setup.get("target", 5)), (0,) * len(players))


SPEC = GameSpec("tally", "Tally", _new_tally, 2, 4)


@pytest.fixture
def tally(monkeypatch):
    """Register the tally game for the duration of a test."""
    # a tool's line: its engine here, the tools' plug-in (a registered game has one)
    monkeypatch.setitem(games.TOOLS, "tally", games.Entry(__name__, "Tally", "companion.plugins.tools"))
    return "tally"


def clock():
    n = iter(range(10**6))
    return lambda: f"2026-05-01T12:{next(n) // 60 % 60:02d}:{next(n) % 60:02d}.000+00:00"


def play_tally(journal, moves, players=("Ann", "Bob"), target=5) -> Session:
    s = Session.start(journal, "tally", {"players": list(players), "target": target, "die": "physical"},
                      random.Random(1))
    for m in moves:
        s.play(m)
    return s


# ---------------------------------------------------------------- CSV


def test_csv_has_one_row_per_score_change_with_the_move_and_named_players(tally):
    j = Journal(":memory:", clock=clock())
    # Ann rolls 2; Bob passes; Ann rolls 3 -> 5 reaches the target: Ann wins 5-0.
    s = play_tally(j, ["roll", "gain 2", "pass", "roll", "gain 3"])
    rows = list(csv.reader(io.StringIO(export.scores_csv(s.fold, s.setup))))
    assert rows[0] == ["turn", "seq", "player", "move", "description", "Ann", "Bob"]
    # session id 1, moves are seqs 2..6; only the two gains change a score. Rows are
    # numbered by turn (State.turn_number); this test game has none: 1, 2, ...
    assert rows[1:] == [["1", "3", "chance", "gain 2", "Ann gains 2", "2", "0"],
                        ["2", "6", "chance", "gain 3", "Ann gains 3", "5", "0"]]


def test_csv_skips_undone_moves_and_uses_the_moves_in_effect(tally):
    j = Journal(":memory:", clock=clock())
    s = play_tally(j, ["roll", "gain 3"])
    s.undo()                                   # takes back gain 3 (the table rolled: its own decision)
    s.undo()                                   # and the roll
    s.play("pass")                             # Ann passes
    s.play("roll")
    s.play("gain 1")                           # Bob gains 1
    rows = list(csv.reader(io.StringIO(export.scores_csv(s.fold, s.setup))))
    assert [r[3:] for r in rows[1:]] == [["gain 1", "Bob gains 1", "0", "1"]]
    assert rows[1][0] == "1"                   # the first row, not the third move in effect


def test_csv_of_a_scoreless_tool_is_the_header_alone_and_names_default_to_seats(tally):
    j = Journal(":memory:")
    s = Session.start(j, "die", {}, random.Random(2))
    s.play("roll")
    assert export.scores_csv(s.fold) == "turn,seq,player,move,description\r\n"
    st = _new_tally({"players": [object(), object()]})  # not names: P1, P2
    assert export.player_names(st) == ["P1", "P2"]


def test_csv_fields_with_commas_or_quotes_stay_one_row(tally):
    j = Journal(":memory:")
    s = play_tally(j, ["roll", "gain 1"], players=('Ann, "A"', "Bob"))
    rows = list(csv.reader(io.StringIO(export.scores_csv(s.fold, s.setup))))
    assert rows[0][5] == 'Ann, "A"' and len(rows) == 2 and rows[1][4] == 'Ann, "A" gains 1'


@pytest.mark.parametrize("name", ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "=HYPERLINK(\"x\")"])
def test_csv_cells_that_spreadsheets_would_run_are_neutralised_and_readable(tally, tmp_path, capsys, name):
    """OWASP CSV injection: a name starting with = + - @ (or a tab or
    CR) is written with a ' in front, in the header, the player column and the
    description, by scores_csv and by `companion export --format csv`."""
    path = str(tmp_path / "j.db")
    j = Journal(path, clock=clock())
    s = play_tally(j, ["roll", "gain 1", "pass", "roll", "gain 2"], players=(name, "Bob"))
    j.close()
    assert main(["export", str(s.id), "--journal", path, "--format", "csv"]) == 0
    for text in (export.scores_csv(s.fold, s.setup), capsys.readouterr().out):
        rows = list(csv.reader(io.StringIO(text)))
        cells = [c for r in rows for c in r]
        assert not any(c.startswith(export.FORMULA_START) for c in cells if not c.lstrip("-").isdigit())
        assert rows[0][5] == "'" + name                      # readable: the name after the quote
        assert rows[1][4] == f"'{name} gains 1"
    assert export.csv_cell("\t=1") == "'=1" and export.csv_cell("Ann") == "Ann" and export.csv_cell("") == ""


# ---------------------------------------------------------------- summaries


def test_summaries_name_players_winner_and_totals(tally):
    j = Journal(":memory:", clock=clock())
    play_tally(j, ["roll", "gain 3", "roll", "gain 1", "roll", "gain 2"])           # Ann 5, Bob 1
    play_tally(j, ["roll", "gain 1", "roll", "gain 3", "pass", "roll", "gain 3"],
               players=("Cy", "Bob"))                                                # Cy 1, Bob 6
    open_one = play_tally(j, ["roll", "gain 1"])                                     # unfinished
    items = export.summaries(j)
    assert [s.id for s in items] == [open_one.id, items[1].id, 1]                  # newest first
    assert items[2].winners == ("Ann",) and items[2].scores == (5, 1) and items[2].finished
    assert items[1].winners == ("Bob",) and items[1].result_text() == "won by Bob"
    assert not items[0].finished and items[0].result_text() == "open"
    totals = {t.name: (t.games, t.wins) for t in export.name_totals(items)}
    assert totals == {"Ann": (1, 1), "Bob": (2, 1), "Cy": (1, 0)}                  # open game not counted
    assert json.loads(json.dumps(items[2].to_json()))["winners"] == ["Ann"]


def test_summary_of_a_session_whose_game_is_missing_says_so(tally, monkeypatch):
    j = Journal(":memory:")
    play_tally(j, ["roll", "gain 1"])
    monkeypatch.delitem(games.TOOLS, "tally")
    (s,) = export.summaries(j)
    assert s.error and s.result_text() == "unreadable" and s.players == ("Ann", "Bob")


def test_summary_cache_follows_new_events(tally):
    j = Journal(":memory:")
    s = play_tally(j, ["roll"])
    assert export.summaries(j)[0].scores == (0, 0)
    s.play("gain 2")
    assert export.summaries(j)[0].scores == (2, 0)


# ---------------------------------------------------------------- PNG


def test_score_sheet_lists_rows_totals_and_winner_and_is_800_wide(tally):
    j = Journal(":memory:", clock=clock())
    play_tally(j, ["roll", "gain 3", "pass", "roll", "gain 2"])
    (s,) = export.summaries(j)
    data = export.sheet_lines(s)
    assert data["header"] == ["#", "move", "Ann", "Bob"]
    assert data["rows"] == [["1", "Ann gains 3", "3", "0"], ["2", "Ann gains 2", "5", "0"]]
    assert data["totals"] == ["", "total", "5", "0"] and data["result"] == "Winner: Ann"
    assert data["winners"] == [0]
    img = Image.open(io.BytesIO(export.score_sheet_png(s)))
    assert img.format == "PNG" and img.width == 800 and 200 < img.height < 600 + 330  # the chart under it
    px = img.convert("RGB")
    assert px.getextrema()[0] == (20, 255) or px.getextrema()[0][0] < 50   # text is drawn
    # the winner's column is highlighted, the loser's is not
    assert (255, 236, 150) in {px.getpixel((800 - 24 - 150, y)) for y in range(100, img.height)}
    assert (255, 236, 150) not in {px.getpixel((800 - 24 - 50, y)) for y in range(100, img.height)}


def test_score_sheet_of_a_long_game_keeps_the_last_rows(tally):
    j = Journal(":memory:")
    moves = []
    for _ in range(70):
        moves += ["roll", "gain 1"]
    play_tally(j, moves, target=1000)
    (s,) = export.summaries(j)
    data = export.sheet_lines(s)
    assert len(data["rows"]) == export.MAX_SHEET_ROWS and data["skipped"] == 70 - export.MAX_SHEET_ROWS
    assert data["rows"][-1][2:] == ["35", "35"]
    assert export.score_sheet(s).height < 2600


def test_score_sheet_draws_accented_names_and_keeps_long_ones_in_their_column():
    """Pillow's own font has no accented letter: "Chloé" and "Émilie" drew with a box
    for é and É on the sheet. A system font with them is used when there is one; a
    text too wide for its room is cut with ~ (``_clip``)."""
    font = export._font(20)
    if type(font).__name__ != "FreeTypeFont" or getattr(font, "path", None) is None \
            or not str(font.path).endswith(export.SHEET_FONTS):
        pytest.skip("none of the sheet's fonts on this system")
    missing = bytes(font.getmask("\ue000"))  # a private-use character: no font draws it
    for ch in "éÉçñøßΩЖ":
        assert bytes(font.getmask(ch)) != missing, ch
    from PIL import Image, ImageDraw
    d = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    cut = export._clip(d, "Maximilienne", font, 60)
    assert cut.endswith("~") and d.textlength(cut, font=font) <= 60
    assert export._clip(d, "Ann", font, 60) == "Ann"


# ---------------------------------------------------------------- CLI


def test_cli_export_json_csv_png(tally, tmp_path, capsys):
    path = str(tmp_path / "j.db")
    j = Journal(path, clock=clock())
    s = play_tally(j, ["roll", "gain 2", "pass", "roll", "gain 3"])
    j.close()
    assert main(["export", str(s.id), "--journal", path, "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "turn,seq,player,move,description,Ann,Bob" and out.splitlines()[-1].endswith(",5,0")
    rec = tmp_path / "g.jsonl"
    assert main(["export", str(s.id), "--journal", path, "-o", str(rec)]) == 0
    result = replay(parse_lines(rec.read_text().splitlines()))
    assert result.to_json()["scores"] == [5, 0] and result.to_json()["outcome"]["winners"] == [0]
    png = tmp_path / "sheet.png"
    assert main(["export", str(s.id), "--journal", path, "--format", "png", "-o", str(png)]) == 0
    assert Image.open(png).size[0] == 800
    assert main(["export", str(s.id), "--journal", path, "--format", "png"]) == 2   # png needs -o
    assert "needs -o" in capsys.readouterr().err
    assert main(["export", "99", "--journal", path, "--format", "csv"]) == 2


def test_docs_score_sheet_example(tmp_path):
    """docs/img/score_sheet.png (README): an Undercut score-sheet game, made by
    the project's own renderer. COMPANION_UPDATE_DOCS=1 redraws it."""
    import os
    from pathlib import Path
    img_path = Path(__file__).resolve().parent.parent / "docs" / "img" / "score_sheet.png"
    if os.environ.get("COMPANION_UPDATE_DOCS") == "1":
        pytest.importorskip("companion.games.undercut")
        j = Journal(":memory:", clock=lambda: "2026-05-01T19:30:00.000+00:00")
        rng = random.Random(3)
        s = Session.start(j, "undercut", {"players": ["Ann", "Bob", "Cat"], "level": "score"}, rng)
        while not s.state.is_terminal():
            s.play(rng.choice(list(s.state.legal_moves())))
        (summary,) = export.summaries(j)
        img_path.write_bytes(export.score_sheet_png(summary))
    img = Image.open(img_path)
    assert img.format == "PNG" and img.width == 800


def test_sheet_rows_are_numbered_by_turn_in_a_real_game():
    # the rows said 7, 22, 30 (moves); a Bag of Ice sheet counts turns, Undercut rounds
    from tests.hashprobe import random_record
    from companion import records
    for game in ("bag_of_ice", "undercut"):
        rec = records.parse_lines(random_record(game, 1).splitlines())
        fold = records.replay(rec).fold
        turns = [int(r.turn) for r in export.score_rows(fold)]
        assert turns and turns == sorted(turns) and turns[0] == 1
        states = fold.states
        assert max(turns) == max(st.turn_number() for st in states)


def test_f7_f9_export_o_is_atomic_and_bad_paths_or_ids_are_one_line(tmp_path, capsys):
    """-o writes a temp file and renames it; a bad folder or a huge id is a message, not a traceback."""
    from companion.cli import main
    from companion.journal import Journal
    jp = str(tmp_path / "j.db")
    with Journal(jp) as j:
        sid = j.start_session("die", {})
        j.append(sid, "move", {"move": "roll"})
    out = tmp_path / "game.jsonl"
    out.write_text("old contents")
    assert main(["export", str(sid), "--journal", jp, "-o", str(out)]) == 0
    assert '"roll"' in out.read_text() and not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]
    assert main(["export", str(sid), "--journal", jp, "-o", str(tmp_path / "nonexistent" / "x")]) != 0
    assert main(["export", "99999999999999999999999", "--journal", jp]) != 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and "cannot write" in err and "no session" in err


def test_csv_rows_name_the_player_a_move_is_credited_to():
    """A score-sheet pass names its passer (``pass 3``:
    Cat, U-11), not the start player the sheet has as the one to move; a Bag
    of Ice draw that busts is the turn's player's (B-4), not "chance"."""
    def rows(header, moves):
        lines = [json.dumps(header)] + [json.dumps({"type": "move", "move": m}) for m in moves]
        fold = replay(parse_lines(lines)).fold
        return list(csv.DictReader(io.StringIO(export.scores_csv(fold))))

    uc = {"format": "pyramid-companion-record", "version": 1, "game": "undercut",
          "setup": {"players": ["Ann", "Bob", "Cat"], "level": "score", "start": 0}}
    got = rows(uc, ["done", "done", "done", "pass 3"])
    assert [(r["player"], r["move"]) for r in got] == [("Cat", "pass 3")]
    boi = {"format": "pyramid-companion-record", "version": 1, "game": "bag_of_ice",
           "setup": {"players": ["Ann", "Bob"], "start": 1}}
    got = rows(boi, ["roll", "face S", "got rS"])
    assert [(r["player"], r["move"]) for r in got] == [("Bob", "got rS")]
    assert "busts" in got[0]["description"]


def test_csv_first_column_is_named_by_what_it_counts():
    """Undercut numbers its rows by round (UndercutState.turn_number): the column
    says "round" and holds the round each score change was played in; Bag of
    Ice and Bottoms Up count turns and say "turn"."""
    j = Journal(":memory:", clock=clock())
    s = Session.start(j, "undercut", {"players": ["Ann", "Bob", "Cat"], "level": "score", "start": 0},
                      random.Random(1))
    # round 1: Ann turns in a TREE (U-4), everyone is done, Ann passes (+1, U-11); round 2: Bob a TREE
    for m in ["tree", "done", "done", "done", "pass 1", "done", "tree", "done", "done"]:
        s.play(m)
    rows = list(csv.reader(io.StringIO(export.scores_csv(s.fold, s.setup))))
    assert rows[0][:2] == ["round", "seq"] and rows[0][-3:] == ["Ann", "Bob", "Cat"]
    rounds = [int(r[0]) for r in rows[1:]]
    assert rounds == [1, 1, 2] and s.state.round == 2
    for game, setup in (("bag_of_ice", {"players": ["Ann", "Bob"], "start": 0}),
                        ("bottoms_up", {"players": ["Ann", "Bob"]})):
        t = Session.start(j, game, setup, random.Random(1))
        assert export.scores_csv(t.fold, t.setup).split(",")[0] == "turn"


LONG_NAMES = ["Élodie-Marie", "Maximilienne", "Zoë", "Anne-Sophie", "Bjørn Ødegår"]


def test_score_sheet_wraps_the_move_and_heads_the_columns_in_one_size(monkeypatch):
    """The move column cut "Élodie-Marie turns ~", so the combo turned in
    was lost; the names over the columns came in different sizes and cut. Now
    what happened is wrapped whole (up to four lines) and every name is drawn
    whole, in one size."""
    from PIL import ImageDraw
    j = Journal(":memory:", clock=lambda: "2026-05-01T19:30:00.000+00:00")
    rng = random.Random(5)
    s = Session.start(j, "undercut", {"players": LONG_NAMES, "level": "full"}, rng)
    while not s.state.is_terminal():
        s.play(rng.choice(list(s.state.legal_moves())))
    (summary,) = export.summaries(j)
    data = export.sheet_lines(summary)
    moves = [cells[1] for cells in data["rows"]]
    assert any("turns in" in m for m in moves)  # a combo turned in (U-5)
    drawn: list[tuple[str, Any]] = []
    real = ImageDraw.ImageDraw.text

    def spy(self, xy, text, *a, **kw):
        drawn.append((text, kw.get("font")))
        return real(self, xy, text, *a, **kw)
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    img = export.score_sheet(summary)
    texts = [t for t, _ in drawn]
    assert not any(t.endswith("~") for t in texts)  # nothing cut
    joined = " ".join(texts)
    for m in moves:  # each move whole, on the lines that follow each other
        assert m in joined, m
    start = texts.index("move") + 1
    heads = drawn[start:texts.index(data["rows"][0][0], start)]  # the names, up to the first row
    assert "".join(t for t, _ in heads).replace(" ", "") == "".join(LONG_NAMES).replace(" ", "")
    assert len({f.size for _, f in heads}) == 1  # one size for every name
    assert img.width == 800


def test_the_row_of_a_bottoms_up_game_says_the_stacks_scored_at_the_end_BU11():
    """A Bottoms Up export had one row, the last placement with the final scores, as if
    that placement had scored: the row says the game ended and the stacks scored."""
    from tests.hashprobe import random_record
    rec = parse_lines(random_record("bottoms_up", 1).splitlines())
    rows = export.score_rows(replay(rec).fold)
    assert len(rows) == 1 and "game over: the stacks score (BU-11)" in rows[0].description
    assert rows[0].description.split(";")[0].split()[1] == "places"
    rec = parse_lines(random_record("bag_of_ice", 1).splitlines())
    assert all(";" not in r.description for r in export.score_rows(replay(rec).fold))


@pytest.mark.parametrize("n", [6, 8, 12])
def test_a_score_sheet_of_many_players_keeps_the_move_readable_and_the_names_distinct(n):
    """A Bag of Ice sheet of 8 players or more raised ValueError (the score
    columns took more than the page) and at 7 the moves ran into the scores. The move
    column keeps MOVE_MIN_W, score columns narrow, then the sheet widens (B-3: up to 12);
    names too long for their column are shortened alike and stay distinct, a cut
    marked as on the device's screens ("~": a cut name never reads as another name)."""
    from PIL import ImageDraw
    from companion.engine import pick_chance
    setup = {"players": [f"Player{i:02d}name" for i in range(n)], "target": 20}
    st = games.spec("bag_of_ice").new(setup)
    rng = random.Random(2)
    lines = [json.dumps({"format": "pyramid-companion-record", "version": 1, "game": "bag_of_ice", "setup": setup})]
    while not st.is_terminal():
        m = pick_chance(st, rng) if st.is_chance_node() else rng.choice(st.legal_moves())
        lines.append(json.dumps({"type": "move", "move": str(m)}))
        st = st.apply(m)
    summary = export.summarize(1, "bag_of_ice", setup, "2026-11-26T00:00:00", parse_lines(lines).events)
    img = export.score_sheet(summary)
    col_w = min(100, max(export.SCORE_MIN_W, (export.SHEET_WIDTH - 48 - 56 - export.MOVE_MIN_W) // n))
    assert img.width >= 48 + 56 + export.MOVE_MIN_W + col_w * n
    font, heads = export._header_names(ImageDraw.Draw(img), setup["players"], col_w - 12)
    flat = [" ".join(h) for h in heads]
    assert len(set(flat)) == n, flat
    assert all(h.replace(" ", "") == p or ("~" in h and h[:1] == p[:1]) for h, p in zip(flat, setup["players"])), flat


# ---------------------------------------------------------------- secret colors (RULINGS V-1, BU-3)


def _bottoms_up(path: str, *, secret: str = "device", moves: int = 1) -> Session:
    """A short Bottoms Up game (one piece per color and size), ``moves`` placements in
    (-1: to its end; colors drawn at the table are entered as the end asks)."""
    j = Journal(path)
    s = Session.start(j, "bottoms_up", {"players": ["Ann", "Bob", "Cy", "Dee"], "secret": secret, "stash": 1},
                      random.Random(3))
    while moves and not s.finished:
        s.play(s.state.legal_moves()[0])
        moves -= 1
    j.close()
    return s


def test_export_json_of_a_game_not_yet_over_with_secret_colors_needs_with_secrets_V1(tmp_path, capsys):
    """`export ID --format json` of an open Bottoms Up game printed every
    secret color. RULINGS V-1: the owner's shell may see them, but only by asking
    (--with-secrets); without it the export is refused with the reason."""
    path = str(tmp_path / "j.db")
    s = _bottoms_up(path)
    out = tmp_path / "g.jsonl"
    assert main(["export", str(s.id), "--journal", path, "-o", str(out)]) == 1
    captured = capsys.readouterr()
    assert "--with-secrets" in captured.err and "4 secret colors" in captured.err and "BU-3" in captured.err
    assert not out.exists() and captured.out == ""
    assert main(["export", str(s.id), "--journal", path, "--format", "json"]) == 1
    assert "secret " not in capsys.readouterr().out
    assert main(["export", str(s.id), "--journal", path, "--with-secrets", "-o", str(out)]) == 0
    text = out.read_text()
    assert text.count('"move": "secret ') == 4
    # the referee's replay of a record file is the user's own file: unchanged, colors included
    assert main(["replay", str(out), "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["state"]["secret_colors"]) == 4


def test_export_json_of_a_finished_game_or_one_without_secrets_needs_no_flag_V1(tmp_path, capsys):
    path = str(tmp_path / "over.db")
    s = _bottoms_up(path, moves=-1)
    assert s.finished
    assert main(["export", str(s.id), "--journal", path]) == 0
    assert capsys.readouterr().out.count('"move": "secret ') == 4  # over: nothing is secret any more
    path = str(tmp_path / "table.db")
    s = _bottoms_up(path, secret="physical")  # colors drawn at the table: the record holds none
    assert main(["export", str(s.id), "--journal", path]) == 0


def test_csv_and_png_of_a_game_not_yet_over_never_show_a_secret_color_V1(tmp_path, capsys):
    """V-1: CSV and PNG sheets of an unfinished game never show a secret color, with
    --with-secrets too (it is about the JSON record alone)."""
    path = str(tmp_path / "j.db")
    s = _bottoms_up(path, moves=6)
    j = Journal(path, read_only=True)
    colors = [e.data["move"].split()[1] for e in j.events(s.id) if export.is_hidden("bottoms_up", e)]
    summary = export.summarize(s.id, "bottoms_up", s.setup, "2026-01-01T00:00", j.events(s.id))
    j.close()
    assert len(colors) == 4 and not export.game_over(summary.fold)
    for flags in ([], ["--with-secrets"]):
        assert main(["export", str(s.id), "--journal", path, "--format", "csv", *flags]) == 0
        text = capsys.readouterr().out
        assert "secret" not in text and len(text.splitlines()) == 1  # the header: no score yet
    lines = export.sheet_lines(summary)
    assert lines["rows"] == [] and "secret" not in json.dumps(lines)
    assert main(["export", str(s.id), "--journal", path, "--format", "png", "-o", str(tmp_path / "s.png"),
                 "--with-secrets"]) == 0


def test_names_the_sheet_s_font_lacks_stay_apart_with_their_seat(tally):
    """Once "李华" and "王芳" both drew as two boxes on the PNG sheet (its font has no
    Chinese): the sheet's texts give each the seat's number, "李华 (1)", "王芳 (2)"."""
    j = Journal(":memory:", clock=clock())
    play_tally(j, ["roll", "gain 3", "pass", "roll", "gain 2"], players=("李华", "王芳"))
    (s,) = export.summaries(j)
    img = export.score_sheet(s)
    data = export._seated(export.sheet_lines(s), s.players, export._font(18))
    assert data["header"][2:] == ["李华 (1)", "王芳 (2)"]
    assert data["rows"][0][1].startswith("李华 (1)") and data["result"] == "Winner: 李华 (1)"
    plain = play_tally(Journal(":memory:", clock=clock()), ["roll"], players=("Ann", "Bob"))
    assert plain and export.sheet_lines(s)["header"][2:] == ["李华", "王芳"]  # the data keep the names
    assert img.width == 800


# ---------------------------------------------------------------- the PNG sheet's result line


def test_the_png_sheet_result_line_has_no_nested_parentheses():
    from companion.export import GameSummary, sheet_lines
    s = GameSummary(7, "undercut", "Undercut", "2026-11-26T04:13:40", ("Ann", "Dee"), (9, 7), True, False,
                    ("Dee",), "win", 40, detail="lowest score (U-13)")
    assert sheet_lines(s)["result"] == "Winner: Dee - lowest score (U-13)"
