"""A phone seat's page in a real browser: Debian's Chromium, headless, driven by
Playwright at a phone's size. Press and hold shows the seat's clan, its colour and its mark;
let go and the clan is gone from the document (R22: nothing of it stays for a screenshot or
the app switcher); another seat's page never shows it; the page reconnects by itself when
the server comes back (the Pi restarted). The player's picture is shown with the name,
where there is one. One browser for the file: starting one takes seconds."""

from __future__ import annotations

import io
import itertools

import pytest

from clans_pi.palette import CLAN_COLORS
from clans_pi.phones.server import PhoneHub, PhoneSeat, PhoneServer
from clans_pi.phones.tokens import SeatTokens
from clans_pi.ui.phone_pictures import PICTURE_SIDE, seat_picture_png
from tests.browser_helpers import needs_chromium

sync_api = pytest.importorskip("playwright.sync_api", reason="needs playwright (pip)")
pytestmark = needs_chromium
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "has_touch": True}

@pytest.fixture
def served():
    """Seat 1 (Ben, with a picture) and seat 3 (Dev, none, as in the headless game); the
    clan of each is ``clans[seat]``."""
    clans = {1: "red", 3: "blue"}
    hub = PhoneHub(SeatTokens.new([1, 3]), {1: PhoneSeat("Ben", "owl"), 3: PhoneSeat("Dev", "")},
                   lambda seat: (clans[seat], clans[seat].capitalize()) if seat in clans
                   else None)
    hub.pictures[1] = seat_picture_png(1, "owl")
    server = PhoneServer(hub, "127.0.0.1", 0)
    port = server.start()
    try:
        yield hub, clans, {k: f"http://127.0.0.1:{port}/p/{token}"
                           for k, token in hub.tokens.tokens.items()}
    finally:
        server.stop()


@pytest.fixture
def browser(chromium):
    """A fresh browser context (no storage shared between tests) on the module's Chromium."""
    context = chromium.new_context(has_touch=True, device_scale_factor=1)
    try:
        yield context
    finally:
        context.close()


def _open(browser, url: str, size=(390, 844)):
    page = browser.new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(url)
    page.wait_for_selector("#hold:not([disabled])")
    return page


def _hold(page) -> None:
    box = page.locator("#hold").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_selector("#secret .swatch")


def _press(page) -> None:
    box = page.locator("#hold").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()


def _swatch_pixels(page) -> tuple[int, int, list[tuple[int, int, int]]]:
    """The held swatch as the screen shows it: width, height, RGB pixels (inside its
    border and its name's plate)."""
    import pygame

    png = page.locator("#secret .swatch").screenshot()
    image = pygame.image.load(io.BytesIO(png), "swatch.png")
    w, h = image.get_size()
    return w, h, [tuple(image.get_at((x, y)))[:3] for y in range(h) for x in range(w)]


def _stripes(w: int, h: int, px: list, along: str) -> int:
    """How many times the colour changes along the swatch's middle row ("x") or middle
    column ("y"), away from its border and its name's plate."""
    if along == "x":
        line = [px[(h // 5) * w + x] for x in range(6, w - 6)]
    else:
        line = [px[y * w + w // 5] for y in range(6, h - 6)]
    return sum(a != b for a, b in itertools.pairwise(line))


@pytest.mark.slow
def test_hold_shows_the_clan_and_letting_go_removes_it_from_the_page(served, browser):
    hub, _clans, urls = served
    page = _open(browser, urls[1])
    assert page.inner_text("#name") == "Ben"
    assert "red" not in page.content().lower().replace("referrer", "")
    _hold(page)
    assert page.inner_text("#secret") == "Red"
    page.mouse.up()
    page.locator("#secret > *").first.wait_for(state="detached")
    html = page.content()
    assert "clan-" not in html and "mark-" not in html and ">Red<" not in html
    assert "held" not in page.evaluate("document.body.className")
    page.click("#seen")
    page.wait_for_timeout(200)
    assert (1, "seen") in hub.poll()


@pytest.mark.slow
def test_the_held_swatch_shows_the_clan_s_colour_and_mark(served, browser):
    """Red's horizontal stripes change colour down the swatch and not across it; blue's
    vertical ones across and not down: the mark is drawn, and each clan's is its own."""
    _hub, _clans, urls = served
    red, blue = _open(browser, urls[1]), _open(browser, urls[3])
    _hold(red)
    _hold(blue)
    w, h, px = _swatch_pixels(red)
    assert w >= 200 and h >= 150  # big while held
    assert _stripes(w, h, px, "y") >= 6 and _stripes(w, h, px, "x") == 0
    assert CLAN_COLORS["red"] in px
    w, h, px = _swatch_pixels(blue)
    assert _stripes(w, h, px, "x") >= 6 and _stripes(w, h, px, "y") == 0
    assert CLAN_COLORS["blue"] in px
    assert "repeating-linear-gradient" in red.evaluate(
        "getComputedStyle(document.querySelector('#secret .swatch')).backgroundImage")


@pytest.mark.slow
@pytest.mark.parametrize("clan", ["green", "yellow", "black", "white"])
def test_every_clan_s_mark_is_drawn_over_its_colour(served, browser, clan):
    _hub, clans, urls = served
    clans[1] = clan
    page = _open(browser, urls[1])
    _hold(page)
    w, h, px = _swatch_pixels(page)
    assert CLAN_COLORS[clan] in px
    assert _stripes(w, h, px, "x") >= 4 and _stripes(w, h, px, "y") >= 4, clan


@pytest.mark.slow
def test_the_page_shows_the_player_s_picture_or_the_name_alone(served, browser):
    _hub, _clans, urls = served
    ben = _open(browser, urls[1])
    sync_api.expect(ben.locator("#picture")).to_have_js_property("complete", True)
    assert ben.is_visible("#picture")
    assert ben.evaluate("document.querySelector('#picture').naturalWidth") == PICTURE_SIDE
    assert ben.get_attribute("#picture", "src").endswith("/picture.png")
    dev = _open(browser, urls[3])  # no picture (the headless game): the name alone
    assert dev.inner_text("#name") == "Dev" and not dev.is_visible("#picture")
    assert dev.get_attribute("#picture", "src") is None


@pytest.mark.parametrize("size", [(320, 568), (360, 640), (390, 844), (412, 915)])
def test_at_phone_sizes_everything_fits_and_the_button_is_at_the_thumb(served, browser, size):
    _hub, _clans, urls = served
    page = _open(browser, urls[1], size)
    hold = page.locator("#hold").bounding_box()
    assert hold["height"] >= 48 and hold["y"] + hold["height"] <= size[1]
    assert hold["y"] >= size[1] / 2 and hold["width"] >= size[0] * 0.8  # the lower screen
    _hold(page)
    swatch = page.locator("#secret .swatch").bounding_box()
    assert swatch["height"] >= 100 and swatch["width"] >= size[0] * 0.8
    assert page.evaluate("document.documentElement.scrollHeight") <= size[1]  # no scrolling
    style = page.evaluate("getComputedStyle(document.body).userSelect")
    assert style == "none"


@pytest.mark.slow
def test_the_page_speaks_the_players_language_also_when_the_table_is_lost(served, browser):
    from clans_pi import i18n

    _hub, _clans, urls = served
    i18n.set_language("de")
    try:
        page = _open(browser, urls[1])
        assert page.inner_text("#hold") == "Halten, um deinen Clan zu sehen"
        assert page.evaluate("document.documentElement.lang") == "de"
        kept = page.evaluate("JSON.parse(localStorage.getItem('clans-texts'))")  # for a reload
        assert kept["connecting"] == "Verbindung wird hergestellt…"
        page.evaluate("ws.close()")  # the Wi-Fi dropped
        page.wait_for_selector("body.connecting")
        assert page.inner_text("#status") == "Verbindung wird hergestellt…"
        page.wait_for_selector("body.ready")  # and it comes back by itself
    finally:
        i18n.set_language("en")


@pytest.mark.slow
def test_an_old_game_s_page_says_so_and_stops_trying(served, browser):
    hub, _clans, urls = served
    page = _open(browser, urls[1])
    hub.tokens = hub.tokens.renew([1, 3])  # a new game at the table
    page.evaluate("ws.close()")
    page.wait_for_selector("body.ended")
    assert page.inner_text("#status") == "The game is over."
    assert not page.is_visible("#hold")


#: Put in a page before its own script: every change to the document is checked for the
#: clans' words, so a clan shown for a moment only is caught too.
WATCH = """
window.__seen = [];
const words = ["clan-red", ">Red<", "clan-blue", ">Blue<"];
new MutationObserver(() => {
  const html = document.documentElement.outerHTML;
  for (const word of words) {
    if (html.includes(word) && !window.__seen.includes(word)) window.__seen.push(word);
  }
}).observe(document, {subtree: true, childList: true, attributes: true,
                      characterData: true});
"""


@pytest.mark.slow
def test_another_seat_s_page_never_shows_this_seat_s_clan(chromium):
    """Two seats' pages open, each on a phone of its own; Ben holds (red), then Dana too
    (blue): neither document ever holds the other's clan, at any moment (a mutation
    observer watches every change), nor does the other's channel carry it."""
    hub = PhoneHub(SeatTokens.new([1, 3]), {1: PhoneSeat("Ben", "owl"),
                                            3: PhoneSeat("Dana", "fox")},
                   {1: ("red", "Red"), 3: ("blue", "Blue")}.get)
    server = PhoneServer(hub, "127.0.0.1", 0)
    port = server.start()
    contexts = []
    try:
        pages, frames = {}, {}
        for seat in (1, 3):
            context = chromium.new_context(**PHONE)
            contexts.append(context)
            context.add_init_script(WATCH)
            page = context.new_page()
            frames[seat] = []
            page.on("websocket", lambda ws, got=frames[seat]: ws.on(
                "framereceived", lambda payload, got=got: got.append(payload)))
            page.goto(f"http://127.0.0.1:{port}/p/{hub.tokens.tokens[seat]}")
            page.wait_for_selector("#hold:not([disabled])")
            pages[seat] = page
        ben, dana = pages[1], pages[3]
        _press(ben)
        ben.wait_for_selector(".swatch.clan-red")
        dana.wait_for_timeout(300)  # time enough for anything sent to Dana to arrive
        assert dana.locator("#secret").inner_html() == ""
        _press(dana)  # both held at once
        dana.wait_for_selector(".swatch.clan-blue")
        assert ben.inner_text("#secret") == "Red" and dana.inner_text("#secret") == "Blue"
        dana.mouse.up()
        ben.mouse.up()
        for page in (ben, dana):
            page.locator("#secret > *").first.wait_for(state="detached")
        # Each saw its own clan (the watch works), never the other's.
        assert sorted(ben.evaluate("window.__seen")) == [">Red<", "clan-red"]
        assert sorted(dana.evaluate("window.__seen")) == [">Blue<", "clan-blue"]
        assert any('"red"' in f for f in frames[1]) and any('"blue"' in f for f in frames[3])
        assert not [f for f in frames[3] if '"red"' in f or '"Red"' in f]
        assert not [f for f in frames[1] if '"blue"' in f or '"Blue"' in f]
    finally:
        for context in contexts:
            context.close()
        server.stop()


@pytest.mark.slow
def test_the_page_reconnects_by_itself_after_the_server_restarts(chromium):
    """The Pi restarted (a power cut): a new server on the same port with the same links
    (kept with the save). The page, left open, finds it by itself: the name again, and a
    hold shows the clan again."""
    tokens = SeatTokens.new([1])
    seats = {1: PhoneSeat("Ben", "owl")}
    clans = {1: ("red", "Red")}.get
    first = PhoneServer(PhoneHub(tokens, seats, clans), "127.0.0.1", 0)
    port = first.start()
    context = chromium.new_context(**PHONE)
    second = None
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/p/{tokens.tokens[1]}")
        page.wait_for_selector("#hold:not([disabled])")
        first.stop()
        page.wait_for_selector("#hold[disabled]")  # it noticed: waiting to reconnect
        assert page.locator("#secret").inner_html() == ""
        page.evaluate("document.querySelector('#name').textContent = ''")
        hub = PhoneHub(SeatTokens.from_json(tokens.to_json()), dict(seats), clans)
        second = PhoneServer(hub, "127.0.0.1", port)
        second.start()
        page.wait_for_selector("#hold:not([disabled])", timeout=15_000)
        assert page.inner_text("#name") == "Ben"
        _press(page)
        page.wait_for_selector(".swatch.clan-red")
        assert page.inner_text("#secret") == "Red"
        page.mouse.up()
        page.locator("#secret > *").first.wait_for(state="detached")
        assert [kind for _seat, kind in hub.poll()] == ["ready"]
    finally:
        context.close()
        if second is not None:
            second.stop()


@pytest.mark.slow
def test_a_forgotten_link_s_page_says_so_in_the_players_language_and_tries_again(served,
                                                                                   browser):
    """A link the table does not know (yet: the game not resumed; or long forgotten): the
    page reloads into the table's own refusal, styled like the page, in the players'
    language, which loads itself again (never a channel that counts as a wrong link)."""
    from clans_pi import i18n

    hub, _clans, urls = served
    page = _open(browser, urls[1])
    hub.tokens = SeatTokens.new([1, 3])  # a table that never knew this link
    i18n.set_language("it")
    try:
        page.evaluate("ws.close()")
        page.wait_for_selector("body.refused")
        assert page.inner_text("#status").startswith("Questo link non è di una partita")
        assert page.evaluate("document.documentElement.lang") == "it"
        assert page.locator('meta[http-equiv="refresh"]').count() == 1
        assert page.evaluate("getComputedStyle(document.body).fontFamily").startswith(
            '"Clans Pi"')
    finally:
        i18n.set_language("en")


@pytest.mark.slow
def test_a_waiting_phone_gets_the_seat_once_the_first_is_gone(served, chromium):
    """No screen to confirm (the headless game): the second phone waits, then gets the seat
    by itself when the first one's channel is gone, with no reload."""
    hub, _clans, urls = served
    hub.screen = False
    first, second = chromium.new_context(**PHONE), chromium.new_context(**PHONE)
    try:
        page = first.new_page()
        page.goto(urls[1])
        page.wait_for_selector("#hold:not([disabled])")
        other = second.new_page()
        other.goto(urls[1])
        other.wait_for_selector("body.waiting")
        assert "close it there" in other.inner_text("#status")
        first.close()  # the first phone is gone
        other.wait_for_selector("#hold:not([disabled])")
        _press(other)
        other.wait_for_selector(".swatch.clan-red")
    finally:
        second.close()


def test_the_phone_s_own_chart_of_how_well_it_hid_is_drawn_in_its_clan_s_colour(browser):
    """At the end the page draws the seat's own curve in its clan's colour, with
    its give-aways marked and listed, its verdict in words and, under the title, whose
    reading it is."""
    clans = {1: "red"}
    hub = PhoneHub(SeatTokens.new([1]), {1: PhoneSeat("Ben", "")},
                   lambda seat: ("red", "Red") if seat in clans else None)
    server = PhoneServer(hub, "127.0.0.1", 0)
    port = server.start()
    try:
        page = _open(browser, f"http://127.0.0.1:{port}/p/{hub.tokens.tokens[1]}")
        hub.over = True
        server.tell_result(1, {"clan": "red", "label": "Red", "mark": None, "won": False,
                               "place": 2, "players": 3})
        server.tell_hiding(1, {"curve": [0.25, 0.3, 0.72, 0.8], "blind": 0.25,
                               "verdict": "Read from move 2", "title": "How sure",
                               "note": "As the computers read moves",
                               "giveaways": [{"move": 2, "before": 0.3, "after": 0.72,
                                              "line": "move 2: red huts, 30 % to 72 %"}]})
        page.wait_for_selector("#result .hiding .curve")
        stroke = page.eval_on_selector("#result .hiding .curve",
                                       "e => getComputedStyle(e).stroke")
        assert stroke == "rgb(250, 35, 10)"  # the red clan's colour (phone.css, palette)
        assert page.locator("#result .hiding .giveaway circle").count() == 1
        assert page.inner_text("#result .hiding .verdict") == "Read from move 2"
        assert page.inner_text("#result .hiding h2 + .note") == "As the computers read moves"
        assert page.inner_text("#result .hiding li .number") == "1"
        assert page.inner_text("#result .hiding li span:last-child") == (
            "move 2: red huts, 30\u00a0% to 72\u00a0%")
        points = page.get_attribute("#result .hiding .curve", "points").split()
        assert len(points) == 4  # one point a move and the deal
    finally:
        server.stop()
