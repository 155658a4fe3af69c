"""Bottoms Up as the shared layers see it (issue 45; the parts are listed in
``companion/plugins/__init__.py``): its moves and waits in words, its win reason
(the highest score, ties share, BU-12), its public table (V-1: the field and the
stash; what each scored at the end, BU-11), its ranking, and its hidden
information: the secret colors (BU-3). Before the end no view shows one, not
even in a move's text (``hidden_move``, V-1); one seat may see its own
(``seat_view``, V-3: boardgame.io's ``playerView``)."""
from __future__ import annotations

from typing import Any, Callable

from ..engine import Move, Outcome, State
from ..games import bottoms_up as bu
from ..games.bottoms_up import BlueChoice, YellowChoice
from ..games.bu_check import CheckResult, Difference
from ..i18n import _, ngettext
from ..pieces import Color
from ..words.page import piece_words
from ..words.pieces import color_word
from ..words.table import name_of
from . import blocks, ranked

SECRET = "secret"
"""The head of the move text that draws a seat's secret color (BU-3): what a record
holds that the table must not see before the game ends (RULINGS V-1)."""


def move_words(st: Any, m: Move) -> str | None:
    who = name_of(st.players, st.active)
    if isinstance(m, bu.Secret):
        return _("{name}'s secret color is drawn").format(name=who)
    if isinstance(m, bu.Reveal):
        return _("{name} reveals {color}").format(name=who, color=_(m.color.value))
    if isinstance(m, bu.Place):
        if m.target is None:
            return _("{name} puts {piece} down alone").format(name=who, piece=m.piece)
        return _("{name} places {piece} on {label}").format(name=who, piece=m.piece, label=m.target)
    at = st.pending_at()
    if at is None:
        return None
    g, _i, piece = at
    if isinstance(m, bu.BlueChoice):  # BU-8: blue recolors, the size stays
        return _("{name}: blue turns {piece} into {new}").format(name=who, piece=piece,
                                                                 new=bu.Piece(m.color, piece.size))
    if isinstance(m, bu.YellowChoice):  # BU-8, BU-9: open space ends the move
        if m.target is None:
            return _("{name}: yellow moves {piece} to open space").format(name=who, piece=piece)
        return _("{name}: yellow moves {piece} onto {label}").format(name=who, piece=piece, label=m.target)
    return None


def shown_move_words(st: Any, m: Move) -> str | None:
    return None


def waiting_words(st: Any, kind: str, name: str | None) -> str | None:
    text = {
        "secret": lambda: _("The device draws the secret colors."),
        "opening": lambda: _("{name} places a small alone."),
        "place": lambda: _("{name} places a piece."),
        "blue": lambda: _("{name} picks the new color (blue)."),
        "yellow": lambda: _("{name} moves the piece (yellow)."),
        "reveal": lambda: _("{name} shows their secret color."),
    }.get(kind)
    return text().format(name=name or "?") if text is not None else None


def win_reason(st: Any, outcome: Outcome) -> str:
    """The highest score wins; ties share the win (BU-12)."""
    return _("highest score wins") + (" · " + _("ties share the win") if len(outcome.winners) > 1 else "")


def standout(before: Any, after: Any, scored: bool, words: Callable[[], str]) -> tuple[str, str, list[int]] | None:
    return None  # the scores change only at the end (BU-11)


def ranking(st: State, winners: list[int]) -> list[tuple[int, int]]:
    """The winners first, then the highest score first (BU-12)."""
    return ranked(list(st.scores()), winners, low_wins=False)


def hidden_move(text: str) -> bool:
    """A move text that draws a secret color (BU-3): ``secret r``, hidden from every
    view while the game is not over (V-1)."""
    return isinstance(text, str) and text.split(" ", 1)[0] == SECRET


def hidden_words() -> str:
    return _("Secret color drawn.")


def seat_view(st: Any, seat: int) -> dict[str, Any] | None:
    """What seat ``seat`` alone may see (V-3): its own secret color, drawn by the device
    (BU-3); None before the draw, or when the colors are kept at the table."""
    if st.secret_mode != "device" or not 0 <= seat < len(st.secrets) or st.secrets[seat] is None:
        return None
    return {"color": st.secrets[seat].value}


def seat_words(part: dict[str, Any]) -> dict[str, Any]:
    """A seat's own part in words, in the language of the moment: its color's name."""
    return {**part, "color_word": color_word(Color(part["color"]))} if "color" in part else part


def view_key(st: Any, settings: Any) -> Any:
    return ()


def color_words(color: Any) -> str:
    """A secret color by its name (``"red"``) in words, as the device's winner screen names it."""
    try:
        return color_word(Color.parse(str(color)))
    except Exception:  # not a color: said as it is
        return str(color or "?")


def scored_line(stack: str, piece: str, points: int) -> str:
    """What a stack scored for its owner (BU-11): "A: red large, 3 points"."""
    return _("{stack}: {piece}, {points}").format(
        stack=stack, piece=piece_words(piece), points=ngettext("{n} point", "{n} points", points).format(n=points))


def table(st: Any, names: list[str], ended: bool, settings: Any = None) -> dict[str, Any]:
    j = st.to_json()
    secrets = list(j.get("secret_colors", [])) if ended else None  # BU-3: only once the game is over
    breakdown = j.get("breakdown") if ended else None
    scored = [[scored_line(g["label"], g["piece"], g["points"]) for g in seat] for seat in breakdown] \
        if breakdown else None
    out: dict[str, Any] = {
        "phase": j.get("phase"), "turn": j.get("turn"),
        "field": [{"label": s["label"], "pieces": list(s["pieces"])} for s in j.get("field", [])],
        "changed": list(j.get("changed", [])),
        "stash": dict(j.get("stash", {})), "stash_count": j.get("stash_count"),
        "destroyed_count": j.get("destroyed_count"),
        # named as the device names them
        "secret_colors": secrets,
        "secret_words": [color_words(c) for c in secrets] if secrets is not None else None,
        "breakdown": breakdown, "scored": scored,
    }
    changed = set(out["changed"])
    shown: list[blocks.Block] = [
        blocks.heading(_("Field")),
        blocks.stacks("field", [{"caption": f"{s['label']} *" if s["label"] in changed else s["label"],
                                 "pieces": s["pieces"], "changed": s["label"] in changed} for s in out["field"]]),
        blocks.facts([(_("Stash"), out["stash_count"])])]
    if secrets is None:
        shown.append(blocks.note(_("Secret colors stay hidden until the end.")))
    if scored is not None:
        shown += [blocks.heading(_("Scored")),
                  blocks.listing("scored", [{"parts": [blocks.part(name_of(names, seat), tag="b"),
                                                       blocks.part(" · ".join(lines) if lines else "0")]}
                                            for seat, lines in enumerate(scored)])]
    out["blocks"] = shown
    if secrets is not None:  # beside each score, the seat's color, named (BU-3)
        out["marks"] = [{"cls": "secret", "piece": Color.parse(str(c)).letter + "M", "text": color_words(c)}
                        if c else None for c in secrets]
    return out


# ---------------------------------------------------------------- check mode's verdict (BU-13)


def difference_words(gap: Difference | None) -> str:
    """``bu_check``'s first difference in the language of the screens."""
    if gap is None:
        return ""
    def txt(pcs) -> str:
        return " ".join(map(str, pcs))
    if gap.rules is None:
        return (_("{label}: the table has {pieces}, which the rules do not give").format(
            label=gap.label, pieces=txt(gap.table or ())) if gap.label
            else _("the table has {pieces}, which the rules do not give").format(pieces=txt(gap.table or ())))
    if gap.table is None:
        return _("{label}: the rules give {pieces}, the table has no such stack").format(
            label=gap.label, pieces=txt(gap.rules))
    return _("{label}: the rules give {pieces}, the table has {table}").format(
        label=gap.label, pieces=txt(gap.rules), table=txt(gap.table))


def choice_words(move: Move) -> str:
    """A choice (blue's new color, yellow's destination) in the language of the screens,
    as a verb: it follows "choices:", so it has no colon of its own ("choices: move onto C",
    never "choices: yellow: onto C")."""
    if isinstance(move, BlueChoice):
        return _("recolor to {color}").format(color=color_word(move.color))
    if isinstance(move, YellowChoice):
        return _("move to open space") if move.target is None else _("move onto {label}").format(
            label=move.target)
    return str(move)


def check_verdict(r: CheckResult) -> dict[str, Any]:
    """A check's result (``bu_check.check()``, BU-13) in words, for any view: its
    ``title``, its ``banner`` (the large word), what it ``said`` (sentences), and when
    the rules do not reach the table's field the ``legal`` result's heading and its
    ``choices``."""
    # the choices are move texts (the records' vocabulary: "color b", "move A")
    choices = ", ".join(map(choice_words, r.moves)) if r.moves else _("none needed")
    if r.reachable:
        return {"title": _("Check: right"), "banner": _("RIGHT"),
                "said": [_("The rules reach the table's field."), _("choices: {choices}").format(choices=choices)],
                "legal": None, "choices": None}
    difference = difference_words(r.gap)
    if r.complete:
        said = [_("Not reachable. First difference: {difference}").format(difference=difference)]
        title = _("Check: differs")
    else:
        # the search ran out (issue 15): no certainty either way, so the verdict says
        # what was ruled out and never "not reachable"
        if r.timed_out:
            # the time guard, not the budget, stopped it (issue 42): a safety net that says so
            said = [_("Not found: time ran out before the search could say.")]
        elif r.depth:
            said = [ngettext("Not found: no cascade of {n} choice gives it; longer ones were not "
                             "all tried.",
                             "Not found: no cascade of up to {n} choices gives it; longer ones were "
                             "not all tried.", r.depth).format(n=r.depth)]
        else:
            said = [_("Not found: the search ran out before it could say.")]
        said.append(_("First difference: {difference}").format(difference=difference))
        title = _("Check: not found")
    return {"title": title, "banner": _("DIFFERS") if r.complete else _("NOT FOUND"), "said": said,
            "legal": _("A legal result:") if r.complete else _("The nearest legal result found:"),
            "choices": _("its choices: {choices}").format(choices=choices)}


def roles(st: Any) -> list[str | None]:
    """Each seat's secret color in words, only once the game is over (V-1, BU-3)."""
    if not st.is_terminal():
        return []
    return [None if c is None else color_word(c) for c in st.secrets]
