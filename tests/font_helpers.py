"""The fonts the tests draw with, whatever the machine has installed: the Japanese face is
the dev extra's Noto Sans CJK JP (``noto-cjk-sans-jp-regular``), pinned for every test by
``tests/conftest.py`` through ``CLANS_PI_CJK_FONT``; machines' faces (Droid Sans Fallback,
which lacks Latin letters and digits) are made from it by :func:`font_without`."""

from __future__ import annotations

import os
import string
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from clans_pi.ui import fonts

#: The pinned Japanese face (None when the dev extra is not installed: pytest then refuses to
#: start, tests/conftest.py).
PINNED_CJK = fonts._package_font()

#: What Droid Sans Fallback lacks: ASCII's letters, digits and punctuation, and Latin-1.
LATIN_AND_DIGITS = "".join(c for c in string.printable if not c.isspace()) + "".join(
    chr(c) for c in range(0xC0, 0x180))


def font_without(chars: str, dest: Path) -> str:
    """A copy of the pinned Japanese face at ``dest`` whose character map lacks ``chars``
    (its glyphs stay; only the cmap is rewritten, so it takes a fraction of a second)."""
    from fontTools.ttLib import TTFont

    assert PINNED_CJK is not None, "the dev extra's noto-cjk-sans-jp-regular is missing"
    font = TTFont(PINNED_CJK, lazy=True, recalcBBoxes=False, recalcTimestamp=False)
    drop = {ord(c) for c in chars}
    for table in font["cmap"].tables:
        for code in [c for c in table.cmap if c in drop]:
            del table.cmap[code]
    for tag in [t for t in font.tables if t != "cmap"]:
        del font.tables[tag]  # written back as read: nothing but the cmap is recompiled
    font.save(str(dest))
    return str(dest)
