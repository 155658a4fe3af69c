"""Open pages tell the truth (issue 37, RULINGS V-4): after every press, a page
held open since the start shows what a page loaded at that moment shows.

A walk of keys per game (``tour``): the game's scripted opening
(bench/scripts_*.py); Leave (kept) and Resume; an undo; the device's language
switched in the game and on the main menu; the game played to its end and left
(its final result stays, V-4); a tool started and left; End session; then keys
drawn by a seeded generator (OK, BACK, the arrows and the holds) that wander
through menus and games. The walk stays off the page's own QR screen, where OK
makes a new address and ends every page on purpose. After each
press the walk loads a fresh page in a second tab and gives the open tab up to
``GRACE_S`` to show the same text (title, badge, what the device waits for,
result, scores, table, last moves, the page's language).

``web_open_page_stale`` (python -m bench) counts the presses after which the
open page still differed from the fresh one when its grace ran out; goal 0.

The fresh tab is loaded again only when the projection's text changed since it
was last loaded: the page is drawn from that text alone, so a second load of the
same text would show the same thing.
"""
from __future__ import annotations

import json
import random
import time
from typing import Any, Callable, Iterable, Iterator, Union

from .scripts import GAME_SCRIPTS, _load_games

KEYS = ("ok", "back", "up", "down", "left", "right", "hold-ok", "hold-back")
WEIGHTS = (30, 12, 15, 20, 5, 5, 6, 4)
GRACE_S = 1.0

SHOWN = """
const t = (id) => { const e = document.getElementById(id); return e ? e.innerText.trim() : null; };
return {ready: document.body.dataset.seq !== undefined && document.body.dataset.seq !== "",
        lang: document.documentElement.lang, title: t('title'), status: t('status'),
        waiting: t('waiting'), result: t('result'), scores: t('scores'), table: t('table'),
        moves: t('moves')};"""

Step = Union[str, Callable[[Any], Iterable]]  # a key's name, or keys made as the walk goes


def session_menu(table) -> Iterator[str]:
    """BACK until the session's menu is on top (a game screen's sub-screens close
    first); nothing if it is there already."""
    def there(app) -> bool:
        from companion.i18n import _
        return any(item.label == _("Undo last") for item in getattr(app.top, "items", None) or ())
    for _n in range(6):
        if table.call(there):
            return
        yield "back"


def choose(label: str) -> Step:
    """The keys that put the top menu's cursor on ``label`` (its English text, said in
    the device's language of the moment) and press OK; none if no such item."""
    def keys(table) -> list[str]:
        def find(app):
            from companion.i18n import _
            items = getattr(app.top, "items", None)
            if not items:
                return None
            want = _(label)
            at = [i for i, item in enumerate(items) if item.label == want]
            if not at:
                return None
            return (at[0] - app.top.index) % len(items)
        downs = table.call(find)
        return [] if downs is None else ["down"] * downs + ["ok"]
    keys.__name__ = f"choose {label!r}"
    return keys


def switch_language(table) -> list:
    """The device's language switched (Settings > Language: en <-> fr)."""
    from companion.config import change
    table.call(lambda app: app.save_settings(change(
        app.settings, language="fr" if app.settings.language != "fr" else "en")))
    return [None]


def finish(seed: int) -> Step:
    """The session on screen played to its end with legal moves (the device's draws by
    a seeded generator), as a table would play it out."""
    def play(table) -> list:
        import random

        from companion.engine import pick_chance
        rng = random.Random(seed)

        def run(app):
            s, _shown = app.showing()
            while s is not None and not s.state.is_terminal():
                st = s.state
                m = pick_chance(st, rng) if st.is_chance_node() else rng.choice(list(st.legal_moves()))
                s.play(str(m))
            app.top.on_show(app)
        table.call(run)
        return [None]
    return play


def tour(game: str, seed: int, presses: int) -> list[Step]:
    """One game's walk: its scripted opening and End session; the opening again,
    Leave (kept), Resume, an undo, languages switched in the game and on the main
    menu, the game played to its end and left (its result kept, V-4), a tool
    started and left, then ``presses`` seeded keys."""
    _load_games()
    rng = random.Random(seed)
    script = GAME_SCRIPTS[game](True)
    return [*script, session_menu, choose("End session"), choose("Yes"),
            *script, session_menu, choose("Leave (kept)"), choose("Resume"), "hold-back", "ok",
            switch_language, session_menu, choose("Leave (kept)"), switch_language, choose("Resume"),
            finish(seed), session_menu, choose("Leave"), switch_language,
            choose("Tools"), choose("Pyramid die"), "ok", "ok", "back", "back", switch_language,
            *rng.choices(KEYS, WEIGHTS, k=presses)]


def shown(d) -> dict[str, Any]:
    return d.execute_script(SHOWN)


def _wait_ready(d, timeout: float = 10.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        got = shown(d)
        if got["ready"] or time.monotonic() > deadline:
            return got
        time.sleep(0.01)


def check_walk(d, table, steps: list[Step], *, grace_s: float = GRACE_S) -> dict[str, Any]:
    """Play ``steps`` on ``table`` (a ``bench.live.LiveTable``) with the page open in
    ``d``'s first tab; returns the stale presses (with what differed) and what the
    walk went through (sessions, times between games, languages, steps not found)."""
    d.get(table.url)
    _wait_ready(d)
    open_tab = d.current_window_handle
    d.switch_to.new_window("tab")
    fresh_tab = d.current_window_handle
    stale: list[dict[str, Any]] = []
    seen: dict[str, Any] = {"presses": 0, "changes": 0, "idle": 0, "sessions": 0, "lang_switches": 0,
                            "finished_kept": 0, "not_found": []}
    sessions: set[Any] = set()
    last_text = None
    fresh: dict[str, Any] = {}

    def keys_of(step: Step) -> Iterable:
        if isinstance(step, str):
            return [step]
        keys = step(table)
        if isinstance(keys, list) and not keys:  # a menu item that was not there
            seen["not_found"].append(getattr(step, "__name__", "step"))
        if step is switch_language:
            seen["lang_switches"] += 1
        return keys

    for step in steps:
        for key in keys_of(step):
            if key is not None:
                # the walk stays off the page's own screen: a new address there would end
                # every page on purpose (tested in tests/test_web.py), not go stale
                on_join = table.call(lambda app: any(type(x).__name__ == "JoinScreen" for x in app.stack))
                table.press("back" if on_join else key)
            table.settle()
            seen["presses"] += 1
            _tag, text = table.page.board.snapshot()
            if text != last_text:
                seen["changes"] += 1
                view = json.loads(text)
                if view["session"] is None or view.get("playing") is False:
                    seen["idle"] += 1
                    seen["finished_kept"] += view["session"] is not None
                else:
                    sessions.add(view["session"]["id"])
                d.switch_to.window(fresh_tab)
                d.get(table.url)
                fresh = _wait_ready(d)
                last_text = text
            d.switch_to.window(open_tab)
            deadline = time.monotonic() + grace_s
            while True:
                got = shown(d)
                if got == fresh:
                    break
                if time.monotonic() > deadline:
                    diff = {k: (got.get(k), fresh.get(k)) for k in fresh if got.get(k) != fresh.get(k)}
                    stale.append({"press": seen["presses"], "key": key, "differs": diff})
                    break
                time.sleep(0.01)
    seen["sessions"] = len(sessions)
    d.switch_to.window(fresh_tab)
    d.close()
    d.switch_to.window(open_tab)
    return {"stale": stale, "seen": seen}


def measure(folder: str, *, games: tuple[str, ...] | None = None, presses: int = 160,
            seed: int = 37) -> dict[str, Any]:
    """``web_open_page_stale`` over a walk of each game (a fresh table each)."""
    import os

    from .browser import Unavailable, chromium
    from .live import LiveTable
    _load_games()
    try:
        d = chromium()
    except Unavailable as e:
        return {"web_open_page_stale": None, "web_open_page_reason": str(e)}
    total_stale, total_presses, details = 0, 0, []
    try:
        for n, game in enumerate(games or tuple(sorted(GAME_SCRIPTS))):
            sub = os.path.join(folder, f"stale-{game}")
            os.makedirs(sub, exist_ok=True)
            with LiveTable(sub, seed=seed + n) as t:
                out = check_walk(d, t, tour(game, seed + n, presses))
            total_stale += len(out["stale"])
            total_presses += out["seen"]["presses"]
            details.extend(out["stale"][:3])
    finally:
        d.quit()
    return {"web_open_page_stale": total_stale, "web_open_page_presses": total_presses,
            "web_open_page_examples": details}


def note(fig: dict[str, Any]) -> str:
    """The paragraph of docs/performance.md on open pages, with this run's figures."""
    v = fig.get("web_open_page_stale")
    said = (f"{v} of {fig.get('web_open_page_presses')} presses" if v is not None
            else f"not measured in this run: {fig.get('web_open_page_reason', 'no browser')}")
    return (
        "* **Open pages tell the truth** (issue 37, RULINGS V-4, bench/stale.py). For each game a page is "
        "held open in headless Chromium while a walk of keys plays: the game's scripted opening and End "
        "session, the opening again, Leave (kept), Resume, an undo, the language switched in the game and "
        "on the main menu, the game played to its end and left (its result kept, marked finished), a tool "
        "started and left, then seeded keys through menus and games. After every press a fresh page is "
        "loaded in a second tab (when the projection's text changed) and the open page is given 1 s to "
        "show the same title, badge, words, result, scores, table and moves. `web_open_page_stale` counts "
        f"the presses after which it did not: {said}.")
