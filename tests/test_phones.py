"""Phones as private seat devices (the server's part): the protocol through
aiohttp's test client. Token checks, one phone per seat, no clan before a hold nor to
another seat (R22), old codes, headers, and a real server on a thread."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import threading
import time
import urllib.request

import pytest
from aiohttp.test_utils import TestClient, TestServer

from clans_pi.phones.server import HEADERS, PhoneHub, PhoneSeat, PhoneServer, make_app, take_over
from clans_pi.phones.tokens import ALPHABET, TOKEN_LENGTH, SeatTokens

CLANS = {0: ("red", "Red"), 2: ("blue", "Blue")}


def _hub(tokens: SeatTokens | None = None) -> PhoneHub:
    tokens = tokens or SeatTokens.new([0, 2])
    seats = {0: PhoneSeat("Anna", "fox"), 2: PhoneSeat("Cleo", "bear")}
    return PhoneHub(tokens, seats, CLANS.get)


def run(coro_fn, hub: PhoneHub, clock=None):
    async def main():
        app = make_app(hub, clock=clock) if clock else make_app(hub)
        async with TestClient(TestServer(app)) as client:
            return await coro_fn(client)
    return asyncio.run(main())


def test_a_token_is_128_random_bits_and_new_games_make_new_ones():
    a, b = SeatTokens.new([0, 1]), SeatTokens.new([0, 1])
    for token in a.tokens.values():
        assert len(token) * math.log2(len(set(ALPHABET))) >= 128
        assert set(token) <= set(ALPHABET)
    assert set(a.tokens.values()).isdisjoint(b.tokens.values())
    nxt = a.renew([0, 1])
    assert nxt.seat_of(a.tokens[0]) is None and nxt.is_over(a.tokens[0])
    assert SeatTokens.from_json(json.loads(json.dumps(a.to_json()))).tokens == a.tokens
    assert SeatTokens.from_json("garbage").tokens == {}


def test_a_link_can_be_typed_from_the_screen_without_a_doubtful_letter():
    """Read off the screen by someone who cannot scan: lower case only, and no letter that
    reads as a digit or as another (i, l, o, u beside 1 and 0)."""
    assert len(set(ALPHABET)) == 32
    assert not set(ALPHABET) & set("ilouILOU") and ALPHABET.islower()
    seen = "".join(SeatTokens.new(range(4)).tokens.values())
    assert not set(seen) & set("ilouILOU_-") and seen.lower() == seen


def test_a_link_typed_in_capitals_or_with_look_alike_letters_finds_its_seat():
    """Crockford's decoding: capitals as small letters, i and l as 1, o as 0; any other
    change is a wrong link. An older save's base64url link must match exactly."""
    token = "0123456789abcdefghjkmnpqrs"
    assert len(token) == TOKEN_LENGTH
    seats = SeatTokens({0: token, 1: "q3Jx-7LbVf_Z0aKpT2mWcA"}, ["ab" * 13])
    for typed in (token, token.upper(), token.replace("0", "o").replace("1", "l"),
                  token.replace("1", "I").replace("0", "O")):
        assert seats.seat_of(typed) == 0, typed
    for wrong in (token[:-1] + "t", token[::-1], token + "0", "q3jx-7lbvf_z0akpt2mwca"):
        assert seats.seat_of(wrong) is None, wrong
    assert seats.seat_of("q3Jx-7LbVf_Z0aKpT2mWcA") == 1
    assert seats.is_over("AB" * 13) and not seats.is_over("ac" * 13)


def test_the_page_carries_no_clan_and_strict_headers():
    hub = _hub()

    async def go(client):
        r = await client.get(f"/p/{hub.tokens.tokens[0]}")
        body = await r.text()
        assert r.status == 200
        for name, value in HEADERS.items():
            assert r.headers[name] == value
        assert "Red" not in body and "red" not in body.lower().replace("referrer", "")
        assert "http://" not in body and "https://" not in body  # nothing from elsewhere
        js = await client.get("/phone.js")
        assert js.status == 200 and js.headers["Cache-Control"] == "no-store"
    run(go, hub)


@pytest.mark.parametrize("token", ["", "x" * 22, "AAAAAAAAAAAAAAAAAAAAAA"])
def test_a_wrong_link_gets_a_plain_refusal_and_no_channel(token):
    hub = _hub()

    async def go(client):
        r = await client.get(f"/p/{token}")
        assert r.status in (403, 404)
        ws = await client.get(f"/p/{token}/live")
        assert ws.status in (403, 404)
    run(go, hub)


def test_an_old_game_s_link_says_it_is_over():
    old = SeatTokens.new([0, 2])
    hub = _hub(old.renew([0, 2]))

    async def go(client):
        r = await client.get(f"/p/{old.tokens[0]}")
        assert r.status == 410 and "over" in await r.text()
    run(go, hub)


def test_repeated_wrong_links_are_slowed_down():
    now = [0.0]
    hub = _hub()

    async def go(client):
        codes = [(await client.get(f"/p/wrong{k:020d}")).status for k in range(7)]
        assert codes[:5] == [403] * 5 and codes[5:] == [429, 429]
        right = await client.get(f"/p/{hub.tokens.tokens[0]}")
        assert right.status == 200  # a right link is never refused (it waits PENALTY_S)
        now[0] += 61
        assert (await client.get(f"/p/wrong{9:020d}")).status == 403
    asyncio.run(_run_app(go, make_app(hub, clock=lambda: now[0], penalty_s=0)))


async def _run_app(go, app):
    async with TestClient(TestServer(app)) as client:
        return await go(client)


def test_the_clan_comes_only_while_held_and_only_to_its_seat():
    """R22: no clan at connecting; the clan on hold, to that seat's phone only."""
    hub = _hub()

    async def go(client):
        anna = await client.ws_connect(f"/p/{hub.tokens.tokens[0]}/live")
        cleo = await client.ws_connect(f"/p/{hub.tokens.tokens[2]}/live")
        hello = await anna.receive_json()
        texts = hello.pop("texts")
        assert hello == {"type": "hello", "name": "Anna", "avatar": "fox", "picture": False,
                         "over": False, "lang": "en", "hint": False}
        assert texts["hold"] == "Hold to see your clan"
        assert (await cleo.receive_json())["name"] == "Cleo"
        await anna.send_json({"type": "hold"})
        assert await anna.receive_json() == {"type": "clan", "clan": "red", "label": "Red",
                                             "mark": "horizontal"}
        await anna.send_json({"type": "release"})
        assert await anna.receive_json() == {"type": "hidden"}
        await anna.send_str("not json at all")  # garbage is ignored
        await anna.send_json({"type": "seen"})
        await cleo.send_json({"type": "hold"})
        assert await cleo.receive_json() == {"type": "clan", "clan": "blue", "label": "Blue",
                                             "mark": "vertical"}
        await anna.close()
        await cleo.close()
    run(go, hub)
    events = hub.poll()
    assert (0, "ready") in events and (2, "ready") in events and (0, "seen") in events


def test_one_phone_per_seat_until_the_table_confirms_the_new_one():
    hub = _hub()

    async def go(client):
        url = f"/p/{hub.tokens.tokens[0]}/live"
        first = await client.ws_connect(url)
        await first.receive_json()
        second = await client.ws_connect(url)
        waiting = await second.receive_json()
        assert waiting["type"] == "waiting" and waiting["name"] == "Anna"
        assert "clan" not in waiting and "red" not in str(waiting).lower()
        await second.send_json({"type": "hold"})  # not the seat's phone yet: nothing
        await first.send_json({"type": "hold"})
        assert (await first.receive_json())["type"] == "clan"
        assert hub.poll()[-1] == (0, "again")
        await take_over(hub, 0)
        assert await first.receive_json() == {"type": "replaced"}
        assert (await second.receive_json())["type"] == "hello"
        await second.send_json({"type": "hold"})
        assert (await second.receive_json())["clan"] == "red"
        await second.close()
    run(go, hub)


def test_a_phone_that_reconnects_gets_its_seat_back():
    hub = _hub()

    async def go(client):
        url = f"/p/{hub.tokens.tokens[2]}/live"
        ws = await client.ws_connect(url)
        await ws.receive_json()
        await ws.close()  # the screen locked, Wi-Fi dropped
        await asyncio.sleep(0.05)
        again = await client.ws_connect(url)
        assert (await again.receive_json())["type"] == "hello"
        await again.close()
    run(go, hub)


def test_a_real_server_on_its_thread_serves_the_page_on_loopback():
    hub = _hub()
    server = PhoneServer(hub, "127.0.0.1", 0)
    port = server.start()
    try:
        url = f"http://127.0.0.1:{port}/p/{hub.tokens.tokens[0]}"
        with urllib.request.urlopen(url, timeout=5) as r:
            assert r.status == 200 and r.headers["Cache-Control"] == "no-store"
    finally:
        server.stop()
    assert not server.thread.is_alive()


def test_the_headless_game_waits_for_each_phone_s_peek_then_plays(tmp_path):
    """`clans-pi play --headless --seats phone,random --listen ...`: a link per phone seat;
    its page and live channel show that seat's own clan (R22) only while held; play starts
    once the phone confirmed its peek, and the game ends with its record kept."""
    import random
    import re
    import threading

    from aiohttp import ClientSession

    from clans_pi.table.headless import run_headless
    from tests.ui_helpers import BOARD, CHART

    lines: list[str] = []
    done: list[object] = []
    thread = threading.Thread(target=lambda: done.append(run_headless(
        tmp_path, ["phone", "random"], BOARD, CHART, random.Random(3), lines.append,
        listen=("127.0.0.1", 0))), daemon=True)
    thread.start()

    async def phone() -> str:
        for _ in range(200):
            links = [m.group(1) for line in lines
                     if (m := re.match(r"phone for Phone 1: (http://\S+)$", line))]
            if links:
                break
            await asyncio.sleep(0.05)
        url = links[0]
        async with ClientSession() as http:
            async with http.get(url) as r:
                assert r.status == 200
            ws = await http.ws_connect(url + "/live")
            hello = await ws.receive_json()
            assert hello["name"] == "Phone 1" and hello["picture"] is False  # no pictures
            async with http.get(url + "/picture.png") as r:
                assert r.status == 404
            assert not [line for line in lines if line.startswith("saved move")]  # waits
            await ws.send_json({"type": "hold"})
            clan = (await ws.receive_json())["clan"]
            await ws.send_json({"type": "release"})
            await ws.receive_json()
            await ws.send_json({"type": "seen"})
            while (await ws.receive_json(timeout=60))["type"] != "result":
                pass  # the end: the phone shows the result (the server waits for it)
            await ws.close()
            return clan

    clan = asyncio.run(phone())
    thread.join(60)
    assert done, "the game did not end"
    session = done[0]
    assert session.public().revealed_clans[session.player_of(0)] == clan
    assert any(line.startswith("record: ") for line in lines)


@pytest.mark.slow
def test_the_press_to_colour_benchmark_runs_and_reports_its_figures():
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "scripts" / "bench" / "phones.py"
    done = subprocess.run([sys.executable, str(script), "--rounds", "6", "--idle-seconds",
                           "0.2"], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert set(figures["press_to_colour_ms"]) == {"median", "p95", "max"}
    assert figures["idle_cpu_percent_two_phones"] >= 0
    assert figures["rounds"] == 6 and figures["phones"] == 2


def test_a_phone_seat_at_the_table_shows_its_code_and_the_deal_goes_on_when_it_confirms():
    """[seats] 1 = "phone": the deal's peek for that seat shows its link as a QR code (no
    clan on the shared screen, R22); the phone gets that seat's own clan while held; its
    "I have seen my clan" moves the deal on."""
    from aiohttp import ClientSession

    from clans_pi.hardware.seats import SeatDevices
    from clans_pi.settings.config import Config
    from tests.ui_helpers import display_app, press

    config = Config()
    config.seats[1] = "phone"
    config.listen = ("127.0.0.1", 0)
    devices = SeatDevices.open(config)
    try:
        with display_app() as (app, _clock):
            app.table.devices = devices
            app.start_menu()
            app.pump()
            press(app, "players2")
            press(app, "start")
            session = app.session
            assert app.screen.name == "peek" and app.screen.seat == 0  # the deal's first
            assert app.screen.device == "phone"
            app.redraw()
            regions = {d.name for d in app.canvas.records if d.kind == "region"}
            assert "qr" in regions
            words = " ".join(d.name for d in app.canvas.records if d.kind in ("text",
                                                                              "paragraph"))
            assert session.private(0).own_clan not in words.lower()
            url = devices.phone_url(0)

            async def phone() -> str:
                async with ClientSession() as http:
                    ws = await http.ws_connect(url + "/live")
                    hello = await ws.receive_json()
                    assert hello["name"] == session.seats[0].name
                    await ws.send_json({"type": "hold"})
                    clan = (await ws.receive_json())["clan"]
                    await ws.send_json({"type": "seen"})
                    await ws.close()
                    return clan

            assert asyncio.run(phone()) == session.private(0).own_clan
            for _ in range(50):
                app.pump()
                if not (app.screen.name == "peek" and app.screen.seat == 0):
                    break
                time.sleep(0.02)
            assert not (app.screen.name == "peek" and app.screen.seat == 0)
    finally:
        devices.close()


@contextlib.contextmanager
def _a_game_with_a_phone_seat():
    """A 2-player game at the table whose first seat is a phone (its server on loopback),
    dealt: (the app, its seat devices, the first seat's live channel's address)."""
    from clans_pi.hardware.seats import SeatDevices
    from clans_pi.settings.config import Config
    from tests.ui_helpers import display_app, press

    config = Config()
    config.seats[1] = "phone"
    config.listen = ("127.0.0.1", 0)
    devices = SeatDevices.open(config)
    try:
        with display_app() as (app, _clock):
            app.table.devices = devices
            app.start_menu()
            app.pump()
            press(app, "players2")
            press(app, "start")
            yield app, devices, devices.phone_url(0) + "/live"
    finally:
        devices.close()


def _wait_for_the_question(app) -> None:
    for _ in range(250):
        app.pump()
        if app.screen.name == "confirm":
            break
        time.sleep(0.02)
    assert app.screen.name == "confirm"


def test_a_second_phone_on_a_seat_s_link_waits_for_the_table_to_say_yes():
    """One phone per seat: a second phone opening the same code takes over only after the
    Pi's screen asks "Anna's phone again?" and someone confirms."""
    from aiohttp import ClientSession

    from tests.ui_helpers import press

    with _a_game_with_a_phone_seat() as (app, _devices, url):
        name = app.session.seats[0].name
        clan = app.session.private(0).own_clan
        seen: list[object] = []

        async def two_phones() -> None:  # on their own thread, as phones are
            async with ClientSession() as http:
                first = await http.ws_connect(url)
                await first.receive_json(timeout=5)
                second = await http.ws_connect(url)
                seen.append((await second.receive_json(timeout=5))["type"])  # waiting
                seen.append(await first.receive_json(timeout=10))  # replaced
                seen.append((await second.receive_json(timeout=5))["type"])  # hello
                await second.send_json({"type": "hold"})
                seen.append((await second.receive_json(timeout=5))["clan"])
                await second.close()

        phones = threading.Thread(target=lambda: asyncio.run(two_phones()), daemon=True)
        phones.start()
        _wait_for_the_question(app)
        assert app.screen.title == f"{name}'s phone again?"
        assert seen == ["waiting"]  # nothing yet
        press(app, "confirm_yes")
        phones.join(15)
        assert seen[1:] == [{"type": "replaced"}, "hello", clan]
        assert app.screen.name == "peek"


def test_a_second_phone_the_table_says_no_to_is_sent_away_with_nothing():
    """"Anna's phone again?" answered No: the second phone is told the seat is on another
    phone and closed; Anna's phone keeps the seat and its clan (R22)."""
    from aiohttp import ClientSession

    from tests.ui_helpers import press

    with _a_game_with_a_phone_seat() as (app, _devices, url):
        clan = app.session.private(0).own_clan
        seen: list[object] = []

        async def two_phones() -> None:
            async with ClientSession() as http:
                first = await http.ws_connect(url)
                await first.receive_json(timeout=5)
                second = await http.ws_connect(url)
                seen.append((await second.receive_json(timeout=5))["type"])  # waiting
                seen.append(await second.receive_json(timeout=10))  # replaced
                await first.send_json({"type": "hold"})
                seen.append((await first.receive_json(timeout=5))["clan"])
                await first.close()

        phones = threading.Thread(target=lambda: asyncio.run(two_phones()), daemon=True)
        phones.start()
        _wait_for_the_question(app)
        press(app, "confirm_no")
        phones.join(15)
        assert seen == ["waiting", {"type": "replaced"}, clan]
        assert app.screen.name == "peek"


def test_a_phone_s_link_is_kept_with_the_save_and_works_after_a_restart(tmp_path):
    """After a power cut the same QR code still works for the same game: the seats' links
    are kept with the save and taken up again when the game resumes; a new game makes new
    ones, and the old ones then say the game is over."""
    from clans_pi.hardware.seats import SeatDevices
    from clans_pi.saving.store import GameStore
    from clans_pi.settings.config import Config
    from tests.ui_helpers import BOARD, CHART, random_session

    config = Config()
    config.seats[1] = "phone"
    config.listen = ("127.0.0.1", 0)
    session = random_session(2, moves=4)
    first = SeatDevices.open(config)
    try:
        first.deal(session)
        link = first.phones.hub.tokens.tokens[0]
        GameStore(tmp_path).save(session)
    finally:
        first.close()
    resumed, problems = GameStore(tmp_path).load(BOARD, CHART)
    assert problems == [] and resumed is not None
    again = SeatDevices.open(config)  # the Pi started again: at first, other links
    try:
        assert again.phones.hub.tokens.tokens[0] != link
        again.deal(resumed)
        assert again.phones.hub.tokens.seat_of(link) == 0  # the same code, the same seat
        again.clear()  # back to the menu: the next game gets new links
        assert again.phones.hub.tokens.seat_of(link) is None
        assert again.phones.hub.tokens.is_over(link)
    finally:
        again.close()


@pytest.mark.slow
def test_the_headless_game_keeps_a_phone_s_link_across_a_restart(tmp_path):
    """Killed while waiting for the phone (a power cut), the headless game started again
    prints the same link for the same game."""
    import socket
    import subprocess
    import sys

    with socket.socket() as probe:  # a free port on loopback
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "clans_pi.cli", "play", "--headless", "--seats",
               "phone,random", "--state-dir", str(tmp_path), "--listen", f"127.0.0.1:{port}"]
    links = []
    for _life in range(2):
        with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as game:
            try:
                for line in game.stdout:
                    if line.startswith("phone for "):
                        links.append(line.split(": ", 1)[1].strip())
                        break
            finally:
                game.kill()
    assert len(links) == 2 and links[0] == links[1]


def test_the_page_speaks_the_players_language_and_shows_the_fifth_clan_as_set():
    from clans_pi import i18n
    from clans_pi.phones.devices import Phones
    from clans_pi.phones.server import page_texts

    i18n.set_language("de")
    try:
        assert page_texts()["hold"] == "Halten, um deinen Clan zu sehen"
        phones = Phones([0], ("127.0.0.1", 0), fifth="white")
        try:
            phones.clans[0] = "black"
            assert phones.hub.clan_of(0) == ("white", "Weiß")
            phones.clans[0] = "red"
            assert phones.hub.clan_of(0) == ("red", "Rot")
        finally:
            phones.close()
    finally:
        i18n.set_language("en")


def test_at_the_end_each_phone_shows_its_own_seat_s_result():
    """R20, R21: once the game is over the seat's phone gets its clan, now revealed, and
    how it did; a phone that opens the page after the end gets it too."""
    from aiohttp import ClientSession

    from clans_pi.hardware.seats import SeatDevices
    from clans_pi.settings.config import Config
    from tests.ui_helpers import finished_session

    config = Config()
    config.seats[2] = "phone"
    config.listen = ("127.0.0.1", 0)
    session = finished_session(3)
    devices = SeatDevices.open(config)
    try:
        devices.deal(session)
        url = devices.phone_url(1) + "/live"
        obs = session.public()
        p = session.player_of(1)

        async def phone() -> tuple[dict, dict]:
            async with ClientSession() as http:
                ws = await http.ws_connect(url)
                await ws.receive_json(timeout=5)
                devices.results(session)
                result = await ws.receive_json(timeout=5)
                await ws.close()
                late = await http.ws_connect(url)
                await late.receive_json(timeout=5)  # hello
                again = await late.receive_json(timeout=5)
                await late.close()
                return result, again

        result, again = asyncio.run(phone())
        assert result == again
        assert result["type"] == "result" and result["clan"] == obs.revealed_clans[p]
        assert result["won"] == (p in obs.winners) and result["players"] == 3
        assert result["place"] == 1 + sum(s > obs.scores[p] for s in obs.scores)
    finally:
        devices.close()


def test_the_link_names_the_pi_s_address_on_the_home_network_or_its_own_hotspot():
    """A phone needs an address it can reach: the listening one, or for 0.0.0.0 the one of
    the interface towards the home network; with only the Pi's own hotspot (no default
    route) the hotspot's; with no network at all the Pi's mDNS name."""
    import socket as socket_module

    from clans_pi.phones.devices import reachable_host

    assert reachable_host("192.168.1.20") == "192.168.1.20"

    def routes(table: dict[str, str]):
        def probe(target: str) -> str:
            if target not in table:
                raise OSError("Network is unreachable")
            return table[target]
        return probe

    home = routes({"10.255.255.255": "192.168.1.7", "10.42.0.255": "10.42.0.1"})
    assert reachable_host("0.0.0.0", home) == "192.168.1.7"
    hotspot_only = routes({"10.42.0.255": "10.42.0.1"})
    assert reachable_host("0.0.0.0", hotspot_only) == "10.42.0.1"
    nothing = routes({})
    assert reachable_host("0.0.0.0", nothing) == socket_module.gethostname() + ".local"


def test_after_the_result_each_phone_gets_its_own_chart_of_how_well_it_hid():
    """After the game the seat's phone gets how sure the others were of its clan,
    move by move: its own numbers only (R22 before the end; after it, still nobody
    else's); a phone that opens the page later gets it too."""
    from aiohttp import ClientSession

    from clans_pi.hardware.seats import SeatDevices
    from clans_pi.history.hiding import READING_NOTE, analyse_record, record_of_view
    from clans_pi.settings.config import Config
    from tests.ui_helpers import BOARD, CHART, finished_session

    config = Config()
    config.seats[2] = "phone"
    config.listen = ("127.0.0.1", 0)
    session = finished_session(3)
    hiding = analyse_record(record_of_view(session.public()), BOARD, CHART)
    devices = SeatDevices.open(config)
    try:
        devices.deal(session)
        url = devices.phone_url(1) + "/live"

        async def phone() -> tuple[dict, dict]:
            async with ClientSession() as http:
                ws = await http.ws_connect(url)
                await ws.receive_json(timeout=5)
                devices.results(session)
                await ws.receive_json(timeout=5)  # the result
                devices.hiding(session, hiding)
                chart = await ws.receive_json(timeout=5)
                await ws.close()
                late = await http.ws_connect(url)
                await late.receive_json(timeout=5)  # hello
                await late.receive_json(timeout=5)  # the result
                again = await late.receive_json(timeout=5)
                await late.close()
                return chart, again

        chart, again = asyncio.run(phone())
        assert chart == again and chart["type"] == "hiding"
        own = hiding.of(session.seats[1].name)
        assert set(chart) == {"type", "curve", "blind", "verdict", "title", "note",
                              "labels", "giveaways"}
        assert chart["note"] == READING_NOTE  # whose reading it is (English here)
        assert chart["curve"] == [round(p, 4) for p in own.table]
        assert chart["verdict"] == own.verdict.text() and chart["blind"] == 0.25
        assert [g["move"] for g in chart["giveaways"]] == [g.move for g in own.giveaways]
    finally:
        devices.close()


def test_the_end_at_the_table_sends_each_phone_its_own_chart_once_read(tmp_path):
    """Table.finish: each phone seat's own chart of how well it hid reaches its phone when
    the background reading is done, and only its own (R22 holds anyway after
    the end, but a phone shows its seat)."""
    from clans_pi.hardware.seats import SeatDevices
    from clans_pi.history.hiding import analyse_record, record_of_view
    from clans_pi.settings.config import Config
    from tests.ui_helpers import BOARD, CHART, display_app, finished_session

    config = Config()
    config.seats[1] = "phone"
    config.listen = ("127.0.0.1", 0)
    config.state_dir = tmp_path
    devices = SeatDevices.open(config)
    try:
        with display_app() as (app, _clock):
            session = finished_session(3)
            app.table.devices = devices
            devices.use_phones([0])
            devices.deal(session)
            app.table.session = session
            app.table.finish()
            hub = devices.phones.hub
            for _ in range(500):
                if 0 in hub.hiding:
                    break
                time.sleep(0.02)
            own = analyse_record(record_of_view(session.public()), BOARD, CHART).of(
                session.seats[0].name)
            assert hub.hiding == {0: own.for_phone()}
    finally:
        devices.close()
