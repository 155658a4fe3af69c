"""Messages and confirmations are boxes over the screen they answer:
the screen stays in view above the box, only the box's pages change on the
display bus, and closing the box gives back the very same frame."""
from __future__ import annotations

from PIL import ImageChops
from luma.core.interface.serial import i2c

from bench.bus import RecordingBus
from companion.io import HEIGHT, Key
from companion.ui.draw import BOX_ROWS, LINE_H
from companion.ui.widgets import Confirm, Message
from hardware.partial import PartialSSD1306

from .screens_util import make_app, press


def box_top(img) -> int:
    """The y of the box's upper rule: the first row from the top that is lit from edge to edge
    below a row that is not."""
    px = img.load()
    for y in range(1, HEIGHT):
        if all(px[x, y] for x in range(img.width)) and not all(px[x, y - 1] for x in range(img.width)):
            return y
    raise AssertionError("no box")


def same_above(a, b, y: int) -> bool:
    return ImageChops.difference(a.crop((0, 0, a.width, y)), b.crop((0, 0, b.width, y))).getbbox() is None


def test_the_undo_question_is_a_box_over_the_die_and_sends_only_its_pages(tmp_path):
    app = make_app(tmp_path)
    rolled = press(app, "down,ok,ok,ok")  # Tools, Pyramid die, roll
    bus = RecordingBus()
    dev = PartialSSD1306(i2c(bus=bus, address=0x3C))
    dev.display(rolled)
    bus.take()
    asked = press(app, "hold-back")
    assert isinstance(app.top, Confirm)
    top = box_top(asked)
    assert top > 8  # a short question leaves the screen's title and more in view
    assert same_above(rolled, asked, top)
    dev.display(asked)
    sent = bus.take()
    assert sent <= (HEIGHT - top + 8) // 8 * (3 + 128)  # only the box's pages
    back = press(app, "left,ok")  # LEFT moves to the first answer (Keep), OK closes the box
    assert not isinstance(app.top, Confirm)
    assert ImageChops.difference(back, rolled).getbbox() is None
    dev.display(back)
    assert bus.take() <= sent


def test_a_message_box_grows_with_its_text_and_a_long_one_scrolls(tmp_path):
    app = make_app(tmp_path)
    under = app.frame()
    app.push(Message("Short.", title="Note"))
    short = app.frame()
    top_short = box_top(short)
    assert same_above(under, short, top_short)
    assert HEIGHT - top_short <= 2 * LINE_H + 4  # a title and one line
    app.pop()
    long_text = " ".join(f"word{i}" for i in range(60))
    app.push(Message(long_text, title="Note"))
    app.frame()
    first = app.top.offset
    app.handle(Key.DOWN)
    app.frame()
    assert app.top.offset == first + 1  # more lines than the box's BOX_ROWS scroll
    assert BOX_ROWS * LINE_H <= HEIGHT
    app.handle(Key.OK)
    assert not isinstance(app.top, Message)


def test_a_long_question_takes_the_title_line_and_nothing_is_cut(tmp_path):
    from companion.ui.draw import CLIPS
    app = make_app(tmp_path)
    question = " ".join(["word"] * 20)  # 5 lines of 21 characters: no room for the title too
    app.push(Confirm(question, lambda a: None, title="TITLE"))
    CLIPS.reset()
    texts: list[str] = []
    from companion.ui import draw
    old, draw.DRAWN = draw.DRAWN, texts
    try:
        app.frame()
    finally:
        draw.DRAWN = old
    assert CLIPS.count == 0
    assert "TITLE" not in texts
    assert sum(t.count("word") for t in texts) == 20


def test_no_box_is_drawn_over_a_secret_color_in_view(tmp_path):
    """BU-3: a secret color is seen only by its player, only while OK is held.
    BACK pressed while OK is still held hides it before the question opens,
    and a box over a screen showing a secret does not draw that screen."""
    from companion.ui.bottoms_up import SecretTour
    app = make_app(tmp_path)
    press(app, "ok,down,down,ok,ok,ok,ok")  # New game, Bottoms Up, 4 players, the device draws the colors
    tour = app.top
    assert isinstance(tour, SecretTour)
    hidden = app.frame()
    shown = press(app, "hold-ok")
    assert tour.private and ImageChops.difference(hidden, shown).getbbox() is not None
    press(app, "back")  # OK still held
    assert isinstance(app.top, Confirm) and not tour.private  # hidden before the question opens
    press(app, "release")
    press(app, "ok")  # Stay
    assert app.top is tour
    press(app, "hold-ok")
    app.message("Short.")
    boxed = app.frame()
    blank = boxed.crop((0, 0, boxed.width, box_top(boxed))).getbbox()
    assert blank is None  # nothing of the screen under it is drawn


def full_row(img, start: int = 0) -> int:
    """The first row from ``start`` down lit from edge to edge (a box's rule)."""
    px = img.load()
    return next(y for y in range(start, HEIGHT) if all(px[x, y] for x in range(img.width)))


def assert_covers_whole(before, after, y0: int, start: int = 0) -> int:
    """The box drawn on ``after`` over the screen ``before``: its rule lies on a
    row nothing crossed, the screen is as it was above it and nothing of it is
    left between the rule and the box's first line ``y0``. Returns the rule's y."""
    rule = full_row(after, start)
    assert before.crop((0, rule, before.width, rule + 1)).getbbox() is None  # nothing lay across it
    assert same_above(before, after, rule)
    assert after.crop((0, rule + 1, after.width, y0)).getbbox() is None  # covered, not left in slices
    return rule


def test_a_box_never_cuts_a_name_in_the_large_font_in_two():
    """A question over a screen with a large name under its title (Undercut's
    bidder, Bottoms Up's "Take a piece"): the rule goes up to the first blank
    row above the name, which is then covered whole, not sliced."""
    from companion.ui.draw import TITLE_H, Canvas

    c = Canvas()
    c.title("Bid or pass")
    c.center(TITLE_H + 1, "P4", scale=2)  # rows 12..31
    before = c.image.copy()
    y0 = c.box(4)  # four lines: the plain rule would fall at y0 - 3, through the name
    assert assert_covers_whole(before, c.image, y0, TITLE_H - 1) < y0 - 3


def test_a_box_over_plain_text_rows_keeps_its_rule_where_it_was():
    from companion.ui.draw import TITLE_H, Canvas

    c = Canvas()
    c.title("Menu")
    for i in range(5):
        c.row(i, f"row {i} text")
    y0 = c.box(4)
    assert full_row(c.image, TITLE_H - 1) == y0 - 3


def test_a_box_over_a_large_header_without_title_bar_covers_it_whole(tmp_path):
    """Bag of Ice's turn screen has the player's name and score in the large font
    at the very top, no title bar: a three-line undo question covers the header
    whole rather than slicing it (it did, through the name)."""
    from companion.ui.draw import Canvas

    c = Canvas()
    c.big(0, 0, "Alexand", 2)  # rows 0..19
    c.big(104, 0, "12", 2)
    c.text(1, 22, "bust 15.9%  hint draw")
    before = c.image.copy()
    y0 = c.box(5)  # title, three lines of question, the answers: the plain rule falls at 11
    assert assert_covers_whole(before, c.image, y0) < 11
