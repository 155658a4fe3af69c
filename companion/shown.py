"""What the device's screen shows, as a value (issue 45): each screen declares
it (``ui.widgets.Screen.shows``), the app publishes it with each frame
(``ui.app.App.showing``), and every view off the device follows it
(``companion.public.view``) without ever looking at the app or its screens.

A view never runs ahead of the device (RULINGS V-4): while the device still
shows a page of what a move did, the page names nobody to play; once the
device shows its winner (or what scored), the page shows the winner too.
Nothing here knows a screen or a game.
"""
from __future__ import annotations

import enum


class Shown(str, enum.Enum):
    """What the top of the device's screen stack shows over the game it plays."""

    MAIN_MENU = "main_menu"        # no game: the main menu and what opens from it
    GAME = "game"                  # the game's own screen: its position, or its winner once over
    SECRETS = "secrets"            # the players pass the device round for their secret colors (BU-3)
    MOVE = "move"                  # a page of what a move did (a bank, a bust, the end triggered)
    WINNER = "winner"              # a page that says who won
    SCORED = "scored"              # what scored, after the winner
    VERDICT = "verdict"            # a check's verdict
    QUESTION = "question"          # the device asks the table something nobody plays (who passed?)
    SESSION_MENU = "session_menu"  # the game's menu, over the game
    TOOL = "tool"                  # a tool (the die, the bag)

    @property
    def crowns(self) -> bool:
        """Over a game that has ended, does the device show its end (the winner)? A page
        of what the last move did still covers it (e.g. Undercut's "End triggered", U-12)."""
        return self is not Shown.MOVE

    @property
    def names_a_player(self) -> bool:
        """Over a game going on, does the device show whose turn it is? Not while it
        shows what a move did, asks the table, or goes round for the secret colors."""
        return self not in (Shown.MOVE, Shown.QUESTION, Shown.SECRETS)
