"""Every string of a phone seat's page itself, in the language in use: its words (from the
hello), a refused link's, the clans' names, the digits and signs its script writes (a
place, the chart's percentages, the give-aways' numbers), and its files' static text. The
end's chart brings its own (:func:`clans_pi.history.hiding.chart_words`).

The page's font is made from both in every language (scripts/make/phone_font.py), and
tests/faults/test_phone_page.py checks the served font holds every character of them.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from importlib import resources

from ..i18n import _
from ..palette import CLAN_LABEL
from .server import page_texts, refusal_texts

__all__ = ["page_words", "static_words"]

#: What the page's script writes itself: a place and a number of players, the chart's
#: percentages, the give-aways' numbers.
DIGITS = "0123456789 %"


def page_words() -> list[str]:
    """Every string of the page itself in the language in use."""
    return [*page_texts(True).values(), *page_texts(False).values(),
            *refusal_texts().values(), *(_(label) for label in CLAN_LABEL.values()), DIGITS,
            *static_words()]


def static_words() -> list[str]:
    """The text the page's files hold before the table's words come (English): the HTML's
    text and the script's string literals."""
    page = resources.files(__package__).joinpath("page")
    out = []
    for name in ("phone.html", "refused.html"):
        reader = _Text()
        reader.feed(page.joinpath(name).read_text(encoding="utf-8"))
        out += reader.text
    script = page.joinpath("phone.js").read_text(encoding="utf-8")
    out += re.findall(r'"((?:[^"\\\n]|\\.)*)"', script)
    return out


class _Text(HTMLParser):
    """An HTML page's text, outside its scripts and styles, and its attributes' words."""

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        self.text += [value for name, value in attrs if name in ("alt", "title") and value]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.text.append(data)
