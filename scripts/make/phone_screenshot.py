#!/usr/bin/env python3
"""The pictures of a phone seat's page (docs/playing.md), from Debian's Chromium driven by
Playwright.

    python scripts/make/phone_screenshot.py          write docs/screenshots/phone-held-*.png
    python scripts/make/phone_screenshot.py --check  exit 1 if the stored picture no longer
                                                     matches a fresh one (more than 1 % of
                                                     its pixels differ); 77 without a browser
    python scripts/make/phone_screenshot.py --states DIR
                                                     every state of the page at four phone
                                                     sizes, dark and light, into DIR

Anna's phone (the fox) on a fixed seat: the served page, the real server on loopback, the
button held by the mouse as a finger would.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from clans_pi import i18n  # noqa: E402
from clans_pi.phones.server import PhoneHub, PhoneSeat, PhoneServer, take_over  # noqa: E402
from clans_pi.phones.tokens import SeatTokens  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
NAME = "phone-held-390x844.png"
SIZE = (390, 844)
#: The phones' sizes the states are shot at (CSS pixels): small, common, large.
SIZES = ((320, 568), (360, 640), (390, 844), (412, 915))
SKIPPED = 77  # --check without a browser: nothing to compare (the test skips)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@contextmanager
def served(clan: list[str]) -> Iterator[tuple[PhoneHub, PhoneServer, str]]:
    """A phone seat (seat 0, Anna the fox) served on loopback; its clan is ``clan[0]``."""
    from clans_pi.palette import CLAN_LABEL
    from clans_pi.ui.phone_pictures import seat_picture_png

    hub = PhoneHub(SeatTokens.new([0]), {0: PhoneSeat("Anna", "fox")},
                   lambda seat: (clan[0], i18n._(CLAN_LABEL[clan[0]])))
    hub.pictures[0] = seat_picture_png(0, "fox") or b""
    server = PhoneServer(hub, "127.0.0.1", 0)
    port = server.start()
    try:
        yield hub, server, f"http://127.0.0.1:{port}/p/{hub.tokens.tokens[0]}"
    finally:
        server.stop()


@contextmanager
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield chromium
        finally:
            chromium.close()


def open_page(chromium, url: str, size: tuple[int, int], scheme: str = "dark", scale: int = 1):
    page = chromium.new_page(viewport={"width": size[0], "height": size[1]},
                             device_scale_factor=scale, has_touch=True, color_scheme=scheme)
    page.goto(url)
    page.wait_for_selector("#hold:not([disabled])")
    from playwright.sync_api import expect

    expect(page.locator("#picture")).to_have_js_property("complete", True)
    return page


def press(page) -> None:
    box = page.locator("#hold").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_selector("#secret .swatch")


def shoot_held(target: Path) -> None:
    with served(["blue"]) as (_hub, _server, url), browser() as chromium:
        page = open_page(chromium, url, SIZE)
        press(page)
        page.screenshot(path=str(target))


def shoot_states(out: Path) -> list[Path]:
    """Each state of the page, at each size, dark and light: before a hold, held (each
    clan), after release, the result, waiting, replaced, disconnected."""
    out.mkdir(parents=True, exist_ok=True)
    made: list[Path] = []
    for size in SIZES:
        for scheme in ("dark", "light"):
            def shot(state: str, page, size=size, scheme=scheme) -> None:
                path = out / f"{size[0]}x{size[1]}-{scheme}-{state}.png"
                page.screenshot(path=str(path))
                made.append(path)

            with browser() as chromium:
                _states(chromium, size, scheme, shot)
    return made


def _states(chromium, size: tuple[int, int], scheme: str, shot) -> None:
    clan = ["red"]
    with served(clan) as (hub, server, url):
        page = open_page(chromium, url, size, scheme)
        shot("before", page)
        server.tell_turn({0})  # the player to move, hints on
        page.wait_for_selector("#hint:not([hidden])")
        shot("hint-button", page)
        box = page.locator("#hint").bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        server.tell_hint(0, "ready", _hint_picture())
        picture = page.locator("#hintbox img")
        picture.wait_for()
        while not picture.evaluate("img => img.naturalWidth"):  # decoded, not only there
            page.wait_for_timeout(20)
        shot("hint-held", page)
        page.mouse.up()
        server.tell_turn(set())
        page.wait_for_selector("#hint", state="hidden")
        for name in ("red", "blue", "green", "yellow", "black", "white"):
            clan[0] = name
            press(page)
            shot(f"held-{name}", page)
            page.mouse.up()
            page.locator("#secret > *").first.wait_for(state="detached")
        shot("released", page)
        second = open_page_waiting(chromium, url, size, scheme)
        shot("waiting", second)
        server_call(server, take_over(hub, 0))
        page.wait_for_selector("body.replaced")
        shot("replaced", page)
        second.wait_for_selector("#hold:not([disabled])")
        server.tell_result(0, {"clan": "green", "label": "Green", "mark": "diagonal",
                               "won": False, "place": 2, "players": 4})
        second.wait_for_selector("#result .swatch")
        shot("result", second)
        server.tell_result(0, {"clan": "white", "label": "White", "mark": "checks",
                               "won": True, "place": 1, "players": 4})
        second.wait_for_selector("#result .clan-white")
        shot("result-won", second)
        second.close()
        hub.results.clear()  # a game going on again, for the page that loses the table
        third = open_page(chromium, url, size, scheme)
    third.wait_for_selector("body.connecting")  # the server has stopped
    shot("disconnected", third)


def _hint_picture() -> bytes:
    """A hint as the table sends it: the board of a fixed deal and its first legal move."""
    import random

    from clans_pi.rules.board import load_default_board
    from clans_pi.rules.epochs import load_default_chart
    from clans_pi.rules.setup import deal
    from clans_pi.ui.phone_pictures import hint_png

    board = load_default_board()
    state = deal(board, ("Anna", "Ben", "Cleo"), random.Random(2026), load_default_chart())
    return hint_png(board, state.observation(), state.legal_moves()[0])


def open_page_waiting(chromium, url: str, size: tuple[int, int], scheme: str):
    page = chromium.new_page(viewport={"width": size[0], "height": size[1]},
                             has_touch=True, color_scheme=scheme)
    page.goto(url)
    page.wait_for_selector("body.waiting")
    return page


def server_call(server: PhoneServer, coro) -> None:
    import asyncio

    asyncio.run_coroutine_threadsafe(coro, server.loop).result(10)


def main(argv: list[str] | None = None, say: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--states", type=Path, metavar="DIR")
    args = parser.parse_args(argv)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        print("needs playwright (pip install playwright)", file=sys.stderr)
        return SKIPPED if args.check else 1
    if CHROMIUM is None:
        print("needs Debian's chromium (apt install chromium)", file=sys.stderr)
        return SKIPPED if args.check else 1
    if args.states:
        for path in shoot_states(args.states):
            say(f"wrote {path}")
        return 0
    if not args.check:
        shoot_held(OUT / NAME)
        say(f"wrote {(OUT / NAME).relative_to(ROOT)}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / NAME
        shoot_held(fresh)
        stored = OUT / NAME
        if not stored.exists():
            print(f"{stored.relative_to(ROOT)} is missing", file=sys.stderr)
            return 1
        from scripts.make.screenshots import differing_fraction

        frac = differing_fraction(stored, fresh)
        if frac > 0.01:
            print(f"{stored.relative_to(ROOT)}: {frac:.1%} of pixels differ from a fresh "
                  "one; run scripts/make/phone_screenshot.py", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
