"""Which language the table speaks: the start screen's choice, remembered in the state
directory (``language``, one line with the code) so it survives restarts, else the settings
file's ``language``. The choice wins over the settings. A file that cannot be read or holds
no known code is logged and ignored.

Pygame-free: the screen (:mod:`clans_pi.ui.languages`, which also switches the font) and the
headless game take the choice from here.
"""

from __future__ import annotations

import logging
from pathlib import Path

from .. import i18n
from ..saving.files import FileError, FileMissing, read_text, write_atomic

log = logging.getLogger(__name__)

FILE_NAME = "language"
#: The file holds one short code; anything longer than this is not a choice.
LIMIT = 1024


def chosen_language(settings_language: str, state_dir: Path | None) -> str:
    """The code the table uses: the start screen's remembered choice in ``state_dir``, else
    ``settings_language``."""
    remembered = LanguageFile(state_dir / FILE_NAME).read() if state_dir is not None else None
    return remembered or settings_language


class LanguageFile:
    """The remembered choice: ``state_dir/language``."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> str | None:
        """The remembered code, or None (no file yet, or a bad one: logged)."""
        try:
            text = read_text(self.path, limit=LIMIT).strip()
        except FileMissing:
            return None
        except FileError as exc:
            log.warning("%s: cannot read the remembered language (%s); the settings' "
                        "language is used", self.path, exc.problem)
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
