"""The message catalog and the player-name rules."""
from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, strategies as st

from companion import i18n
from companion.catalog import problems
from companion.names import CUT, NAME_MAX, clean_name, short_names
from companion.ui.draw import CLIPS, Canvas, fit


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.set_language("en")


def test_catalog_is_complete_and_compiled():
    # Fails when a marked text has no French translation, when a .po was not
    # updated from the code, or when a .mo is not what its .po compiles to.
    assert problems() == []


def test_french_plural_rule_puts_zero_and_one_in_the_singular():
    fr = i18n._translation("fr")
    assert [fr.plural(n) for n in (0, 1, 2, 5)] == [0, 0, 1, 1]


@pytest.mark.parametrize("env, lang", [
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "fr_CA.UTF-8", "LC_ALL": "en_GB.UTF-8"}, "en"),
    ({"LANGUAGE": "fr:en", "LANG": "en_US.UTF-8"}, "fr"),
    ({"LANGUAGE": "de:fr"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({}, "en"),
])
def test_language_from_the_environment(env, lang):
    assert i18n.language_from_env(env) == lang


def test_set_language_takes_effect_at_the_next_call(monkeypatch):
    monkeypatch.setenv("LANGUAGE", "fr")
    assert i18n.set_language("") == "fr"
    assert i18n.set_language("en") == "en"
    assert i18n.set_language("xx") == "fr"  # unknown: the environment's
    assert i18n.language() == "fr"


def test_names_are_cleaned_once():
    assert clean_name("  Ann\n  Marie\t") == "Ann Marie"
    assert clean_name("Zoe\u0301") == "Zoé" and unicodedata.is_normalized("NFC", clean_name("Zoe\u0301"))
    assert clean_name("a\x00b\x1bc") == "a b c"
    assert len(clean_name("Maximiliane-Sophia")) == NAME_MAX


@given(st.lists(st.text(min_size=1, max_size=14).map(clean_name).filter(bool), min_size=2, max_size=6,
                unique=True), st.integers(min_value=3, max_value=12))
def test_short_names_fit_and_stay_distinct(names, width):
    short = short_names(names, width)
    assert all(len(s) <= width for s in short)
    assert len(set(short)) == len(short)
    assert all(s == n for s, n in zip(short, names) if len(n) <= width)
    assert short == short_names(names, width)  # the same cut every time
    for s, n in zip(short, names):  # the start kept, nothing added but the cut mark (no digit)
        assert s[:1] == n[:1] and set(s) - {CUT} <= set(n) and (s == n or CUT in s or len(s) < 3)


@given(st.lists(st.sampled_from(["Marie", "Marie-Claire", "Marie-Claude", "Marie-Chloé", "Maximilienne",
                                 "Maximiliana", "Maximilian", "Anne-Sophie", "Anne-Sophia", "Jean Dupont",
                                 "Jean Dupond", "Jean Durand", "Élodie-Marie", "Zoë"]),
                min_size=2, max_size=6, unique=True), st.integers(min_value=1, max_value=12))
def test_similar_names_stay_distinct_at_every_width(names, width):
    short = short_names(names, width)
    assert all(len(s) <= width for s in short)
    if width >= 4:
        assert len(set(short)) == len(short), short
    assert all(s[:1] == n[:1] and set(s) - {CUT} <= set(n) for s, n in zip(short, names))


def test_similar_long_names_are_shortened_recognisably():
    """Shortened names such as "Marie-1", "Mari->", "MariC" were distinct but nobody's
    name. The rule keeps each start and the letters that tell the names apart; a cut
    is marked ("~"), so a cut name never reads as another whole name, and a name has
    one short form whatever the room."""
    similar = ["Marie-Claire", "Marie-Claude", "Marie-Chloé", "Maximilienne", "Maximiliana"]
    for width in (8, 9, 10):
        assert short_names(similar, width) == ("M-Claire", "M-Claude", "M-Chloé", "Max~enne", "Maxi~ana")
    assert short_names(similar, 7) == ("M-Clai~", "M-Clau~", "M-Chloé", "Max~enn", "Max~ana")
    assert short_names(["Élodie-Marie", "Zoë"], 7) == ("Élodi~", "Zoë")  # one short form, no hanging hyphen
    assert short_names(["Jean Dupont", "Jean Dupond", "Jean Durand"], 7) == ("J Dup~t", "J Dup~d", "J D~ran")
    assert short_names(["Ann", "Ann"], 2) == ("An", "An")  # identical full names: nothing tells them apart
    for width in range(6, 12):  # "Maximilien" is another name: the cut is marked, the same at every width
        assert short_names(["Maximilienne", "Bob"], width) == ("Maxim~", "Bob")
    for width in range(3, 13):  # never a digit, whatever the room
        assert not any(ch.isdigit() or ch == ">" for s in short_names(similar, width) for ch in s)


def test_the_drawing_layer_counts_what_it_cuts():
    CLIPS.reset()
    assert fit("Bob", 5) == "Bob" and CLIPS.count == 0
    assert fit("Alexandra: take", 8) == "Alexand~" and CLIPS.count == 1
    c = Canvas()
    c.text(100, 20, "12345")  # 5 characters from x=100 run past 128
    c.lines("one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
            "fifteen sixteen seventeen eighteen nineteen twenty twenty-one", width=10)
    assert CLIPS.count == 3 and CLIPS.examples[0] == "Alexandra: take"
    CLIPS.reset()
    assert CLIPS.count == 0


def test_the_font_draws_every_script_and_replaces_what_it_lacks():
    from companion.ui.glyphs import REPLACEMENT, displayable, has_glyph, render

    for name in ("Łukasz", "Дмитрий", "Ωμέγα", "Zoë", "Şükrü", "Ærøskøbing"):
        assert all(has_glyph(ch) for ch in name), name
        im = render(name)
        assert im.size == (6 * len(name), 10) and im.getbbox() is not None
    assert displayable("李华😀") == REPLACEMENT * 3
    assert render("李华😀").size == (18, 10)
    assert render("A") != render("B") and render("e\u0301").tobytes() == render("é").tobytes()


def test_a_damaged_font_file_is_refused(tmp_path, monkeypatch):
    from companion.ui import glyphs

    bad = tmp_path / "f.bin"
    data = bytearray(glyphs.FONT_FILE.read_bytes())
    data[100] ^= 0x10
    bad.write_bytes(bytes(data))
    monkeypatch.setattr(glyphs, "FONT_FILE", bad)
    glyphs.table.cache_clear()
    try:
        with pytest.raises(glyphs.FontFileError, match="damaged"):
            glyphs.table()
    finally:
        monkeypatch.undo()
        glyphs.table.cache_clear()


def test_a_translation_with_a_field_the_english_lacks_is_refused(tmp_path, monkeypatch):
    """A French text with {fields} the English one does not pass would raise
    KeyError when a screen formats it: the catalog check refuses it."""
    from babel.messages import pofile

    from companion import catalog
    po = catalog.po_path("fr")
    cat = pofile.read_po(po.open("rb"))
    msg = next(m for m in cat if m.id == "{n} min")
    msg.string = "{n} min {oops}"
    bad = tmp_path / "companion.po"
    with bad.open("wb") as f:
        pofile.write_po(f, cat, width=0, sort_output=True, no_location=True)
    monkeypatch.setattr(catalog, "po_path", lambda lang: bad)
    monkeypatch.setattr(catalog, "mo_path", lambda lang: tmp_path / "companion.mo")
    found = catalog.problems()
    assert any("'{n} min'" in p and "oops" in p for p in found), found


def test_every_french_text_formats_with_the_english_fields():
    """Each translation, filled with its English text's fields, formats without error."""
    import re

    from babel.messages import pofile

    from companion import catalog
    field = re.compile(r"\{([^{}]*)\}")
    cat = pofile.read_po(catalog.po_path("fr").open("rb"))
    for m in cat:
        if not m.id or "{" not in str(m.id):
            continue
        ids = m.id if isinstance(m.id, (tuple, list)) else (m.id,)
        values = {f: 1 for i in ids for f in field.findall(i)}
        for text in (m.string if isinstance(m.string, (tuple, list)) else (m.string,)):
            text.format(**values)  # KeyError, IndexError or ValueError fail the test


def test_no_french_text_puts_de_before_a_name():
    """French elides "de" before a vowel: "Main de Anne", "Couleur de Émilie" are
    wrong (d'Anne, d'Émilie) and a name can start with any letter. The French texts
    say them without "de" before a name ("Main : Anne", "Émilie : couleur")."""
    import re

    from babel.messages import pofile

    from companion import catalog
    cat = pofile.read_po(catalog.po_path("fr").open("rb"))
    before_name = re.compile(r"\b(de|que|le|la) \{(name|player|who|names?)\}", re.IGNORECASE)
    bad = [s for m in cat for s in (m.string if isinstance(m.string, (tuple, list)) else (m.string,))
           if s and before_name.search(s)]
    assert bad == []


# ---- the catalog check compares messages, not the tool that wrote them

def _compiled_fr(monkeypatch, babel_version: str, edit=None) -> bytes:
    """The French .po compiled as Babel ``babel_version`` would write it (its
    Generated-By header), after ``edit(catalog)``."""
    import babel.messages.catalog as bcat
    from companion import catalog
    monkeypatch.setattr(bcat, "VERSION", babel_version)
    cat = catalog._read_po("fr")
    cat.revision_date = cat.creation_date = __import__("datetime").datetime(2031, 5, 6)
    if edit is not None:
        edit(cat)
    return catalog._mo_bytes(cat)


def _problems_with_mo(monkeypatch, tmp_path, data: bytes) -> list[str]:
    from companion import catalog
    mo = tmp_path / "companion.mo"
    mo.write_bytes(data)
    monkeypatch.setattr(catalog, "mo_path", lambda lang: mo)
    return catalog.problems()


@pytest.mark.parametrize("version", ["2.18.0", "2.19.0", "99.1"])
def test_a_mo_written_by_another_babel_version_or_day_is_the_same_catalog(monkeypatch, tmp_path, version):
    data = _compiled_fr(monkeypatch, version)
    assert f"Generated-By: Babel {version}".encode() in data  # the header really differs
    assert _problems_with_mo(monkeypatch, tmp_path, data) == []


def test_a_mo_missing_a_translation_still_fails(monkeypatch, tmp_path):
    def drop(cat):
        victim = next(m for m in cat if m.id and isinstance(m.id, str))
        cat.delete(victim.id, context=victim.context)
    data = _compiled_fr(monkeypatch, "2.19.0", drop)
    assert any("not compiled from its .po" in p for p in _problems_with_mo(monkeypatch, tmp_path, data))


def test_a_mo_with_a_wrong_translation_still_fails(monkeypatch, tmp_path):
    def spoil(cat):
        victim = next(m for m in cat if m.id and isinstance(m.id, str))
        victim.string = victim.string + " (faux)"
    data = _compiled_fr(monkeypatch, "2.18.0", spoil)
    assert any("not compiled from its .po" in p for p in _problems_with_mo(monkeypatch, tmp_path, data))


def test_a_mo_with_another_plural_rule_still_fails(monkeypatch, tmp_path):
    def other_rule(cat):
        cat._num_plurals, cat._plural_expr = 1, "0"  # one plural form instead of French's two
    data = _compiled_fr(monkeypatch, "2.18.0", other_rule)
    assert b"Plural-Forms: nplurals=1" in data
    assert any("not compiled from its .po" in p for p in _problems_with_mo(monkeypatch, tmp_path, data))


def test_text_that_meets_a_scroll_bar_is_counted():
    """Once "Alexandra" in the auction list and the bid picker's "0/1" ended one
    column before the scroll mark (their cells reached column 126) and were not
    counted. A text whose cells reach the column beside a scroll mark, in rows the
    mark runs along, is counted, drawn before or after the mark."""
    CLIPS.reset()
    c = Canvas()
    c.row(0, "A gL bM rS Alexandra")  # 20 characters from x=7: cells up to column 126
    c.row(1, "short")
    c.scrollbar(0, 5, 9)
    c.row(2, "B gL bM rS Alexandra")
    assert CLIPS.count == 2 and CLIPS.examples == ["A gL bM rS Alexandra", "B gL bM rS Alexandra"]
    CLIPS.reset()
    c = Canvas()
    c.row(0, "A gL bM rS Alexandr")  # 19: a free cell before the mark
    c.title("Title", "1/9")  # the title's right tag is above the mark
    c.scrollbar(0, 5, 9)
    assert CLIPS.count == 0
    c = Canvas()
    c.row(0, "A gL bM rS Alexandra")  # no scroll mark: the last column is free
    assert CLIPS.count == 0
