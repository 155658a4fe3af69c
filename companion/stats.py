"""Players' numbers per game (issue 50): for each roster name, per game, the plays,
the wins and the win share, the best score (the game's way: the lowest in
Undercut, U-13) and the last play's date, over the whole journal or the last
evening.

From the same summaries the History screen and the exports use
(``export.summaries``), counted as the History screen's "Player totals" counts
(``export.name_totals``): a game over by its rules, with a result; a game ended
early, one being played, or one that cannot be read is no play. A damaged
session the device continued is counted once, as the session that reached the
end (its summary has the result). Generic over games. Pure.
"""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Any, Sequence

from . import games
from .errors import CompanionError
from .export import GameSummary
from .words.titles import title_of

__all__ = ["GameLine", "PlayerStats", "counted", "evening", "player_stats", "EVENING_GAP_HOURS"]

EVENING_GAP_HOURS = 4
"""The last evening: the games back from the newest one until a pause of more than
this many hours between one game's start and the next's."""


@dataclass(frozen=True)
class GameLine:
    game: str
    title: str
    plays: int
    wins: int
    best: int
    last: str          # the last play's start, ``YYYY-MM-DD`` (UTC, as the journal stores it)

    @property
    def share(self) -> int:
        """Wins per play, in whole percent (rounded)."""
        return round(100 * self.wins / self.plays) if self.plays else 0

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "title": self.title, "plays": self.plays, "wins": self.wins,
                "share": self.share, "best": self.best, "last": self.last}


@dataclass(frozen=True)
class PlayerStats:
    name: str
    games: tuple[GameLine, ...]

    @property
    def plays(self) -> int:
        return sum(g.plays for g in self.games)

    @property
    def wins(self) -> int:
        return sum(g.wins for g in self.games)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "plays": self.plays, "wins": self.wins,
                "games": [g.to_json() for g in self.games]}


def counted(s: GameSummary) -> bool:
    """A play as the History screen's totals count one (``export.name_totals``)."""
    return not s.error and s.termination is not None and bool(s.scores)


def _start(s: GameSummary) -> _dt.datetime | None:
    try:
        t = _dt.datetime.fromisoformat(s.created)
    except ValueError:
        return None
    return t if t.tzinfo else t.replace(tzinfo=_dt.timezone.utc)


def evening(items: Sequence[GameSummary]) -> list[GameSummary]:
    """The counted games of the last evening: from the newest back, until a pause of more
    than ``EVENING_GAP_HOURS`` between two games' starts."""
    plays = sorted((s for s in items if counted(s) and _start(s) is not None), key=lambda s: _start(s))  # type: ignore[arg-type,return-value]
    out: list[GameSummary] = []
    later: _dt.datetime | None = None
    for s in reversed(plays):
        t = _start(s)
        assert t is not None
        if later is not None and later - t > _dt.timedelta(hours=EVENING_GAP_HOURS):
            break
        out.append(s)
        later = t
    return out


def _lowest_wins(game: str) -> bool:
    try:
        return games.spec(game).lowest_wins
    except CompanionError:
        return False


def player_stats(items: Sequence[GameSummary], scope: str = "all") -> list[PlayerStats]:
    """Per name (most wins first, then most plays, then the name), per game (in the
    games' menu order): plays, wins, best score, last date. ``scope``: ``"all"`` (the
    whole journal) or ``"evening"`` (the last evening, ``evening``)."""
    pool = evening(items) if scope == "evening" else [s for s in items if counted(s)]
    lines: dict[str, dict[str, dict[str, Any]]] = {}
    for s in pool:
        low = _lowest_wins(s.game)
        for i, name in enumerate(s.players):
            if i >= len(s.scores):
                continue
            score = s.scores[i]
            line = lines.setdefault(name, {}).setdefault(s.game, {"plays": 0, "wins": 0, "best": score, "last": ""})
            line["plays"] += 1
            line["wins"] += name in s.winners
            line["best"] = min(line["best"], score) if low else max(line["best"], score)
            line["last"] = max(line["last"], s.created[:10])
    order = list(games.GAMES)
    out = []
    for name, per_game in lines.items():
        kinds = sorted(per_game, key=lambda g: (order.index(g) if g in order else len(order), g))
        out.append(PlayerStats(name, tuple(GameLine(g, title_of(g), **per_game[g]) for g in kinds)))
    return sorted(out, key=lambda p: (-p.wins, -p.plays, p.name.lower()))
