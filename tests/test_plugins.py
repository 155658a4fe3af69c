"""The games' plug-ins: an outcome's detail is a code the plug-in words
(not its English text), the ranking shares a place between ties, and the verdicts
the screens show are worded below them, the same for any view."""
from __future__ import annotations

import pickle

from companion import i18n, plugins
from companion.engine import Detail, Outcome, Termination, detail_code
from companion.games import undercut as uc
from companion.plugins import bag_of_ice as boi_plugin
from companion.plugins import undercut as uc_plugin


def test_the_detail_is_a_code_whose_text_is_the_records():
    """U-13, U-14: the code words the reason; the text (to_json, the records) is unchanged."""
    assert uc.WON_BY_PIPS == "tie on score broken by fewest pips in hand (U-13)"
    assert detail_code(uc.WON_BY_PIPS) == "tie_pips"
    o = Outcome(Termination.SCORE_LIMIT, (1,), (3, 3), uc.WON_BY_PIPS)
    assert o.to_json()["detail"] == "tie on score broken by fewest pips in hand (U-13)"
    assert detail_code(pickle.loads(pickle.dumps(uc.WON_BY_PIPS))) == "tie_pips"
    # worded from the code: another English text with the same code says the same
    other = Outcome(Termination.SCORE_LIMIT, (1,), (3, 3), Detail("whatever the records say", uc.WinBy.PIPS))
    assert uc_plugin.win_reason(None, other) == uc_plugin.win_reason(None, o) == "lowest score wins · tie broken by pips"
    was = i18n.language()
    try:
        i18n.set_language("fr")
        assert uc_plugin.win_reason(None, other) == "le plus bas gagne · départage : encoches"
    finally:
        i18n.set_language(was)


def test_ties_share_a_place():
    assert plugins.ranked([5, 9, 5, 2], [3], low_wins=True) == [(3, 1), (0, 2), (2, 2), (1, 4)]
    assert plugins.ranked([4, 4, 1], [0, 1], low_wins=False) == [(0, 1), (1, 1), (2, 3)]


def test_a_bust_is_worded_once_for_the_screen_and_the_page():
    """B-4, B-8: the BUST! screen and the page's change line use the same words."""
    assert boi_plugin.bust_text("Ann busts on rS", 3) == "BUST! Ann busts on rS · 3 points lost"
    assert boi_plugin.bust_text("Ann breaks a rule: bust", 0) == "BUST! Ann breaks a rule: bust"
    assert boi_plugin.bust_cause("broken") == "{name}: rule broken"
    assert boi_plugin.bust_cause("rS").format(name="Ann") == "Ann drew rS"
