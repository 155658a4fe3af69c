"""Keep the message catalogs in step with the code (a development tool).

    python -m companion.catalog            # extract, update every .po, compile the .mo files
    python -m companion.catalog --check    # exit 1 and list what is missing or stale

It needs Babel (the ``dev`` and ``test`` extras); the device never runs it:
the compiled ``.mo`` files are committed and ship in the package.

* extract: every ``_()``, ``N_()``, ``ngettext()`` and ``pgettext()`` in
  ``companion/`` becomes a message of ``companion/locale/companion.pot``;
* update: each ``<lang>/LC_MESSAGES/companion.po`` gets the new messages
  (untranslated) and drops the ones the code no longer has;
* compile: each ``.po`` becomes its ``.mo``.

The files hold no source locations and are sorted by message, so two
branches that add different texts touch different lines (``--check`` names
where a missing text is used).

``--check`` fails when a message has no translation (or a fuzzy one), or one
with a ``{field}`` the English text lacks (formatting it would crash), when a
``.po`` has not been updated since the code changed, or when a ``.mo`` is not
what its ``.po`` compiles to.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import gettext
import io
import re
import sys
from pathlib import Path

from .i18n import DOMAIN, LANGUAGES, LOCALE_DIR

PACKAGE_DIR = Path(__file__).parent
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
POT = LOCALE_DIR / f"{DOMAIN}.pot"
FIELD = re.compile(r"\{([^{}]*)\}")  # str.format fields, as the screens fill them


def _babel():
    try:
        # Babel is a dev extra, never on the device: a clear message without it
        from babel.messages import extract, mofile, pofile
        from babel.messages.catalog import Catalog
    except ImportError as e:  # pragma: no cover - a dev machine without the extras
        raise SystemExit(f"catalog: Babel is needed ({e}); pip install -e '.[dev]'") from None
    return extract, mofile, pofile, Catalog


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return po_path(lang).with_suffix(".mo")


def extract_template():
    """The catalog of every message the code marks, in a stable order."""
    extract, _mo, _po, Catalog = _babel()
    cat = Catalog(project="pyramid-companion", domain=DOMAIN, charset="utf-8")
    found = extract.extract_from_dir(
        str(PACKAGE_DIR), method_map=[("**.py", "python")], keywords=KEYWORDS,
        comment_tags=("TRANSLATORS:",), strip_comment_tags=True)
    for filename, lineno, message, comments, context in found:
        if "catalog.py" in filename:
            continue
        cat.add(message, None, [(f"companion/{filename}", lineno)],
                auto_comments=comments, context=context)
    return cat


def _po_bytes(cat) -> bytes:
    _ex, _mo, pofile, _C = _babel()
    buf = io.BytesIO()
    pofile.write_po(buf, cat, width=100, sort_output=True, omit_header=False, no_location=True,
                    ignore_obsolete=True, include_previous=False)
    return buf.getvalue()


def _mo_bytes(cat) -> bytes:
    _ex, mofile, _po, _C = _babel()
    buf = io.BytesIO()
    mofile.write_mo(buf, cat, use_fuzzy=False)
    return buf.getvalue()


def _read_po(lang: str):
    _ex, _mo, pofile, Catalog = _babel()
    p = po_path(lang)
    if not p.exists():
        return Catalog(locale=lang, domain=DOMAIN, project="pyramid-companion", charset="utf-8")
    with open(p, "rb") as f:
        return pofile.read_po(f, locale=lang, domain=DOMAIN)


def _updated(template, lang: str):
    cat = _read_po(lang)
    cat.update(template, no_fuzzy_matching=True)
    cat.obsolete.clear()
    cat.fuzzy = False
    cat.last_translator = "Pyramid Table Companion developers"
    cat.language_team = f"{LANGUAGES[lang]} <{lang}>"
    cat.revision_date = cat.creation_date = template.creation_date = _FIXED_DATE
    return cat


# Dates in headers would make every run a diff: the catalogs carry a fixed one.
_FIXED_DATE = _dt.datetime(2026, 1, 1, tzinfo=_dt.timezone.utc)


def _ids(cat) -> set:
    return {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in cat if m.id}


# Header fields that say which tool wrote a catalog and when, not what it says: a .mo
# written by another Babel version, or on another day, is still the same catalog (issue 31).
TOOL_FIELDS = frozenset({"generated-by", "pot-creation-date", "po-revision-date", "x-generator"})


def _header_fields(text: str) -> dict[str, str]:
    """The header message's ``Name: value`` lines, names lower-cased, less ``TOOL_FIELDS``."""
    out = {}
    for line in text.splitlines():
        name, sep, value = line.partition(":")
        if sep and name.strip().lower() not in TOOL_FIELDS:
            out[name.strip().lower()] = value.strip()
    return out


def _mo_catalog(data: bytes) -> dict:
    """A compiled catalog as a comparable value: every message, and the header's fields
    that matter (language, charset, plural rule) without those of ``TOOL_FIELDS``."""
    # _catalog (the parsed messages) is private, so typeshed does not declare it
    messages = dict(gettext.GNUTranslations(io.BytesIO(data))._catalog)  # type: ignore[attr-defined]
    if "" in messages:
        messages[""] = _header_fields(messages[""])
    return messages


def _rel(path: Path) -> str:
    """``path`` from the repository's top when it is in it (messages stay short)."""
    try:
        return str(path.relative_to(PACKAGE_DIR.parent))
    except ValueError:
        return str(path)


def problems() -> list[str]:
    """What ``--check`` reports: untranslated or fuzzy messages, stale .po or .mo files.

    Compared by content, not bytes, so another Babel version's headers do not count."""
    template = extract_template()
    out: list[str] = []
    for lang in LANGUAGES:
        if lang == "en":
            continue
        cat = _updated(template, lang)
        if not po_path(lang).exists() or _ids(_read_po(lang)) != _ids(template):
            out.append(f"{_rel(po_path(lang))}: not updated from the code "
                       f"(run python -m companion.catalog)")
        for msg in cat:
            if not msg.id:
                continue
            ident = msg.id if isinstance(msg.id, str) else msg.id[0]
            strings = msg.string if isinstance(msg.string, (tuple, list)) else (msg.string,)
            if msg.fuzzy or not all(strings):
                where = ", ".join(f"{f}:{n}" for f, n in msg.locations[:2])
                out.append(f"{lang}: no translation for {ident!r} ({where})")
                continue
            # a {field} the English text does not have would raise KeyError when the screen
            # formats it: the device would crash in that language only
            ids = msg.id if isinstance(msg.id, (tuple, list)) else (msg.id,)
            known = {f for i in ids for f in FIELD.findall(i)}
            for text in strings:
                extra = set(FIELD.findall(text)) - known
                if extra:
                    out.append(f"{lang}: {ident!r} is translated with field(s) {sorted(extra)} "
                               f"it does not have: {text!r}")
        if not mo_path(lang).exists() or (_mo_catalog(mo_path(lang).read_bytes())
                                           != _mo_catalog(_mo_bytes(_read_po(lang)))):
            out.append(f"{_rel(mo_path(lang))}: not compiled from its .po")
    return out


def write_all() -> None:
    template = extract_template()
    template.creation_date = _FIXED_DATE
    POT.parent.mkdir(parents=True, exist_ok=True)
    POT.write_bytes(_po_bytes(template))
    for lang in LANGUAGES:
        if lang == "en":
            continue
        cat = _updated(template, lang)
        po_path(lang).parent.mkdir(parents=True, exist_ok=True)
        po_path(lang).write_bytes(_po_bytes(cat))
        mo_path(lang).write_bytes(_mo_bytes(_read_po(lang)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m companion.catalog", description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="report, change nothing; exit 1 on a problem")
    args = ap.parse_args(argv)
    if args.check:
        found = problems()
        for p in found:
            print(p)
        print(f"catalog: {len(found)} problem(s)" if found else "catalog: complete")
        return 1 if found else 0
    write_all()
    print(f"catalog: wrote {POT.relative_to(PACKAGE_DIR.parent)} and "
          + ", ".join(str(po_path(lg).relative_to(PACKAGE_DIR.parent)) for lg in LANGUAGES if lg != "en"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
