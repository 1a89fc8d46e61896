"""A phone seat's page in a real browser (issue 16): Debian's Chromium, headless, driven by
Playwright at a phone's size. Press and hold shows the seat's clan; let go and the clan is
gone from the document (R22: nothing of it stays for a screenshot or the app switcher)."""

from __future__ import annotations

import shutil

import pytest

from clans_pi.phones.server import PhoneHub, PhoneSeat, PhoneServer
from clans_pi.phones.tokens import SeatTokens

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
sync_api = pytest.importorskip("playwright.sync_api", reason="needs playwright (pip)")
pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="needs Debian's chromium (apt install chromium)")


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


def test_hold_shows_the_clan_and_letting_go_removes_it_from_the_page(served, tmp_path):
    hub, url = served
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844},
                                    device_scale_factor=2, has_touch=True)
            page.goto(url)
            page.wait_for_selector("#hold:not([disabled])")
            assert page.inner_text("#name") == "Ben"
            assert "red" not in page.content().lower().replace("referrer", "")
            box = page.locator("#hold").bounding_box()
            page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            page.mouse.down()
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
            browser.close()
    assert (1, "seen") in hub.poll()
    assert held.stat().st_size > 1000
