"""A phone seat's page in a real browser (issue 16): Debian's Chromium, headless, driven by
Playwright at a phone's size. Press and hold shows the seat's clan; let go and the clan is
gone from the document (R22: nothing of it stays for a screenshot or the app switcher);
another seat's page never shows it; the page reconnects by itself when the server comes
back (the Pi restarted). One browser for the file: starting one takes seconds."""

from __future__ import annotations

import shutil

import pytest

from clans_pi.phones.server import PhoneHub, PhoneSeat, PhoneServer
from clans_pi.phones.tokens import SeatTokens

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
sync_api = pytest.importorskip("playwright.sync_api", reason="needs playwright (pip)")
pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="needs Debian's chromium: sudo apt install chromium, then "
                                       "./scripts/test")


PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "has_touch": True}


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield chromium
        finally:
            chromium.close()


def _press(page) -> None:
    box = page.locator("#hold").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()


@pytest.fixture
def served():
    hub = PhoneHub(SeatTokens.new([1]), {1: PhoneSeat("Ben", "owl")},
                   lambda seat: ("red", "Red") if seat == 1 else None)
    server = PhoneServer(hub, "127.0.0.1", 0)
    port = server.start()
    try:
        yield hub, f"http://127.0.0.1:{port}/p/{hub.tokens.tokens[1]}"
    finally:
        server.stop()


def test_hold_shows_the_clan_and_letting_go_removes_it_from_the_page(served, browser,
                                                                    tmp_path):
    hub, url = served
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("#hold:not([disabled])")
        assert page.inner_text("#name") == "Ben"
        assert "red" not in page.content().lower().replace("referrer", "")
        _press(page)
        page.wait_for_selector(".swatch.clan-red")
        assert page.inner_text("#secret") == "Red"
        held = tmp_path / "held.png"
        page.screenshot(path=str(held))
        page.mouse.up()
        page.wait_for_function("document.querySelector('#secret').children.length === 0")
        html = page.content()
        assert "clan-red" not in html and ">Red<" not in html
        page.click("#seen")
        page.wait_for_timeout(200)
    finally:
        context.close()
    assert (1, "seen") in hub.poll()
    assert held.stat().st_size > 1000


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


def test_another_seat_s_page_never_shows_this_seat_s_clan(browser):
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
            context = browser.new_context(**PHONE)
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
            page.wait_for_function("document.querySelector('#secret').children.length === 0")
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


def test_the_page_reconnects_by_itself_after_the_server_restarts(browser):
    """The Pi restarted (a power cut): a new server on the same port with the same links
    (kept with the save). The page, left open, finds it by itself: the name again, and a
    hold shows the clan again."""
    tokens = SeatTokens.new([1])
    seats = {1: PhoneSeat("Ben", "owl")}
    clans = {1: ("red", "Red")}.get
    first = PhoneServer(PhoneHub(tokens, seats, clans), "127.0.0.1", 0)
    port = first.start()
    context = browser.new_context(**PHONE)
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
        page.wait_for_function("document.querySelector('#secret').children.length === 0")
        assert [kind for _seat, kind in hub.poll()] == ["ready"]
    finally:
        context.close()
        if second is not None:
            second.stop()
