"""The hint on a phone in a real browser: Debian's Chromium, headless, driven by
Playwright at a phone's size. The person to move holds the hint button: the board with the
suggested move shows while held and is gone from the page on release (R22); another seat's
page has no hint button and gets no picture."""

from __future__ import annotations

import time

import pytest

from clans_pi.phones.server import PhoneHub, PhoneSeat, PhoneServer
from clans_pi.phones.tokens import SeatTokens
from clans_pi.rules.moves import Move
from clans_pi.ui.phone_pictures import hint_png
from tests.browser_helpers import needs_chromium
from tests.ui_helpers import BOARD, random_session

pytestmark = needs_chromium


@pytest.mark.slow
def test_the_hint_shows_while_held_on_the_mover_s_phone_only(tmp_path, chromium):
    session = random_session(2, moves=6)
    move: Move = session._state.legal_moves()[0]
    picture = hint_png(BOARD, session.public(), move)
    hub = PhoneHub(SeatTokens.new([0, 1]), {0: PhoneSeat("Anna", "fox"),
                                            1: PhoneSeat("Ben", "owl")},
                   {0: ("red", "Red"), 1: ("blue", "Blue")}.get)
    hub.may_hint = {0}
    server = PhoneServer(hub, "127.0.0.1", 0)
    port = server.start()
    url = f"http://127.0.0.1:{port}/p/"
    try:
        phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True}
        anna = chromium.new_page(**phone)
        ben = chromium.new_page(**phone)
        anna.goto(url + hub.tokens.tokens[0])
        ben.goto(url + hub.tokens.tokens[1])
        anna.wait_for_selector("#hint:not([hidden])")
        ben.wait_for_selector("#hold:not([disabled])")
        assert ben.locator("#hint").is_hidden()
        box = anna.locator("#hint").bounding_box()
        anna.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        anna.mouse.down()
        end = time.monotonic() + 10  # the table's part: asked, searching, found
        while time.monotonic() < end and (0, "hint") not in hub.poll():
            time.sleep(0.02)
        server.tell_hint(0, "thinking")
        anna.wait_for_selector("#hintbox p")
        assert anna.inner_text("#hintbox") == "Looking for your hint…"
        server.tell_hint(0, "ready", picture)
        anna.wait_for_selector("#hintbox img")
        img = anna.locator("#hintbox img")
        assert img.get_attribute("src").startswith("blob:")
        end = time.monotonic() + 5
        while time.monotonic() < end and not img.evaluate("i => i.naturalWidth"):
            time.sleep(0.05)
        assert img.evaluate("i => i.naturalWidth") == 600  # the picture, decoded
        anna.screenshot(path=str(tmp_path / "hint.png"))
        anna.mouse.up()
        anna.locator("#hintbox > *").wait_for(state="detached")
        assert "<img" not in anna.inner_html("#hintbox")
        end = time.monotonic() + 5
        events: list[tuple[int, str]] = []
        while time.monotonic() < end and (0, "hint_off") not in events:
            events += hub.poll()
            time.sleep(0.02)
        assert (0, "hint_off") in events
        assert ben.locator("#hintbox img").count() == 0 and ben.locator(
            "#hint").is_hidden()
    finally:
        server.stop()
