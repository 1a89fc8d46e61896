"""What a phone seat's page shows: the clan's mark beside its colour, as on every
other device, only with a hold and only to that seat (R22); the player's picture at a link
of its own that refuses what the page refuses; the page's colours and marks drawn in CSS
from the one palette (clans_pi/palette.py)."""

from __future__ import annotations

import asyncio
import re
from importlib import resources

import pytest
from aiohttp.test_utils import TestClient, TestServer

from clans_pi.palette import CLAN_COLORS, CLAN_INK, MARKS, mark_color, mark_of
from clans_pi.phones.server import HEADERS, PhoneHub, PhoneSeat, make_app, page_texts
from clans_pi.phones.tokens import SeatTokens

PNG = b"\x89PNG\r\n\x1a\nnot really a picture"


def _hub(tokens: SeatTokens | None = None) -> PhoneHub:
    hub = PhoneHub(tokens or SeatTokens.new([0, 2]),
                   {0: PhoneSeat("Anna", "fox"), 2: PhoneSeat("Cleo", "bear")},
                   {0: ("yellow", "Yellow"), 2: ("white", "White")}.get)
    hub.pictures[0] = PNG
    return hub


def run(coro_fn, hub: PhoneHub):
    async def main():
        async with TestClient(TestServer(make_app(hub))) as client:
            return await coro_fn(client)
    return asyncio.run(main())


def _page(name: str) -> str:
    return resources.files("clans_pi.phones").joinpath("page", name).read_text("utf-8")


def _css() -> str:
    """The stylesheet without its comments."""
    return re.sub(r"/\*.*?\*/", "", _page("phone.css"), flags=re.S)


def _rule(css: str, selector: str) -> str:
    """The declarations of the first rule whose selector list holds ``selector``."""
    for match in re.finditer(r"([^{}]+)\{([^{}]*)\}", css):
        if selector in (s.strip() for s in match.group(1).split(",")):
            return match.group(2)
    raise AssertionError(f"phone.css has no rule for {selector}")


def test_the_mark_comes_only_with_a_hold_and_only_to_that_seat():
    """R22: the hello names no clan nor mark; a hold brings the seat's clan with its mark
    (the fifth clan's checks also when it is shown white), to that seat's phone alone."""
    hub = _hub()

    async def go(client):
        anna = await client.ws_connect(f"/p/{hub.tokens.tokens[0]}/live")
        cleo = await client.ws_connect(f"/p/{hub.tokens.tokens[2]}/live")
        hello = await anna.receive_json()
        await cleo.receive_json()
        said = str(hello).lower()
        assert "mark" not in hello and not any(m in said for m in MARKS.values())
        await anna.send_json({"type": "hold"})
        assert await anna.receive_json() == {"type": "clan", "clan": "yellow",
                                             "label": "Yellow", "mark": "dots"}
        with pytest.raises(asyncio.TimeoutError):
            await cleo.receive_json(timeout=0.3)  # Cleo's phone heard nothing of it
        await cleo.send_json({"type": "hold"})
        assert (await cleo.receive_json())["mark"] == "checks"
        with pytest.raises(asyncio.TimeoutError):
            await anna.receive_json(timeout=0.3)
        await anna.close()
        await cleo.close()
    run(go, hub)


def test_the_picture_is_served_to_the_seat_s_link_with_the_page_s_headers():
    hub = _hub()

    async def go(client):
        async with client.get(f"/p/{hub.tokens.tokens[0]}/picture.png") as r:
            assert r.status == 200 and r.content_type == "image/png"
            assert await r.read() == PNG
            for name, value in HEADERS.items():
                assert r.headers[name] == value
        hello = await (await client.ws_connect(f"/p/{hub.tokens.tokens[0]}/live")).receive_json()
        assert hello["picture"] is True
        # No picture for this seat (the headless game has none): none served, none promised.
        async with client.get(f"/p/{hub.tokens.tokens[2]}/picture.png") as r:
            assert r.status == 404 and r.headers["Cache-Control"] == "no-store"
        hello = await (await client.ws_connect(f"/p/{hub.tokens.tokens[2]}/live")).receive_json()
        assert hello["picture"] is False
    run(go, hub)


@pytest.mark.parametrize("token", ["x" * 22, "AAAAAAAAAAAAAAAAAAAAAA"])
def test_a_wrong_link_gets_no_picture(token):
    hub = _hub()

    async def go(client):
        async with client.get(f"/p/{token}/picture.png") as r:
            assert r.status == 403 and PNG not in await r.read()
            assert r.headers["Cache-Control"] == "no-store"
    run(go, hub)


@pytest.mark.slow
def test_an_old_game_s_link_gets_no_picture_and_wrong_ones_are_slowed_down():
    old = SeatTokens.new([0, 2])
    hub = _hub(old.renew([0, 2]))

    async def go(client):
        async with client.get(f"/p/{old.tokens[0]}/picture.png") as r:
            assert r.status == 410
        codes = [(await client.get(f"/p/wrong{k:017d}/picture.png")).status for k in range(6)]
        assert codes[-1] == 429  # counted with the page's wrong links (an old one is not)
    run(go, hub)


def test_the_css_draws_every_mark_and_the_clans_colours_of_the_palette():
    """One source: which clan has which mark is MARKS alone (the page gets the mark's name
    with the clan); the stylesheet draws each mark, and its colours are the palette's."""
    css = _css()
    for mark in set(MARKS.values()):
        assert "gradient(" in _rule(css, f".mark-{mark}"), mark
    for clan, rgb in CLAN_COLORS.items():
        rule = _rule(css, f".clan-{clan}")
        for var, want in (("--clan", rgb), ("--ink", CLAN_INK[clan]),
                          ("--mark", mark_color(clan))):
            found = re.search(rf"{var}:\s*rgb\((\d+) (\d+) (\d+)\)", rule)
            assert found, f".clan-{clan} has no {var}"
            assert tuple(map(int, found.groups())) == want, (clan, var)
    # Nothing in the stylesheet pairs a clan with a mark.
    assert not re.search(r"\.clan-\w+[^{]*\.mark-|\.mark-\w+[^{]*\.clan-", css)


def test_every_shown_clan_has_a_mark():
    assert {mark_of(clan) for clan in CLAN_COLORS} == set(MARKS.values())
    assert mark_of("white") == MARKS["black"]


def test_the_page_s_words_cover_every_state_it_shows():
    """Every word the page shows comes with the hello in the players' language ("Connecting…"
    too, for when the table is lost), and the page's English stand-ins are the same words."""
    js = _page("phone.js")
    used = set(re.findall(r"texts\.(\w+)", js)) | set(re.findall(r'status: "(\w+)"', js))
    assert used <= set(page_texts()), used - set(page_texts())
    assert {"connecting", "waiting", "replaced", "over", "only_you"} <= used
    for key, english in page_texts().items():
        assert f'{key}: "{english}"' in js.replace("\n  ", " "), key


def test_the_server_stops_at_once_with_phones_connected_and_they_hear_it():
    """Quitting the game with a phone on its page must not hang: the server closes the
    phones' channels (going away) and the pages then try again by themselves."""
    import time

    from aiohttp import ClientSession

    from clans_pi.phones.server import PhoneServer

    hub = _hub()
    server = PhoneServer(hub, "127.0.0.1", 0)
    port = server.start()
    closed: list[object] = []
    connected = asyncio.Event()

    async def phone() -> None:
        async with ClientSession() as http:
            ws = await http.ws_connect(f"http://127.0.0.1:{port}/p/{hub.tokens.tokens[0]}/live")
            await ws.receive_json(timeout=5)
            connected.set()
            closed.append((await ws.receive(timeout=10)).type)

    async def main() -> float:
        task = asyncio.create_task(phone())
        await asyncio.wait_for(connected.wait(), 5)
        start = time.monotonic()
        await asyncio.to_thread(server.stop)
        took = time.monotonic() - start
        await task
        return took

    took = asyncio.run(main())
    assert took < 1.5, f"stopping took {took:.1f} s"
    from aiohttp import WSMsgType
    assert closed and closed[0] in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING)


def test_the_screen_s_app_gives_the_phones_the_players_pictures():
    """With the screen, the phones' pages show each player's picture, drawn by the UI (the
    phones package draws nothing) when the table deals, the screen's own avatar for the
    seat."""
    import urllib.request

    from clans_pi.hardware.seats import SeatDevices
    from clans_pi.settings.config import Config
    from clans_pi.ui.app import App
    from clans_pi.ui.phone_pictures import seat_picture_png
    from tests.ui_helpers import BOARD, CHART, random_session

    config = Config()
    config.seats[1] = "phone"
    config.listen = ("127.0.0.1", 0)
    devices = SeatDevices.open(config)
    try:
        app = App(BOARD, CHART, size=(800, 480), devices=devices)
        session = random_session(2, moves=0)
        app.table.begin(session)
        png = devices.phones.hub.pictures[0]
        assert png.startswith(b"\x89PNG") and png == seat_picture_png(0, session.seats[0].avatar)
        with urllib.request.urlopen(devices.phone_url(0) + "/picture.png", timeout=5) as r:
            assert r.read() == png and r.headers["Content-Type"] == "image/png"
    finally:
        devices.close()


def test_the_phones_and_the_palette_import_no_pygame():
    """The headless game serves phones with no screen: the page's colours and marks come
    from clans_pi.palette, and the pictures from whoever hands the phones a renderer."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("import sys, clans_pi.palette, clans_pi.phones.devices, clans_pi.phones.server; "
            "print(sorted(m for m in sys.modules if 'pygame' in m or m.startswith('clans_pi.ui')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parent.parent)
    assert out.stdout.strip() == "[]"
