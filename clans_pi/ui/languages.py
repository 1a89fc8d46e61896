"""Switching the language of the screens, and remembering the start screen's choice.

A language is used only when it can be shown whole: its compiled catalogue is there
(:func:`clans_pi.i18n.set_language`) and, for Japanese, a font that draws it
(:mod:`clans_pi.ui.fonts`). Otherwise English is shown and the reason is returned (for the
log and a notice), never a traceback or tofu boxes.

The choice made on the start screen is kept in the state directory (``language``, one line
with the code), so it survives restarts; it wins over the settings file's ``language``. A
file that cannot be read or holds no known code is logged and ignored.
"""

from __future__ import annotations

import logging
from pathlib import Path

from .. import i18n
from ..files import write_atomic
from . import canvas, fonts

log = logging.getLogger(__name__)

FILE_NAME = "language"


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


class LanguageFile:
    """The remembered choice: ``state_dir/language``."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> str | None:
        """The remembered code, or None (no file yet, or a bad one: logged)."""
        try:
            text = self.path.read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            return None
        except (OSError, UnicodeError) as exc:
            log.warning("%s: cannot read the remembered language (%s); the settings' "
                        "language is used", self.path, exc)
            return None
        if text not in i18n.LANGUAGES:
            log.warning("%s: %r is not a language (one of %s); the settings' language is "
                        "used", self.path, text[:40], ", ".join(i18n.LANGUAGES))
            return None
        return text

    def write(self, code: str) -> None:
        """Remember ``code`` (atomically, as the saved game is written). A disk that fails
        is logged; the game goes on in the chosen language."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, code + "\n")
        except OSError as exc:
            log.warning("%s: cannot remember the language (%s)", self.path, exc)
