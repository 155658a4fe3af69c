"""What every game's setup object shares: it is a JSON object with known
keys, and names its players (a list of distinct, non-blank names in a range
the rules give). Each game reads its own keys after these."""
from __future__ import annotations

import unicodedata
from typing import Any, Iterable

from ..errors import SetupError

# control characters (NUL, tab, newline...), line and paragraph separators, surrogates
_NOT_IN_NAMES = ("Cc", "Zl", "Zp", "Cs")


def read_players(setup: Any, keys: Iterable[str], title: str, lo: int, hi: int, ruling: str,
                 *, verb: str = "takes") -> list[str]:
    """Check ``setup`` is an object with only ``keys`` and return its players,
    stripped; ``SetupError`` naming the rule (``ruling``) otherwise."""
    keys = tuple(keys)
    if not isinstance(setup, dict):
        raise SetupError("the setup must be an object")
    unknown = [k for k in setup if k not in keys]
    if unknown:
        raise SetupError(f"unknown setup key {unknown[0]!r} (known: {', '.join(keys)})")
    players = setup.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise SetupError(f"players must be a list of {lo} to {hi} names ({ruling})")
    players = [p.strip() for p in players]
    for i, name in enumerate(players):
        # A name is printed on one line (screens, scores, exports): the device never
        # lets one hold a control character or a line break (names.clean_name).
        # A long name is accepted: an outside referee's record may use one.
        bad = next((ch for ch in name if unicodedata.category(ch) in _NOT_IN_NAMES), None)
        if bad is not None:
            raise SetupError(f"player {i + 1}'s name {name!r} holds a control character "
                             f"(U+{ord(bad):04X}): names are printed on one line")
    if not lo <= len(players) <= hi:
        raise SetupError(f"{title} {verb} {lo} to {hi} players, not {len(players)} ({ruling})")
    if len(set(players)) != len(players):
        raise SetupError("player names must be different")
    return players
