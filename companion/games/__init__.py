"""The registry of games and tools: record name -> ``GameSpec``.

Modules are imported on first use so start-up stays quick. A game whose
module is not there yet is listed as unavailable instead of failing.

A game is a plug-in (issue 45), as boardgame.io's ``Game`` objects and
OpenSpiel's registered games are: its line here names its engine (the rules,
this layer), its title, its plug-in module (``companion/plugins/``: how its
moves, waits and verdicts are worded, its win reason, its public table, its
ranking and its hidden information, V-1 and V-3) and its OLED screens' module.
The shared layers reach a game only through ``plugin(name)``; adding a game is
its own files plus one line here.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import NamedTuple

from ..engine import GameSpec
from ..errors import SetupError
from ..i18n import N_  # titles marked for the catalog; screens translate them



class Entry(NamedTuple):
    """A registry line: the engine's module, the title (marked for the catalog), the
    plug-in module the shared layers ask for everything else (issue 45) and the
    module of its OLED screens (``play_screen``, ``setup_screen``; none for a tool)."""
    module: str
    title: str
    plugin: str
    ui: str = ""


# record name -> Entry. Games first, in menu order, then tools.
GAMES: dict[str, Entry] = {
    "undercut": Entry("companion.games.undercut", N_("Undercut"), "companion.plugins.undercut", "companion.ui.undercut"),
    "bag_of_ice": Entry("companion.games.bag_of_ice", N_("Bag of Ice"), "companion.plugins.bag_of_ice", "companion.ui.bag_of_ice"),
    "bottoms_up": Entry("companion.games.bottoms_up", N_("Bottoms Up"), "companion.plugins.bottoms_up", "companion.ui.bottoms_up"),
}
TOOLS: dict[str, Entry] = {
    "die": Entry("companion.games.tools", N_("Pyramid die"), "companion.plugins.tools"),
    "bag": Entry("companion.games.tools", N_("Bag"), "companion.plugins.tools"),
    "pick": Entry("companion.games.tools", N_("Start player"), "companion.plugins.tools"),
}


def available(name: str) -> bool:
    try:
        spec(name)
    except SetupError:
        return False
    return True


def spec(name: str) -> GameSpec:
    """The spec of a game or tool by record name; ``SetupError`` if unknown."""
    entry = GAMES.get(name) or TOOLS.get(name)
    if entry is None:
        raise SetupError(f"unknown game {name!r} (known: {', '.join([*GAMES, *TOOLS])})")
    try:
        module = importlib.import_module(entry[0])
    except ModuleNotFoundError as e:
        if e.name != entry[0]:
            raise
        raise SetupError(f"{entry[1]} is not available in this version yet") from None
    specs = getattr(module, "SPECS", None)
    if specs is not None:
        return specs[name]
    return module.SPEC


def plugin(name: str) -> ModuleType | None:
    """The plug-in module of a game or tool by record name (``companion/plugins/``,
    loaded on first use: it loads its engine, see ``words.moves``); None for a name
    the registry does not know (an old record's game, a bad name)."""
    entry = GAMES.get(name) or TOOLS.get(name)
    if entry is None:
        return None
    return importlib.import_module(entry.plugin)
