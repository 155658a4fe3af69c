"""The words on the screens, in the table's language: one gettext catalog.

Every text the screens, the console's human lines and the exports' headings
show goes through this module::

    from companion.i18n import _, ngettext, N_

    c.title(_("New game"))
    c.row(0, ngettext("{n} point", "{n} points", n).format(n=n))

    KINDS = {"tree": N_("TREE")}   # marked at import, translated at draw time
    c.text(0, 0, _(KINDS["tree"]))

The catalogs are ``companion/locale/<lang>/LC_MESSAGES/companion.po``; their
compiled ``.mo`` files ship in the package (the device needs nothing more at
run time). ``python -m companion.catalog`` extracts, updates and compiles
them (Babel, a development tool). Records, the journal and move texts are the
engines' vocabulary and never go through here.

The language is chosen by the ``language`` setting (``en`` or ``fr``); unset,
the environment's locale when it is one of those, else English.
``set_language`` takes effect at the next ``_()`` call: screens translate
when they draw, so a change shows from the next screen on without a restart.
"""
from __future__ import annotations

import gettext as _gettext
import os
from functools import lru_cache
from pathlib import Path

__all__ = ["LANGUAGES", "DOMAIN", "LOCALE_DIR", "_", "N_", "ngettext", "pgettext",
           "set_language", "language", "language_from_env", "resolve_language"]

DOMAIN = "companion"
LOCALE_DIR = Path(__file__).with_name("locale")

LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français"}
"""The languages the device speaks, each named in itself (Settings shows these)."""

_current = "en"


class PseudoTranslations(_gettext.NullTranslations):
    """The test language ``qps``: every marked text comes back with each ASCII
    letter swapped for an accented look-alike of the same width (``{fields}``
    kept), so a test that plays in it finds any text drawn without the
    catalog: its ASCII words are still there."""

    _MAP = str.maketrans("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                         "àƀçđéƒĝĥíĵķĺḿñóṕɋŕšţúṽŵẋýžÀƁÇĐÉƑĜĤÍĴĶĹḾÑÓṔɊŔŠŢÚṼŴẊÝŽ")

    @classmethod
    def pseudo(cls, message: str) -> str:
        out, depth = [], 0
        for ch in message:
            depth += ch == "{"
            out.append(ch if depth else ch.translate(cls._MAP))
            depth -= ch == "}" and depth > 0
        return "".join(out)

    def gettext(self, message: str) -> str:
        return self.pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return self.pseudo(message)


PSEUDO = "qps"
"""The pseudo-language of the tests (``PseudoTranslations``); never offered on the device."""


@lru_cache(maxsize=None)
def _translation(lang: str) -> _gettext.NullTranslations:
    if lang == "en":
        return _gettext.NullTranslations()
    if lang == PSEUDO:
        return PseudoTranslations()
    try:
        return _gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang])
    except OSError:  # a catalog missing from a broken install: English, never a crash
        return _gettext.NullTranslations()


def language_from_env(environ: "os._Environ[str] | dict[str, str] | None" = None) -> str:
    """``en`` or ``fr`` from LANGUAGE / LC_ALL / LC_MESSAGES / LANG, else ``en``."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        for part in value.split(":"):
            code = part.split(".")[0].split("_")[0].split("@")[0].lower()
            if code in LANGUAGES:
                return code
            if code and code not in ("c", "posix"):
                return "en"
    return "en"


def resolve_language(setting: str | None) -> str:
    """The language a ``language`` setting means: itself when known, else the environment's."""
    s = (setting or "").strip().lower()
    return s if s in LANGUAGES else language_from_env()


def set_language(lang: str | None) -> str:
    """Speak ``lang`` (``en``/``fr``; empty or unknown: from the environment) from now on."""
    global _current
    _current = PSEUDO if lang == PSEUDO else resolve_language(lang)
    return _current


def language() -> str:
    """The language in use now."""
    return _current


def _(message: str) -> str:
    """``message`` in the language in use."""
    return _translation(_current).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n`` in the language in use (French puts 0 and 1 in
    the singular, English only 1)."""
    return _translation(_current).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in ``context`` (the same English word that French says two ways)."""
    return _translation(_current).pgettext(context, message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it now (module constants)."""
    return message
