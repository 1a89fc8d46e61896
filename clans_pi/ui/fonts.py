"""Which font file draws the text: pygame's bundled font for the Latin languages, a
CJK-capable font found on the system for Japanese.

The bundled font (freesansbold) has every letter English, German, French and Italian need
(umlauts, accents, ß, œ, guillemets, curly quotes: tested) but no Japanese. For Japanese
the lookup tries, in order: ``CLANS_PI_CJK_FONT`` (a file), the paths where Debian's
fonts-noto-cjk puts its fonts (the Pi installer and the image add that package),
``fc-match :lang=ja``, and last an installed ``noto-cjk-sans-jp-regular`` package (the
project's dev extra; the tests pin it through ``CLANS_PI_CJK_FONT``). A candidate counts
only if it really draws Japanese, and the first that draws everything the Japanese screens
hold (every character of the catalogue, Latin letters with the names' accents, digits,
punctuation: :func:`needed`) is taken. ``fc-match`` may answer one that lacks Latin letters
and digits (Droid Sans Fallback, which ImageMagick and Ghostscript pull in): when no
candidate draws everything, the first whose gaps the bundled font fills is taken, and
:mod:`clans_pi.ui.canvas` draws those characters in the bundled font, run by run. With none,
Japanese is not offered: English is shown and the reason is logged (never tofu boxes).
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import os
import shutil
import string
import struct
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from .. import i18n
from .canvas import missing_glyphs

log = logging.getLogger(__name__)

#: Languages written with CJK characters: the bundled font cannot draw them.
CJK_LANGUAGES: Final = frozenset({"ja"})
#: Where Debian / Raspberry Pi OS's fonts-noto-cjk (and its relatives) put a Japanese face.
KNOWN_PATHS: Final = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJKjp-Regular.otf",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Medium.ttc",
    "/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/ipafont-gothic/ipagp.ttf",
    "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",
)
FONT_PACKAGE: Final = "noto_cjk_sans_jp_regular"
INSTALL_HINT: Final = "sudo apt install fonts-noto-cjk"
_PROBE: Final = "日本語の村と小屋"
#: What every language's screens may show besides its catalogue: printable ASCII (names,
#: digits, roman epoch numerals, punctuation) and the accented letters of the names'
#: keyboard (Latin-1's letters and Œ œ).
LATIN: Final = "".join(
    sorted(set(string.printable) - set(string.whitespace)
           | {chr(c) for c in range(0xC0, 0x100) if chr(c).isalpha()} | set("Œœ")))


def has_japanese(path: str | os.PathLike[str]) -> bool:
    """True if the font file at ``path`` loads and has a glyph for Japanese (fc-match may
    answer a font without any)."""
    try:
        return not missing_glyphs(_PROBE, os.fspath(path))
    except (OSError, RuntimeError, ValueError):  # pygame.error is a RuntimeError
        return False


@functools.lru_cache(maxsize=8)
def needed(language: str) -> str:
    """Every character ``language``'s screens may show: its compiled catalogue's
    translations and :data:`LATIN` (the catalogue missing: a probe of Japanese instead)."""
    chars = set(LATIN) | set(_PROBE)
    mo = i18n.LOCALE_DIR / language / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo"
    try:
        from babel.messages.mofile import read_mo

        with open(mo, "rb") as f:
            catalog = read_mo(f)
    except (OSError, ValueError, struct.error) as exc:  # missing, or damaged
        log.debug("%s: cannot read the catalogue (%s); checking the fonts for a probe", mo,
                  exc)
        return "".join(sorted(chars))
    for m in catalog:
        if m.id:
            forms = m.string if isinstance(m.string, list | tuple) else (m.string,)
            for form in forms:
                chars |= set(form or "")
    return "".join(sorted(ch for ch in chars if not ch.isspace()))


def _fc_match() -> str | None:
    if shutil.which("fc-match") is None:
        return None
    try:
        out = subprocess.run(["fc-match", "-f", "%{file}", ":lang=ja"], capture_output=True,
                             text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def _package_font() -> str | None:
    spec = importlib.util.find_spec(FONT_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        for found in sorted(Path(folder).glob("*.otf")):
            return str(found)
    return None


def candidates() -> Iterable[str]:
    """Font files to try for Japanese, best first (see the module docstring)."""
    env = os.environ.get("CLANS_PI_CJK_FONT")
    if env:
        yield env
    yield from (p for p in KNOWN_PATHS if os.path.isfile(p))
    matched = _fc_match()
    if matched:
        yield matched
    packaged = _package_font()
    if packaged:
        yield packaged


@functools.lru_cache(maxsize=1)
def cjk_font() -> str | None:
    """The first candidate that draws everything Japanese needs; else the first that draws
    Japanese and whose gaps the bundled font fills (it draws those); else None. Looked up
    once."""
    need = needed("ja")
    tried: list[str] = []
    second: tuple[str, str] | None = None
    for path in candidates():
        if not has_japanese(path):
            tried.append(f"{path} (no Japanese, or not a font)")
            continue
        lacking = missing_glyphs(need, path)
        if not lacking:
            log.info("Japanese text uses the font %s", path)
            return path
        unfilled = missing_glyphs(lacking, None)  # the bundled font cannot draw them either
        if second is None and not unfilled:
            second = (path, lacking)
        tried.append(f"{path} (lacks {_shown(unfilled or lacking)})")
    if second is not None:
        path, lacking = second
        log.info("Japanese text uses the font %s, and the bundled font for the %d characters "
                 "it lacks (%s)", path, len(lacking), _shown(lacking))
        return path
    log.warning("no font with Japanese characters (tried: %s); Japanese is not offered "
                "(install one: %s)", ", ".join(tried) or "none found", INSTALL_HINT)
    return None


def _shown(chars: str, most: int = 12) -> str:
    return repr(chars if len(chars) <= most else chars[:most] + "…")


def face_for(language: str) -> tuple[str | None, str | None]:
    """(font file for ``language`` (None: the bundled font), a reason when ``language``
    cannot be drawn: then English must be shown instead)."""
    if language not in CJK_LANGUAGES:
        return None, None
    path = cjk_font()
    if path is None:
        return None, (f"no font with Japanese characters was found (install one: "
                      f"{INSTALL_HINT}); English is shown")
    return path, None
