"""The language of everything shown to players (gettext).

Sources are the ``.po`` catalogues in ``clans_pi/locale/<lang>/LC_MESSAGES/clans_pi.po``
(English is the source language: its text is the message id). The compiled ``.mo`` files
are built at install from the ``.po`` files, never edited or committed.

Use ``_("text")`` where a string is shown, ``N_("text")`` to mark a module-level string
for extraction (translate it with ``_()`` where it is shown), ``ngettext(one, many, n)`` for
counts. Placeholders are named: ``_("{name} moves").format(name=...)``.
"""

from __future__ import annotations

import functools
import gettext as _gettext
from collections.abc import Callable
from pathlib import Path
from typing import Final

__all__ = ["DOMAIN", "ENGLISH_NAMES", "LANGUAGES", "LOCALE_DIR", "N_", "_", "gettext_in",
           "language", "ngettext", "set_language"]


DOMAIN: Final = "clans_pi"
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
#: Each language's code and its own name for itself (shown on the language buttons).
LANGUAGES: Final[dict[str, str]] = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "it": "Italiano",
    "ja": "日本語",
}
#: Each language's English name, for messages shown in English (the bundled font has no
#: Japanese: "日本語" in an English message would be drawn as boxes).
ENGLISH_NAMES: Final[dict[str, str]] = {
    "en": "English",
    "de": "German",
    "fr": "French",
    "it": "Italian",
    "ja": "Japanese",
}

_translations: _gettext.NullTranslations = _gettext.NullTranslations()
_language = "en"


def set_language(code: str) -> str | None:
    """Show everything in ``code`` from now on. Returns None, or a short message saying
    why English is shown instead (an unknown code, or no compiled catalogue)."""
    global _translations, _language
    found = _catalogue(code)
    if found is None:
        _translations, _language = _gettext.NullTranslations(), "en"
        if code not in LANGUAGES:
            return f"unknown language {code!r}: one of {', '.join(LANGUAGES)}; English is shown"
        return (f"no compiled catalogue for {ENGLISH_NAMES[code]} ({code}) in {LOCALE_DIR}; "
                "English is shown (./scripts/play or the installer compiles them)")
    _translations, _language = found, code
    return None


def _catalogue(code: str) -> _gettext.NullTranslations | None:
    """The translations of ``code`` (none for English), or None for an unknown code or a
    language whose catalogue is not compiled."""
    if code not in LANGUAGES:
        return None
    if code == "en":
        return _gettext.NullTranslations()
    try:
        return _gettext.translation(DOMAIN, LOCALE_DIR, languages=[code])
    except OSError:
        return None


def language() -> str:
    """The code of the language in use."""
    return _language


def _(message: str) -> str:
    """``message`` in the language in use."""
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the language in use."""
    return _translations.ngettext(singular, plural, n)


@functools.cache
def gettext_in(code: str) -> Callable[[str], str]:
    """:func:`_` for the language ``code`` rather than the one in use (English where its
    catalogue is not compiled): to know words written in another language, such as the
    default names a game played in it kept."""
    found = _catalogue(code)
    return (found if found is not None else _gettext.NullTranslations()).gettext


def N_(message: str) -> str:
    """Mark ``message`` for extraction only; translate it with :func:`_` where shown."""
    return message
