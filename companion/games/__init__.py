"""The registry of games and tools: record name -> ``GameSpec``.

Modules are imported on first use so start-up stays quick. A game whose
module is not there yet is listed as unavailable instead of failing.
"""
from __future__ import annotations

import importlib

from ..engine import GameSpec
from ..errors import SetupError
from ..i18n import N_  # titles marked for the catalog; screens translate them

# record name -> (module, title). Games first, in menu order, then tools.
GAMES: dict[str, tuple[str, str]] = {
    "undercut": ("companion.games.undercut", N_("Undercut")),
    "bag_of_ice": ("companion.games.bag_of_ice", N_("Bag of Ice")),
    "bottoms_up": ("companion.games.bottoms_up", N_("Bottoms Up")),
}
TOOLS: dict[str, tuple[str, str]] = {
    "die": ("companion.games.tools", N_("Pyramid die")),
    "bag": ("companion.games.tools", N_("Bag")),
    "pick": ("companion.games.tools", N_("Start player")),
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
