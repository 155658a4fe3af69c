"""Reference-frame helpers: render a screen reached by keys and compare it
with a checked-in PNG by pixel difference (luma's way); and the few helpers the
screens' tests of several subjects share (undo by hold BACK, the drawn texts, an
app built from a settings file).

Regenerate every reference after a deliberate change of the drawing:

    COMPANION_UPDATE_REFERENCE=1 ./run test tests/test_screens.py
"""
from __future__ import annotations

import os
import random
from pathlib import Path

from PIL import Image, ImageChops

from companion.config import Settings
from companion.io import Key
from companion.journal import Journal
from companion.ui.app import App
from companion.ui.widgets import Confirm

REFERENCE = Path(__file__).parent / "reference"
UPDATE = os.environ.get("COMPANION_UPDATE_REFERENCE") == "1"


def fixed_clock():
    n = iter(range(10**9))
    return lambda: f"2026-05-01T12:{next(n) // 60 % 60:02d}:{next(n) % 60:02d}.000+00:00"


def make_app(tmp_path, seed: int = 7, settings: Settings | None = None) -> App:
    journal = Journal(str(tmp_path / "ref.db"), clock=fixed_clock())
    return App(journal, settings or Settings(), rng=random.Random(seed))


def press(app: App, keys: str) -> Image.Image:
    for name in filter(None, keys.split(",")):
        app.handle(Key.parse(name))
        app.frame()
    return app.frame()


def read_through(app: App) -> None:
    """OK on a check verdict until its end has been on screen (the pages of a
    ``read_through`` screen), then the OK that goes on ("what next")."""
    top = app.top
    for _ in range(50):
        if not (getattr(top, "read_through", False) and top.seen_to < len(top.lines)):
            break
        press(app, "ok")
    press(app, "ok")


def assert_matches_reference(img: Image.Image, name: str, max_diff: int = 0, *,
                             folder: Path = REFERENCE, update: bool = UPDATE) -> None:
    path = folder / f"{name}.png"
    if update or not path.exists():
        folder.mkdir(exist_ok=True)
        img.save(path)
        if not update:
            raise AssertionError(f"new reference {path.name} written; check it and commit it")
        return
    ref = Image.open(path).convert("L")
    diff = ImageChops.difference(ref, img.convert("L"))
    changed = sum(diff.point(lambda v: 1 if v else 0).histogram()[1:])
    if changed > max_diff:
        diff.save(path.with_suffix(".diff.png"))
        img.save(path.with_suffix(".actual.png"))
        raise AssertionError(f"{name}: {changed} pixels differ from {path.name} "
                             f"(see {path.with_suffix('.actual.png').name}); regenerate with "
                             "COMPANION_UPDATE_REFERENCE=1 ./run test tests/test_screens.py")


def assert_hold_back_undoes_from_here(app, game_type) -> None:
    """Hold BACK asks the undo question over the screen in view; Keep leaves that
    screen as it was, hold BACK, OK undoes the last decision and shows the game."""
    here = app.top
    game = next(s for s in reversed(app.stack) if isinstance(s, game_type))
    moves = len(game.session.fold.moves)
    press(app, "hold-back")
    assert isinstance(app.top, Confirm) and app.top.title == "Undo" and app.stack[-2] is here
    press(app, "up,ok")  # Keep
    assert app.top is here and len(game.session.fold.moves) == moves
    press(app, "hold-back,ok")  # Undo is preselected
    assert app.top is game and len(game.session.fold.moves) < moves


def drawn_texts(app) -> list[str]:
    """The texts the next frame draws, in the order drawn."""
    from companion.ui import draw  # draw.DRAWN is set on the module, read back after the frame
    draw.DRAWN = []
    try:
        app.frame()
        return list(draw.DRAWN)
    finally:
        draw.DRAWN = None


def built(tmp_path, config_text: str | None):
    """The simulator's app as ``companion sim --config`` builds it, from ``config_text``
    (None: no settings file), its journal under ``state/``; and the settings file's path."""
    from companion.cli import build_app, parser  # the CLI is heavy, and only these tests need it
    cfg = tmp_path / "companion.toml"
    if config_text is not None:
        cfg.write_text(config_text, encoding="utf-8")
    return build_app(parser().parse_args(["sim", "--config", str(cfg), "--journal", str(tmp_path / "state" / "j.db")])), cfg


# a settings file written by hand: its comments must survive the device's changes
HAND = '# our table\nplayers = ["Ann", "Bob"]  # the regulars\n'
