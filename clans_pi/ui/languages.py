"""Switching the language of the screens, and remembering the start screen's choice.

A language is used only when it can be shown whole: its compiled catalogue is there
(:func:`clans_pi.i18n.set_language`) and, for Japanese, a font that draws it
(:mod:`clans_pi.ui.fonts`). Otherwise English is shown and the reason is returned (for the
log and a notice), never a traceback or tofu boxes.

The choice made on the start screen is kept in the state directory
(:class:`clans_pi.settings.language.LanguageFile`), so it survives restarts; it wins over the
settings file's ``language``.
"""

from __future__ import annotations

from .. import i18n
from ..settings.language import FILE_NAME as FILE_NAME
from ..settings.language import LanguageFile as LanguageFile
from . import canvas, fonts


def use(code: str) -> str | None:
    """Show everything in ``code`` from now on: its catalogue and its font. Returns None, or
    why English is shown instead."""
    path, problem = fonts.face_for(code)
    if problem is not None:
        i18n.set_language("en")
        canvas.set_face(None)
        return f"{i18n.ENGLISH_NAMES[code]} ({code}): {problem}"
    problem = i18n.set_language(code)
    canvas.set_face(path if problem is None else None)
    return problem


def unavailable(code: str) -> str | None:
    """Why ``code`` cannot be offered now (None: it can): no font that draws it, or no
    compiled catalogue. Checks without switching."""
    if code not in i18n.LANGUAGES:
        return f"unknown language {code!r}"
    if fonts.face_for(code)[1] is not None:
        return "font"
    if code != "en" and not (i18n.LOCALE_DIR / code / "LC_MESSAGES"
                             / f"{i18n.DOMAIN}.mo").is_file():
        return "catalogue"
    return None
