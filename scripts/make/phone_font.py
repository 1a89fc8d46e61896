#!/usr/bin/env python3
"""The phone page's own font, clans_pi/phones/page/phone-font.woff: a subset of Noto Sans
CJK JP Regular (SIL Open Font License; the project's dev extra installs it as
``noto-cjk-sans-jp-regular``) holding every letter of every string the page can show in the
five languages (:func:`strings`: its words, the clans' names, the end's chart and
give-aways), and the Latin letters of players' names, so that every phone
and every test machine draws the page with the same letters (a character outside it, in a
name, is drawn by the phone's own font).

    python scripts/make/phone_font.py          write the font (after changing page words)
    python scripts/make/phone_font.py --check  exit 1 if a word the page shows is missing

tests/faults/test_phone_page.py checks the font served holds every character of them.
"""

from __future__ import annotations

import argparse
import string
import sys
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from clans_pi import i18n  # noqa: E402
from clans_pi.history.hiding import chart_words  # noqa: E402
from clans_pi.phones.words import page_words  # noqa: E402

OUT = ROOT / "clans_pi" / "phones" / "page" / "phone-font.woff"
LANGUAGES = tuple(i18n.LANGUAGES)
#: Names and numbers: printable ASCII, Latin-1's letters, Œ œ, and typographic punctuation.
LATIN = ("".join(sorted(set(string.printable) - set(string.whitespace))) + " "
         + "".join(chr(c) for c in range(0xA0, 0x100)) + "Œœ"
         # typographic quotes, dashes, the ellipsis, bullet, guillemets, the euro sign
         + "".join(map(chr, (0x2018, 0x2019, 0x201A, 0x201C, 0x201D, 0x201E, 0x2026, 0x2013,
                             0x2014, 0x2022, 0x2039, 0x203A, 0x20AC))))


def strings(code: str) -> list[str]:
    """Every string the page can show in language ``code``: the page's own
    (:func:`clans_pi.phones.words.page_words`: its words, the refusals', the clans' names,
    digits, its static text) and its end chart's (:func:`clans_pi.history.hiding.chart_words`:
    title, labels, verdicts, every kind of give-away)."""
    i18n.set_language(code)
    try:
        return [*page_words(), *chart_words()]
    finally:
        i18n.set_language("en")


def words() -> str:
    """Every character the page may show: :func:`strings` in each language, and
    :data:`LATIN`."""
    chars = set(LATIN).union(*("".join(strings(code)) for code in LANGUAGES))
    return "".join(sorted(c for c in chars if not c.isspace() or c == " "))


def make() -> bytes:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    source = resources.files("noto_cjk_sans_jp_regular").joinpath("NotoSansCJKjp-Regular.otf")
    options = subset.Options()
    options.flavor = "woff"  # zlib: no brotli needed
    options.layout_features = ["kern", "liga", "locl", "palt", "vert"]
    options.name_IDs = ["*"]  # the licence and the copyright stay with the font
    options.notdef_outline = True
    options.hinting = False
    with source.open("rb") as f:
        font = TTFont(f, recalcTimestamp=False)  # the same bytes each time
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=words())
    subsetter.subset(font)
    import io

    out = io.BytesIO()
    font.flavor = "woff"
    font.save(out)
    return out.getvalue()


def missing(woff: bytes) -> str:
    import io

    from fontTools.ttLib import TTFont

    cmap = TTFont(io.BytesIO(woff)).getBestCmap()
    return "".join(c for c in words() if ord(c) not in cmap and c != " ")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    if args.check:
        gaps = missing(OUT.read_bytes())
        if gaps:
            print(f"{OUT.name} lacks {gaps!r}: run scripts/make/phone_font.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_bytes(make())
    print(f"{OUT.relative_to(ROOT)}: {OUT.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
