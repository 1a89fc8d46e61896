"""Phone seats' faults: the end of a headless game, an old game's tab left open,
mistyped links, a phone that comes back after its predecessor is gone, a page on another
origin, error answers, and the machine's fonts.

The server runs through aiohttp's test client (its guard's clock moved by hand) or on its
thread on loopback; browser checks are tests/test_phones_browser.py's."""

from __future__ import annotations

import asyncio
import random
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession, WSServerHandshakeError
from aiohttp.test_utils import TestClient, TestServer

from clans_pi import i18n
from clans_pi.phones.server import HEADERS, PhoneHub, PhoneSeat, PhoneServer, make_app
from clans_pi.phones.tokens import SeatTokens
from tests.faults import fault

CLANS = {0: ("red", "Red"), 2: ("blue", "Blue")}


def _hub(tokens: SeatTokens | None = None) -> PhoneHub:
    return PhoneHub(tokens or SeatTokens.new([0, 2]),
                    {0: PhoneSeat("Anna", "fox"), 2: PhoneSeat("Cleo", "bear")}, CLANS.get)


def _run(go: Any, hub: PhoneHub, clock: Any = None, **kwargs: Any) -> Any:
    async def main() -> Any:
        app = make_app(hub, clock=clock, **kwargs) if clock else make_app(hub, **kwargs)
        async with TestClient(TestServer(app)) as client:
            return await go(client)
    return asyncio.run(main())


# --------------------------------------------------------------------------- the end


@fault("phone", "The end of a headless game (no screen) with a phone seat",
       sees="the phone shows its seat's clan, place and \"You won!\" when it won",
       kept="the record; each phone's result, told before the server stops")
def test_the_end_of_a_headless_game_shows_each_phone_its_result(tmp_path: Path) -> None:
    from clans_pi.table.headless import run_headless
    from tests.ui_helpers import BOARD, CHART

    lines: list[str] = []
    done: list[Any] = []
    thread = threading.Thread(target=lambda: done.append(run_headless(
        tmp_path, ["phone", "random"], BOARD, CHART, random.Random(5), lines.append,
        listen=("127.0.0.1", 0))), daemon=True)
    thread.start()

    async def phone() -> dict[str, Any]:
        for _ in range(400):
            links = [m.group(1) for line in lines
                     if (m := re.match(r"phone for Phone 1: (http://\S+)$", line))]
            if links:
                break
            await asyncio.sleep(0.05)
        async with ClientSession() as http:
            ws = await http.ws_connect(links[0] + "/live")
            assert (await ws.receive_json(timeout=10))["type"] == "hello"
            await ws.send_json({"type": "seen"})
            got: dict[str, Any] = {}
            while "hiding" not in got:  # the end (a random game: a second or two)
                msg = await ws.receive_json(timeout=60)
                got[msg["type"]] = msg
            await ws.close()
            return got

    told = asyncio.run(phone())
    result, hiding = told["result"], told["hiding"]
    thread.join(60)
    assert done, "the game did not end"
    session = done[0]
    obs = session.public()
    p = session.player_of(0)
    assert result["clan"] == obs.revealed_clans[p] and result["players"] == 2
    assert result["won"] == (p in obs.winners)
    assert result["place"] == 1 + sum(s > obs.scores[p] for s in obs.scores)
    # Its own chart of how well it hid, as the touchscreen's phones get it.
    from clans_pi.history.hiding import analyse_record, record_of_view

    own = analyse_record(record_of_view(obs), BOARD, CHART).of(session.seats[0].name)
    assert {k: v for k, v in hiding.items() if k != "type"} == own.for_phone()


# --------------------------------------------------------------------------- old links


@fault("phone", "An old game's tab left open on a phone while a new game starts",
       sees="the old tab: \"The game is over\" for good; the new link works at once",
       kept="the new game; the old links, remembered as over (the newest 1,024)")
def test_an_old_game_s_tab_says_over_and_locks_nobody_out(tmp_path: Path) -> None:
    from clans_pi.phones.over import OverLinks

    first = SeatTokens.new([0, 2])
    over = OverLinks(tmp_path)
    over.add(first.tokens.values())  # the first game ended
    # Many games later, in a new process, the state directory still knows them.
    for _ in range(300):
        over.add(SeatTokens.new([0, 1, 2]).tokens.values())
    last = SeatTokens.new([0, 2])
    over.add(last.tokens.values())
    kept = OverLinks(tmp_path).load()
    assert set(last.tokens.values()) <= set(kept) and len(kept) <= OverLinks.KEEP
    assert set(first.tokens.values()) <= set(kept)  # 900 links later: still over
    hub = _hub(SeatTokens.new([0, 2], kept))
    now = [0.0]

    async def go(client: TestClient) -> None:
        for _ in range(30):  # the old tab's retries
            r = await client.get(f"/p/{last.tokens[0]}")
            assert r.status == 410
            assert (await client.get(f"/p/{first.tokens[2]}/live")).status == 410
        assert (await client.get(f"/p/{hub.tokens.tokens[0]}")).status == 200
    _run(go, hub, clock=lambda: now[0], penalty_s=0)


@fault("phone", "The table restarted after a game with phones, then a new game",
       sees="the old game's tab: \"The game is over\" (not \"wrong link\"), for good",
       kept="the new game's links; the old ones, remembered as over in the state directory")
def test_a_finished_game_s_phone_links_say_over_after_a_restart(tmp_path: Path) -> None:
    """The touchscreen's seat devices keep a game's links as over at its end, in the state
    directory, and a restarted table's phones (another process) say so for them."""
    from urllib.parse import urlsplit

    from clans_pi.hardware.seats import SeatDevices
    from clans_pi.settings.config import Config
    from tests.ui_helpers import finished_session

    config = Config()
    config.seats[1] = "phone"
    config.listen = ("127.0.0.1", 0)
    config.state_dir = tmp_path
    session = finished_session(2)
    first = SeatDevices.open(config)
    try:
        first.deal(session)
        old = urlsplit(first.phone_url(0)).path
        first.results(session)  # the reveal; then the power goes
    finally:
        first.close()
    again = SeatDevices.open(config)
    try:
        again.use_phones([0])
        new = urlsplit(again.phone_url(0)).path
        assert new != old

        async def go(client: TestClient) -> None:
            for _ in range(10):  # the old tab's retries: never a lock-out
                assert (await client.get(old)).status == 410
            assert (await client.get(new)).status == 200
        _run(go, again.phones.hub)
    finally:
        again.close()


def test_the_newest_old_links_are_kept_not_the_alphabetically_last() -> None:
    """Kept with the save, the old links are the newest ones, not those that sort last."""
    tokens = SeatTokens.new([0, 1, 2, 3])
    ended: list[str] = []
    for _ in range(60):
        ended += tokens.tokens.values()
        tokens = tokens.renew([0, 1, 2, 3])
    again = SeatTokens.from_json(tokens.to_json())
    assert all(again.is_over(t) for t in ended[-8:])  # the two games that just ended


# --------------------------------------------------------------------------- mistyped


@fault("phone", "Five mistyped links from one phone, then the right one",
       sees="the right link's page, at once; for a wrong one a refusal in the "
            "players' language that tries again by itself",
       kept="the seat's link; wrong ones are slowed, never a right one")
def test_mistyped_links_never_lock_the_right_one_out() -> None:
    hub = _hub()
    now = [0.0]

    async def go(client: TestClient) -> None:
        codes = [(await client.get(f"/p/wrong{k:020d}")).status for k in range(8)]
        assert codes[:5] == [403] * 5 and set(codes[5:]) == {429}
        right = await client.get(f"/p/{hub.tokens.tokens[0]}")
        assert right.status == 200
        ws = await client.ws_connect(f"/p/{hub.tokens.tokens[0]}/live")
        assert (await ws.receive_json())["type"] == "hello"
        await ws.close()
        i18n.set_language("de")
        try:
            refused = await client.get(f"/p/wrong{9:020d}")
            page = await refused.text()
        finally:
            i18n.set_language("en")
        assert refused.status == 429 and refused.headers["Content-Type"].startswith("text/html")
        assert '<html lang="de">' in page and 'href="/phone.css"' in page
        assert 'http-equiv="refresh"' in page  # it tries again by itself
        assert "Too many" not in page and "Minute" in page
    _run(go, hub, clock=lambda: now[0], penalty_s=0)


# --------------------------------------------------------------------------- again


@fault("phone", "A phone opens a seat's link while the seat's old phone is gone (headless: no "
                "screen to confirm)",
       sees="the new phone waits, then gets the seat by itself once the old one is dropped",
       kept="the seat's clan, on the new phone only")
def test_a_phone_whose_predecessor_is_gone_gets_the_seat() -> None:
    hub = _hub()
    hub.screen = False  # headless: no screen to ask (at a table only its "Yes" gives it)

    async def go(client: TestClient) -> None:
        url = f"/p/{hub.tokens.tokens[0]}/live"
        old = await client.ws_connect(url)
        await old.receive_json()
        new = await client.ws_connect(url)
        assert (await new.receive_json())["type"] == "waiting"
        await old.close()  # the server notices it is gone (as its heartbeat does)
        hello = await new.receive_json(timeout=5)
        assert hello["type"] == "hello"
        await new.send_json({"type": "hold"})
        assert (await new.receive_json(timeout=5))["clan"] == "red"
        await new.close()
    _run(go, hub)


# --------------------------------------------------------------------------- origin


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://127.0.0.1.evil:1"])
def test_a_page_on_another_origin_gets_no_channel(origin: str) -> None:
    hub = _hub()

    async def go(client: TestClient) -> None:
        url = f"/p/{hub.tokens.tokens[0]}/live"
        with pytest.raises(WSServerHandshakeError) as refused:
            await client.ws_connect(url, headers={"Origin": origin})
        assert refused.value.status == 403
        own = f"http://{client.server.host}:{client.server.port}"
        ws = await client.ws_connect(url, headers={"Origin": own})
        assert (await ws.receive_json())["type"] == "hello"
        await ws.close()
    _run(go, hub)


@fault("phone", "A page on another origin opens a seat's live channel (it knows the link)",
       sees="nothing: the channel is refused",
       kept="the seat's clan, on its own phone only")
def test_a_cross_origin_channel_is_refused() -> None:
    test_a_page_on_another_origin_gets_no_channel("http://evil.example")


# --------------------------------------------------------------------------- headers


@fault("phone", "Error answers (400, 404, 405, a malformed request)",
       sees="a plain refusal",
       kept="the security headers (CSP, no-store, nosniff, no-referrer) on every answer")
def test_every_answer_carries_the_security_headers() -> None:
    hub = _hub()
    token = hub.tokens.tokens[0]

    async def go(client: TestClient) -> list[int]:
        answers = [await client.get("/nothing/here"),  # 404
                   await client.post(f"/p/{token}"),  # 405
                   await client.get(f"/p/{token}/live"),  # 400: not a WebSocket upgrade
                   await client.get("/p/wrong-link-000000000000"),  # 403
                   await client.get(f"/p/{token}/picture.png")]  # 404: no picture
        for r in answers:
            for name, value in HEADERS.items():
                assert r.headers.get(name) == value, (r.status, name)
        return [r.status for r in answers]
    assert _run(go, hub) == [404, 405, 400, 403, 404]

    async def malformed(port: int) -> str:
        """A request the parser refuses (a control character in the path)."""
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /p/\x01 HTTP/1.1\r\nHost: x\r\n\r\n")
        await writer.drain()
        head = (await reader.read(65536)).decode("latin-1")
        writer.close()
        return head
    server = PhoneServer(hub, "127.0.0.1", 0)
    port = server.start()
    try:
        head = asyncio.run(malformed(port))
    finally:
        server.stop()
    assert head.startswith("HTTP/1.0 400") or head.startswith("HTTP/1.1 400")
    for name, value in HEADERS.items():
        assert f"{name}: {value}" in head, name


# --------------------------------------------------------------------------- fonts


@fault("phone", "A phone (or a test machine) with other fonts than the maker's",
       sees="the page in the project's own font, served with it: the same letters on "
            "every phone",
       kept="every word of the page in the five languages, drawn by that font")
def test_the_page_brings_its_own_font() -> None:
    from clans_pi.phones.server import _asset

    hub = _hub()

    async def go(client: TestClient) -> tuple[str, bytes, dict[str, str]]:
        css = await (await client.get("/phone.css")).text()
        font = await client.get("/phone-font.woff")
        assert font.status == 200 and font.headers["Content-Type"] == "font/woff"
        return css, await font.read(), dict(font.headers)
    css, woff, headers = _run(go, hub)
    for name, value in HEADERS.items():
        assert headers[name] == value
    assert "font-src 'self'" in HEADERS["Content-Security-Policy"]
    assert re.search(r'@font-face\s*{[^}]*src:\s*url\("/phone-font\.woff"\)', css)
    # Every font the page names is the served one: nothing is left to the machine's fonts.
    families = set(re.findall(r"font(?:-family)?:[^;}]*", css))
    assert families and all('"Clans Pi"' in f or "inherit" in f for f in families), families
    # The font served is the page's own, whose every letter of every string the page can
    # show, in every language, test_phone_page.py checks.
    assert woff == _asset("phone-font.woff")


# --------------------------------------------------------------------------- second phones


@fault("phone", "The table said \"No\" to a second phone on a seat's link, then the seat's "
       "phone went away", sees="the refused phone: \"This seat is on another phone now\", "
       "and never the clan; the seat's own phone gets its seat back when it returns",
       kept="the seat's clan for its own phone (R22)")
def test_a_phone_the_table_refused_never_gets_the_seat() -> None:
    hub = _hub()
    assert hub.screen  # the touchscreen's table asks "Anna's phone again?"
    from clans_pi.phones.server import refuse

    async def go(client: TestClient) -> None:
        url = f"/p/{hub.tokens.tokens[0]}/live"
        anna = await client.ws_connect(url)
        assert (await anna.receive_json(timeout=10))["type"] == "hello"
        neighbour = await client.ws_connect(url)
        assert (await neighbour.receive_json(timeout=10))["type"] == "waiting"
        assert (0, "again") in hub.poll()
        await anna.close()  # Anna locks her phone before anyone answers
        for _ in range(200):
            if 0 not in hub.live:
                break
            await asyncio.sleep(0.01)
        assert 0 not in hub.live and hub.waiting.get(0) is not None  # still only waiting
        await refuse(hub, 0)  # "No"
        assert await neighbour.receive_json(timeout=10) == {"type": "replaced"}
        closing = await neighbour.receive(timeout=10)
        assert closing.type.name in ("CLOSE", "CLOSED", "CLOSING")
        anna = await client.ws_connect(url)  # Anna back: her seat at once
        assert (await anna.receive_json(timeout=10))["type"] == "hello"
        await anna.send_json({"type": "hold"})
        assert (await anna.receive_json(timeout=10))["clan"] == "red"
        await anna.close()
    _run(go, hub)


@fault("phone", "Hundreds of connections on one seat's link while its phone is connected",
       sees="one question on the table's screen; each earlier waiting phone told the seat "
       "is on another phone, and closed", kept="the seat's phone; the table's open files")
def test_many_waiting_phones_on_one_link_hold_one_socket() -> None:
    hub = _hub()

    async def go(client: TestClient) -> None:
        url = f"/p/{hub.tokens.tokens[0]}/live"
        anna = await client.ws_connect(url)
        await anna.receive_json()
        extra = []
        for _ in range(30):
            ws = await client.ws_connect(url)
            assert (await ws.receive_json(timeout=10))["type"] == "waiting"
            extra.append(ws)
        for ws in extra[:-1]:
            assert await ws.receive_json(timeout=10) == {"type": "replaced"}
        assert hub.waiting[0] is not None and len(hub.waiting) == 1
        assert hub.poll().count((0, "again")) == 1  # one question, not thirty
        for ws in (anna, *extra):
            await ws.close()
    _run(go, hub)


@fault("phone", "A page on another site whose name was made to point at the table (DNS "
       "rebinding) opens a seat's link", sees="nothing: the channel is refused",
       kept="the seat's clan (R22)")
def test_a_rebound_name_gets_no_channel() -> None:
    hub = _hub()

    async def go(client: TestClient) -> None:
        url = f"/p/{hub.tokens.tokens[0]}/live"
        port = client.port
        for host in (f"evil.example:{port}", f"evil.example.:{port}"):
            with pytest.raises(WSServerHandshakeError) as refused:
                await client.ws_connect(url, headers={"Host": host,
                                                      "Origin": f"http://{host}"})
            assert refused.value.status == 403
        for host in (f"127.0.0.1:{port}", f"clans-pi.local:{port}", f"localhost:{port}"):
            ws = await client.ws_connect(url, headers={"Host": host,
                                                       "Origin": f"http://{host}"})
            assert (await ws.receive_json(timeout=10))["type"] == "hello"
            await ws.close()
    _run(go, hub)


def test_a_damaged_file_of_old_links_is_started_afresh(tmp_path: Path) -> None:
    from clans_pi.phones.over import FILE_NAME, OverLinks

    for text in ('{"over": 5}', '{"over": true}', '{"over": {"a": 1}}', "[1, 2]", "nul"):
        (tmp_path / FILE_NAME).write_text(text, encoding="utf-8")
        assert OverLinks(tmp_path).load() == ()
        links = SeatTokens.new([0]).tokens.values()
        assert OverLinks(tmp_path).add(links) == tuple(links)


def test_wrong_links_wait_in_one_bounded_queue_and_a_right_one_never_waits() -> None:
    """After WRONG_LIMIT misses, wrong links wait their turn one at a time (at most
    MAX_QUEUED of them; more get 429 at once), and the right link is answered meanwhile,
    not after them (each waits 30 s here)."""
    from clans_pi.phones.server import MAX_QUEUED, WRONG_LIMIT

    hub = _hub()

    async def go(client: TestClient) -> None:
        for k in range(WRONG_LIMIT):
            assert (await client.get(f"/p/wrong{k:020d}")).status == 403
        queued = [asyncio.ensure_future(client.get(f"/p/wrong{k:020d}"))
                  for k in range(MAX_QUEUED + 3)]
        right = await asyncio.wait_for(client.get(f"/p/{hub.tokens.tokens[0]}"), 25)
        assert right.status == 200  # while eight wrong ones wait their 30 s turns
        done: set[asyncio.Future[Any]] = set()
        while len(done) < 3:  # those beyond the queue: at once
            more, _ = await asyncio.wait(set(queued) - done, timeout=25,
                                         return_when=asyncio.FIRST_COMPLETED)
            if not more:
                break
            done |= more
        assert [t.result().status for t in done] == [429] * 3
        assert sum(not t.done() for t in queued) == MAX_QUEUED
        for t in queued:
            t.cancel()
    _run(go, hub, penalty_s=30)


@fault("phone", "A headless game with a phone seat stopped after its last move, before its "
       "end was told", sees="the next start: the results at once, each phone its own; no "
       "wait for peeks", kept="the record, once; no save left behind")
@pytest.mark.slow
def test_a_headless_game_found_over_ends_at_once_with_its_phones(tmp_path: Path,
                                                                  monkeypatch) -> None:
    from clans_pi.saving.store import GameStore
    from clans_pi.session import Seat, Session
    from clans_pi.table import headless
    from clans_pi.table.headless import run_headless
    from tests.ui_helpers import BOARD, CHART, finished_session

    done = finished_session(2)
    seats = [Seat(done.seats[0].name, "", "human"), Seat(done.seats[1].name, "", "random")]
    over = Session.load(done.to_record(), BOARD, CHART, seats=seats)
    over.phone_links = SeatTokens.new([0]).to_json()
    GameStore(tmp_path).save(over)  # the last move's save; stopped before the record
    monkeypatch.setattr(headless, "RESULT_WAIT_S", 1)  # no phone comes for its result
    lines: list[str] = []
    thread = threading.Thread(target=lambda: run_headless(
        tmp_path, ["phone", "random"], BOARD, CHART, random.Random(1), lines.append,
        listen=("127.0.0.1", 0)), daemon=True)
    thread.start()
    thread.join(120)  # a hang (waiting for a peek nobody makes) is the fault
    assert not thread.is_alive(), lines
    assert any("the game is over" in line for line in lines)
    assert not (tmp_path / "game.json").exists()
    assert len(list((tmp_path / "records").glob("*.json"))) == 1


@fault("phone", "Hundreds of connections that send their request a byte at a time, never "
       "ending it, until the table is out of open files",
       sees="each phone's link loads at once all the while; the slow connections are closed "
       "within seconds; a line in the log now and then, not a flood",
       kept="the game; the table's open files")
@pytest.mark.slow
def test_slow_connections_never_lock_a_phone_out(tmp_path: Path) -> None:
    """The headless game's server in a process of its own with 256 open files at most (a
    systemd service gets 1,024), against 300 slow clients that each open another
    connection as soon as the server closes theirs: half from one address, half from thirty.
    Before, the server ran out of files within a second, every new load of a right link
    timed out, nothing closed the slow connections, and standard error got tens of thousands
    of lines a second (asyncio's "socket.accept() out of system resource", each with its
    traceback)."""
    import socket
    import subprocess
    import sys
    import time

    from aiohttp import ClientTimeout, TCPConnector

    from clans_pi.phones import load
    from clans_pi.phones.server import HEAD_S

    with socket.socket() as probe:  # a free port on loopback
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = ["prlimit", "--nofile=256", "--", sys.executable, "-m", "clans_pi.cli", "play",
               "--headless", "--seats", "phone,random", "--state-dir", str(tmp_path),
               "--listen", f"127.0.0.1:{port}"]
    errors = tmp_path / "stderr.txt"
    with errors.open("w") as err, subprocess.Popen(command, stdout=subprocess.PIPE,
                                                   stderr=err, text=True) as game:
        try:
            assert game.stdout is not None
            link = next(line.split(": ", 1)[1].strip() for line in game.stdout
                        if line.startswith("phone for "))

            async def attack() -> tuple[list[float], list[load.Slow]]:
                seconds = HEAD_S + 4
                slow = asyncio.gather(load.slow(port, 150, seconds, sources=1),
                                      load.slow(port, 150, seconds, sources=30))
                loads: list[float] = []  # each a new phone's load of its page, in seconds
                async with ClientSession(connector=TCPConnector(force_close=True),
                                         timeout=ClientTimeout(total=5)) as http:
                    await asyncio.sleep(1)  # the slow ones all connected
                    while not slow.done():
                        started = time.perf_counter()
                        try:
                            async with http.get(link) as r:
                                assert r.status == 200 and b"<html" in await r.read()
                        except TimeoutError:
                            pass
                        loads.append(time.perf_counter() - started)
                        await asyncio.sleep(0.5)
                return loads, await slow

            loads, tallies = asyncio.run(attack())
        finally:
            game.kill()
    assert len(loads) >= 4 and max(loads) < 2.0, loads  # a load every second or so
    for tally in tallies:
        # Each slow client was closed by the server at least once, each time within the
        # bound (most at once, to make room, as they come back at once).
        assert len(tally.lived) >= 150 and max(tally.lived) < HEAD_S + 1.5, tally
    lines = errors.read_text(encoding="utf-8", errors="replace").splitlines()
    assert len(lines) <= 5, lines[:20]


@fault("phone", "A phone reconnects while the table restarts, before its game's links are back",
       sees="the phone's page and channel as soon as the game is back, never \"wrong link\"",
       kept="the seat's link (the same QR code); the phone's address, never slowed down")
@pytest.mark.slow
def test_a_phone_reconnecting_during_a_restart_waits_for_its_link(monkeypatch) -> None:
    """The server listens from the table's start; the saved game's links come back a moment
    later (the game is resumed after the screen starts). A phone that asks in between waits
    for them instead of being told its link is wrong (and counted as a wrong guess); one
    that asks on a link that is no game's is told so, SETTLE_S after the start at most.
    Before, both were told "wrong link" at once."""
    import time

    from clans_pi.phones import server as phone_server
    from clans_pi.phones.devices import Phones

    saved = SeatTokens.new([0])
    phones = Phones([0], ("127.0.0.1", 0))
    base = f"http://127.0.0.1:{phones.port}"
    link = saved.tokens[0]
    try:
        async def go() -> list[tuple[int, float]]:
            async with ClientSession() as http:
                async def ask(path: str) -> tuple[int, float]:
                    started = time.monotonic()
                    async with http.get(base + path) as r:
                        return r.status, time.monotonic() - started

                asking = asyncio.gather(ask(f"/p/{link}"), ask(f"/p/{link}/picture.png"))
                await asyncio.sleep(0.5)  # the game is read, the screen drawn, ...
                phones.keep_links(saved.to_json())  # ... and the game resumed
                got = list(await asking)
                got.append(await ask(f"/p/{link}"))
                return got

        (page, _s1), (picture, _s2), (again, took) = asyncio.run(go())
        assert (page, picture, again) == (200, 404, 200)  # no picture drawn: 404, not 403
        assert took < 0.5
        assert not phones.hub.tokens.is_over(link)
    finally:
        phones.close()
    monkeypatch.setattr(phone_server, "SETTLE_S", 1.0)
    phones = Phones([0], ("127.0.0.1", 0))
    try:
        async def wrong() -> tuple[int, float]:
            started = time.monotonic()
            async with ClientSession() as http, \
                    http.get(f"http://127.0.0.1:{phones.port}/p/{link}") as r:
                return r.status, time.monotonic() - started

        status, took = asyncio.run(wrong())  # this table never resumes that game
        assert status == 403 and 0.5 < took < 2.0
    finally:
        phones.close()
