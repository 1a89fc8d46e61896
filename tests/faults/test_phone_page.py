"""The phone page's faults at the end of a game: a small phone, a long chart in Japanese,
and letters the page's own font lacks.

The end page runs in Debian's Chromium, headless, driven by Playwright (one browser for
the file, one page a case), served by the real server on loopback; the font is read with
fontTools."""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from clans_pi import i18n
from clans_pi.history.hiding import MoveFacts, PlayerHiding
from clans_pi.palette import CLAN_LABEL, mark_of
from clans_pi.phones.server import PhoneHub, PhoneSeat, PhoneServer
from clans_pi.phones.tokens import SeatTokens
from tests.faults import fault
from tests.i18n_helpers import language

SIZES = [(320, 568), (360, 640), (390, 844)]
LANGUAGES = ["en", "ja"]
#: Seats enough for one a case (a page of its own, never a second phone on a seat).
SEATS = 64

#: What the page shows at the end, one box each: none may overlap another.
PARTS = ["#name", "#picture", "#result .swatch", "#result .result", "#result .hiding h2",
         "#result .hiding .note", "#result .hiding svg", "#result .hiding .verdict",
         "#result .hiding li"]

# The boxes of the visible parts, the chart's words, its dots and its lines, measured in
# the page scrolled to its top (the SVG's own in its viewBox, a stroke's half included).
MEASURE = """(parts) => {
  window.scrollTo(0, 0);
  const box = (e) => { const r = e.getBoundingClientRect();
    return {x: r.left, y: r.top, w: r.width, h: r.height, what: e.id || e.className.baseVal
            || e.className || e.tagName, text: e.textContent}; };
  const shown = [];
  for (const sel of parts) {
    for (const e of document.querySelectorAll(sel)) {
      if (e.getClientRects().length) shown.push(box(e));
    }
  }
  const svg = document.querySelector("#result .hiding svg");
  const view = svg ? svg.viewBox.baseVal : null;
  const inView = [];
  if (svg) {
    for (const e of svg.querySelectorAll("polyline, circle, text")) {
      const b = e.getBBox();
      const half = parseFloat(getComputedStyle(e).strokeWidth || "0") / 2;
      inView.push({what: e.getAttribute("class") || e.tagName, text: e.textContent,
                   x: b.x - half, y: b.y - half, w: b.width + 2 * half, h: b.height + 2 * half});
    }
  }
  return {shown, inView, view: view && {w: view.width, h: view.height},
          words: svg ? [...svg.querySelectorAll("text")].map(box) : [],
          dots: svg ? [...svg.querySelectorAll(".giveaway")].map((g) => {
            const c = g.tagName === "circle" ? g : g.querySelector("circle");
            return {text: g.textContent, x: +c.getAttribute("cx"), y: +c.getAttribute("cy")};
          }) : [],
          numbers: [...document.querySelectorAll("#result .hiding li .number")].map(
            (e) => e.textContent),
          height: document.scrollingElement.scrollHeight,
          width: document.scrollingElement.scrollWidth,
          view_w: innerWidth, view_h: innerHeight};
}"""


def _reading(giveaways: int) -> PlayerHiding:
    """A three-player game of 12 moves, the player moving 1, 4, 7 and 10: ``giveaways`` of
    its moves raise the table's reading (7 most, then 10, then 4: numbered 1, 2, 3 in that
    order, not from the left), the others' moves the rest, up to 99 % (from move 10 on
    with two give-aways or more: a marked point at 99 %). Its moves' words are the longest
    kind (three clans, a village founded elsewhere on favourable ground)."""
    own = dict(list({7: 0.25, 10: 0.2, 4: 0.15}.items())[:giveaways])
    others = [k for k in (2, 3, 5, 6, 8, 9, 11, 12) if k < 10 or 10 not in own]
    spread = (0.99 - 0.25 - sum(own.values())) / len(others)
    curve, p = [0.25], 0.25
    for k in range(1, 13):
        p += own.get(k, spread if k in others else 0.0)
        curve.append(min(0.99, round(p, 6)))
    moves = (1, 4, 7, 10)
    facts = {k: MoveFacts(("red", "blue", "green"), "mountain", "elsewhere", "grassland",
                          "favourable") for k in moves}
    return PlayerHiding(0, "Anna", "red", {1: tuple(curve), 2: tuple(curve)}, tuple(curve),
                        moves, facts)


def test_the_phone_s_chart_calls_its_first_point_the_deal_as_the_screen_does():
    """The curve's first point is the deal (no move made yet), as the table's chart says;
    the last, the last move."""
    reading = _reading(1)
    for code, deal in (("en", "deal"), ("de", "Verteilung"), ("ja", "配布時")):
        with language(code):
            labels = reading.for_phone()["labels"]
            assert labels["first"] == deal == i18n._("deal"), (code, labels)
            assert labels["last"] == i18n._("move {n}").format(n=len(reading.table) - 1)


@pytest.fixture(scope="module")
def table() -> Iterator[tuple[PhoneHub, str, Iterator[int]]]:
    """One server for the file, a game over: each case takes a seat of its own."""
    from clans_pi.ui.phone_pictures import seat_picture_png

    hub = PhoneHub(SeatTokens.new(range(SEATS)),
                   {k: PhoneSeat("Anna", "fox") for k in range(SEATS)}, lambda seat: None)
    picture = seat_picture_png(0, "fox") or b""
    for k in range(SEATS):
        hub.pictures[k] = picture
    hub.over = True
    server = PhoneServer(hub, "127.0.0.1", 0)
    port = server.start()
    try:
        yield hub, f"http://127.0.0.1:{port}/p/", itertools.count()
    finally:
        server.stop()


def _end_page(chromium: Any, table: Any, size: tuple[int, int], lang: str,
              giveaways: int) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """The end page of a seat that came second of four, red, at ``size`` in ``lang``: the
    page, its measures and the chart the table sent."""
    hub, url, seats = table
    seat = next(seats)
    i18n.set_language(lang)
    try:
        hiding = _reading(giveaways).for_phone()
        hub.results[seat] = {"clan": "red", "label": i18n._(CLAN_LABEL["red"]),
                             "mark": mark_of("red"), "won": False, "place": 2, "players": 4}
        hub.hiding[seat] = hiding
        page = chromium.new_page(viewport={"width": size[0], "height": size[1]},
                                 has_touch=True)
        page.goto(url + hub.tokens.tokens[seat])
        page.wait_for_selector("#result .hiding li" if giveaways else "#result .hiding svg")
    finally:
        i18n.set_language("en")
    page.evaluate("document.fonts.ready")
    page.wait_for_function("document.querySelector('#picture').complete")
    return page, page.evaluate(MEASURE, PARTS), hiding


def _overlap(a: dict[str, float], b: dict[str, float]) -> float:
    """The area two boxes share (0: apart or touching)."""
    w = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return max(0.0, w) * max(0.0, h)


@pytest.mark.slow
@fault("phone", "The end of a game on a small phone (320x568), or a long chart in Japanese",
       sees="the name, the clan, the place and the chart one under the other, the page "
            "scrolling like any other: nothing covers the name, nothing is out of reach",
       kept="the result and the chart, on the phone until the next game")
@pytest.mark.parametrize("giveaways", [0, 1, 2, 3])
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_end_page_flows_one_part_under_the_other_and_scrolls(chromium, table, size, lang,
                                                                  giveaways) -> None:
    page, got, _hiding = _end_page(chromium, table, size, lang, giveaways)
    try:
        shown = got["shown"]
        names = [b["what"] for b in shown]
        assert {"name", "picture", "swatch clan-red mark-horizontal", "result", "note",
                "chart"} <= set(names), names
        for b in shown:  # nothing above the top, nothing off either side
            assert b["y"] >= 0, (b["what"], b["text"][:30], b["y"])
            assert b["x"] >= 0 and b["x"] + b["w"] <= size[0] + 0.5, (b["what"], b["x"], b["w"])
        for a, b in itertools.combinations(shown, 2):
            assert _overlap(a, b) < 1, (a["what"], a["text"][:30], b["what"], b["text"][:30])
        assert got["width"] <= size[0]  # no sideways scrolling
        bottom = max(b["y"] + b["h"] for b in shown)
        assert got["height"] >= bottom  # all of it in reach of the scroll
        page.locator("#result .hiding > :last-child").scroll_into_view_if_needed()
        last = page.locator("#result .hiding > :last-child").bounding_box()
        assert last is not None and last["y"] + last["height"] <= size[1] + 0.5
    finally:
        page.close()


@pytest.mark.slow
@fault("phone", "A reading at 99 %, and give-aways, on the phone's chart",
       sees="the chart as on the table's screen: 0 %, 50 % and 100 % at its side, the "
            "give-aways numbered 1, 2, 3 as in the list under it, a point at 99 % whole",
       kept="the seat's own reading, its give-aways and their words")
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", [(320, 568), (390, 844)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_phone_s_chart_labels_its_percentages_and_numbers_its_giveaways(chromium, table,
                                                                          size, lang) -> None:
    page, got, hiding = _end_page(chromium, table, size, lang, 3)
    try:
        words = [w["text"] for w in got["words"]]
        for label in ("0 %", "50 %", "100 %", *hiding["labels"].values()):
            assert label in words, words
        # Numbered as on the table's screen and as the list under the chart: 1 the move
        # that told the table most (move 7 here), not the first from the left.
        assert [d["text"] for d in got["dots"]] == ["1", "2", "3"]
        assert got["numbers"] == ["1", "2", "3"]
        xs = [d["x"] for d in got["dots"]]
        assert xs[1] > xs[0] > xs[2]  # moves 7, 10, 4
        assert [g["move"] for g in hiding["giveaways"]] == [7, 10, 4]
        assert hiding["giveaways"][1]["after"] == 0.99
        # Nothing of the chart outside its own picture: the point at 99 % is whole.
        view = got["view"]
        for e in got["inView"]:
            assert e["y"] >= 0 and e["x"] >= 0, e
            assert e["y"] + e["h"] <= view["h"] and e["x"] + e["w"] <= view["w"], e
        # Its words apart from each other, readable (11 px at least) and inside the chart.
        svg = next(b for b in got["shown"] if b["what"] == "chart")
        for a, b in itertools.combinations(got["words"], 2):
            if not ({a["what"], b["what"]} & {"giveaway", "number"}):
                assert _overlap(a, b) < 1, (a["text"], b["text"])
        for w in got["words"]:
            assert w["x"] >= svg["x"] and w["x"] + w["w"] <= svg["x"] + svg["w"] + 0.5, w
        sizes = page.evaluate("[...document.querySelectorAll('#result svg text')].map("
                              "(e) => parseFloat(getComputedStyle(e).fontSize) * "
                              "e.getScreenCTM().a)")
        assert min(sizes) >= 11, sizes
    finally:
        page.close()


@fault("phone", "The end of a game in Japanese on a phone whose own fonts have no Japanese",
       sees="every letter of the chart, its give-aways and the page's words in the page's "
            "own font, the same on every phone",
       kept="the page's words in the five languages")
def test_every_character_the_phone_can_show_is_in_its_font() -> None:
    """Every string the page can show in every language (its words, the refusals, the
    clans' names, the end chart's title, verdicts, labels and give-aways' lines in every
    kind of move) has each of its characters in the served font."""
    from fontTools.ttLib import TTFont

    from clans_pi.phones.server import _asset
    from scripts.make.phone_font import strings

    cmap = TTFont(io.BytesIO(_asset("phone-font.woff"))).getBestCmap()
    for code in i18n.LANGUAGES:
        got = strings(code)
        i18n.set_language(code)
        try:
            chart = [i18n._("How sure the others were of your clan"), i18n._("blind guess"),
                     i18n._("Hold to see your clan")]
        finally:
            i18n.set_language("en")
        assert set(chart) <= set(got), code
        missing = sorted({c for s in got for c in s if not c.isspace() and ord(c) not in cmap})
        assert not missing, (code, "".join(missing))
