"""What a screen may ask of the app (issue 40): the seam below the screens.

Screens are handed the app on every key (``on_key(key, app)``) and when they
come on top (``on_show(app)``). They know it through this ``Protocol``, not
through ``ui.app``, as gpiozero's devices know their pin ``Factory``: ``App``
(``ui.app``) satisfies it, and ``app.py`` imports the screens while no screen
imports ``app.py`` back. The screens' annotations read ``app: "App"``, with
``App`` imported from here under ``TYPE_CHECKING``.

Screens are typed ``Any`` here: this module sits below ``widgets`` (which
defines ``Screen``) and imports nothing of the ui.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Protocol

from ..config import Settings
from ..journal import Journal, SessionInfo
from ..session import Session


class Host(Protocol):
    """The app as its screens see it: the stack of screens, the boxes, the
    sessions, the settings and the background work."""

    journal: Journal
    settings: Settings
    rng: random.Random
    stack: list[Any]
    last_error: str | None
    web: Any  # the scoreboard page when it runs (a ``ui.join.PageLink``), else None

    # the screen stack
    @property
    def top(self) -> Any: ...
    def push(self, screen: Any) -> None: ...
    def pop(self) -> None: ...
    def replace(self, screen: Any) -> None: ...
    def home(self) -> None: ...

    # boxes over the screen
    def message(self, text: str, *, title: str = "", then: Callable[["Host"], Any] | None = None) -> None: ...
    def confirm(self, question: str, on_yes: Callable[["Host"], Any], **kw: Any) -> None: ...
    def ask(self, question: str, answer: Callable[["Host", bool], Any], **kw: Any) -> Any: ...

    # sessions
    def start_session(self, game: str, setup: dict[str, Any]) -> Session: ...
    def resume_session(self, session_id: int) -> Session: ...
    def has_open(self, session_id: int) -> bool: ...
    def unfinished(self, infos: list[SessionInfo] | None = None) -> list[int]: ...
    def last_finished(self, infos: list[SessionInfo] | None = None) -> int | None: ...
    def leave(self, session_id: int) -> None: ...
    def open_session(self, session_id: int) -> None: ...

    # settings and slow work
    def save_settings(self, settings: Settings) -> None: ...
    def prepare(self, job: Callable[[], None], then: Callable[["Host"], Any] | None = None) -> None: ...
