"""What a position waits for, who won, a hint and an engine's own text, in
the words every view shows (issue 40): the projection's ``waiting`` and
``result`` (the page, the console), the odds screen's and the page's advice
(B-9, B-10), and the engines' English texts without their ruling notes.
"""
from __future__ import annotations

import re
from fractions import Fraction
from typing import Iterable

from ..engine import CHANCE, TERMINAL, State
from ..i18n import N_, _, pgettext

HINT_WORD = {"draw": N_("draw"), "bank": N_("bank")}  # boi_odds/boi_win hint values (B-9, B-10)
TOOL_WAITING = {"die": N_("Roll the die with the device's buttons."),
                "bag": N_("Draw from the bag with the device's buttons."),
                "pick": N_("Pick the start player with the device's buttons.")}
RULING_NOTE = re.compile(r"\s*\([^()]*\b(?:U|B|BU)-\d+[^()]*\)")


def plain(text: str) -> str:
    """An engine's text for a screen: without its ruling notes ("(U-9)", "(take MIX, U-3)"),
    which stay in the code, the tests, the logs and the Why pages (issue 13)."""
    return RULING_NOTE.sub("", text)


def decimal(text: str) -> str:
    """``text`` with the language's decimal mark (French: a comma)."""
    return text.replace(".", pgettext("decimal mark", "."))


def pct(x: Fraction | float) -> str:
    """A chance as a percentage for a 21-character line: ``13.7%`` (B-9, B-10)."""
    v = float(x) * 100
    if v in (0.0, 100.0):
        return f"{v:.0f}%"
    return decimal(f"{v:.1f}%")


def apart(x: Fraction | float, alike: Iterable[Fraction | float]) -> str:
    """A chance in whole percent ("56%"), or with as many decimals as tell it from
    another of ``alike`` that differs ("55.6%", "53.41%", at most two): the two
    sizes' figures must tell them apart (issue 48: "56%" twice while the hint said large)."""
    v = float(x) * 100
    others = [float(y) * 100 for y in alike if float(y) != float(x)]
    for digits in (0, 1, 2):
        text = f"{v:.{digits}f}"
        if all(f"{o:.{digits}f}" != text for o in others):
            break
    return decimal(text + "%")


def avg(x: float) -> str:
    """An expected score in at most 5 characters."""
    return decimal(f"{x:.1f}" if x < 99.95 else f"{x:.0f}")


def hint_word(hint: str) -> str:
    return _(HINT_WORD[hint]) if hint in HINT_WORD else hint


def waiting_words(state: State, names: list[str]) -> str:
    """What the position waits for, in plain words: ``decision()``'s ``who`` and
    ``kind``, read without building its options (an Undercut auction has thousands)."""
    who = state.current_player
    if who == TERMINAL:
        return _("The game is over.")
    k = state.decision_kind()
    kind = getattr(k, "value", str(k))
    if who == CHANCE:
        return {
            "start": _("The device picks the start player."),
            "rolloff": _("The device rolls the roll-off."),
            "roll": _("The device rolls the die."),
            "draw": _("The device draws from the bag."),
            "hand_draw": _("The device deals the hands."),
            "stack_draw": _("The device draws the stacks."),
            "pass_draw": _("The device draws for the player who passed."),
            "secret": _("The device draws the secret colors."),
        }.get(kind, _("The device draws."))
    tool = TOOL_WAITING.get(getattr(state, "game", ""))
    if tool is not None and not names:  # a table tool has no players to name
        return _(tool)
    name = names[who] if 0 <= who < len(names) else "?"
    text = {
        "take": _("{name} takes a mix of sizes."),
        "turn_in": _("{name} turns in a combo."),
        "sheet": _("{name} says what they turn in."),
        "bid": _("{name} bids or passes."),
        "who_passed": _("Who passed?"),
        "hand_pips": _("{name}: pips left in hand?"),
        "hand_pieces": _("{name}: pieces left in hand?"),
        "decide": _("{name} draws or banks."),
        "size": _("{name} picks a size."),
        "opening": _("{name} places a small alone."),
        "place": _("{name} places a piece."),
        "blue": _("{name} picks the new color (blue)."),
        "yellow": _("{name} moves the piece (yellow)."),
        "reveal": _("{name} shows their secret color."),
    }.get(kind, _("{name} to play."))
    return text.format(name=name)


def result_words(state: State, names: list[str]) -> str | None:
    """Who won, in words, once the game is over."""
    outcome = state.outcome()
    if outcome is None:
        return state.describe_end()
    won = [names[i] for i in outcome.winners if 0 <= i < len(names)]
    if not won:
        return _("The game is over.")
    if len(won) == 1:
        return _("{name} wins.").format(name=won[0])
    return _("{names} share the win.").format(names=", ".join(won))
