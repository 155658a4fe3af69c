"""Reference-frame helpers: render a screen reached by keys and compare it
with a checked-in PNG by pixel difference (luma's way).

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
