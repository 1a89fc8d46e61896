"""Phones under load and bad input, over loopback only: 50 phones reconnecting in
a loop, and 10,000 malformed or wrong-token requests among the real seats' traffic, through
the real server on its thread. Nothing crashes, the right seats are still served, no clan
reaches a wrong seat or link (every message every phone got is checked, R22), the guard's
memory stays bounded and no token reaches a log. Each load is bounded in time
(clans_pi.phones.load); together they take a few seconds."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import threading
import time

import pytest
from aiohttp import ClientSession, TCPConnector, WSMsgType
from aiohttp.client_exceptions import ClientConnectionResetError

from clans_pi.phones import load
from clans_pi.phones.server import (
    GUARD,
    GUARD_ADDRESSES,
    MAX_MESSAGE,
    WINDOW_S,
    PhoneHub,
    PhoneSeat,
    PhoneServer,
    _Guard,
    take_over,
    tell_result,
)
from clans_pi.phones.tokens import SeatTokens

SEATS = range(5)
#: Each seat's clan, with words found nowhere else, so a leak cannot hide in other text.
CLANS = {seat: (f"clan{seat}", f"Secret-clan-{seat}") for seat in SEATS}
NAMES = {seat: PhoneSeat(f"Player {seat}", "fox") for seat in SEATS}


def _serve(clock=None) -> tuple[PhoneServer, SeatTokens, str]:
    old = SeatTokens.new(SEATS)
    hub = PhoneHub(old.renew(SEATS), dict(NAMES), CLANS.get)
    server = PhoneServer(hub, load.LOOPBACK, 0, **({"clock": clock} if clock else {}))
    port = server.start()
    return server, old, f"http://{load.LOOPBACK}:{port}"


async def _still_serves(base: str, hub: PhoneHub) -> None:
    """Each seat's link still gets its own name, and its own clan on a hold."""
    async with ClientSession() as http:
        for seat, token in hub.tokens.tokens.items():
            ws = await http.ws_connect(f"{base}/p/{token}/live")
            assert (await ws.receive_json(timeout=5))["name"] == f"Player {seat}"
            await ws.send_json({"type": "hold"})
            assert await ws.receive_json(timeout=5) == {
                "type": "clan", "clan": f"clan{seat}", "label": f"Secret-clan-{seat}",
                "mark": None}  # a made-up clan has no mark
            await ws.close()


def test_the_load_goes_to_loopback_only():
    for base in ("http://192.168.1.2:8080", "http://localhost:8080", "https://127.0.0.1:1",
                 "http://127.0.0.1:8080/p/x", "http://0.0.0.0:8080"):
        with pytest.raises(ValueError, match=r"127\.0\.0\.1"):
            load.loopback(base)
    assert load.loopback("http://127.0.0.1:8080/") == "http://127.0.0.1:8080"


def test_fifty_phones_reconnecting_in_a_loop_each_get_their_own_seat_s_clan_only():
    """50 phones on 5 seats' links, 8 rounds each: connect, hold, let go, leave (a third
    of the time without a goodbye). A seat's live phone gets its clan; one waiting for the
    table's yes gets none; nothing is left behind; the seats are served afterwards."""
    server, _old, base = _serve()
    hub = server.hub
    try:
        visits = asyncio.run(load.phones(base, hub.tokens.tokens, count=50, rounds=8,
                                         deadline=30))
        assert len(visits) == 400 and all(v.status == 101 for v in visits)
        assert load.wrong_clans(visits, CLANS) == []
        got = [v for v in visits if any(m["type"] == "clan" for m in v.messages)]
        assert {v.seat for v in got} == set(SEATS)  # every seat was served, again and again
        # At a table a waiting phone waits for the screen's yes (none here): only those that
        # came to a free seat get a clan, a tenth of the visits or more.
        assert len(got) >= 20
        waited = [v for v in visits if v.messages[:1] and v.messages[0]["type"] == "waiting"]
        # A waiting phone gets no clan until it has the seat (a hello: the first one left).
        assert waited and not any(m["type"] == "clan" for v in waited
                                  for m in itertools.takewhile(
                                      lambda m: m["type"] != "hello", v.messages))
        for _ in range(100):  # the server notices the dropped ones
            if not hub.live and not hub.waiting:
                break
            asyncio.run(asyncio.sleep(0.02))
        assert not hub.live and not hub.waiting
        asyncio.run(_still_serves(base, hub))
        assert server.thread.is_alive()
    finally:
        server.stop()


@pytest.mark.slow
def test_ten_thousand_bad_requests_among_the_real_seats_traffic(caplog):
    """10,000 malformed or wrong-token requests and messages at once (over 4 connections,
    plus one each for the requests that are not HTTP and the broken frames), while each
    seat's own phone holds and lets go between garbage messages. The guard's clock runs
    fast here (a minute a reading), so that every wrong link gets checked in full rather
    than slowed down."""
    caplog.set_level(logging.DEBUG)
    ticks = itertools.count()
    server, old, base = _serve(clock=lambda: next(ticks) * (WINDOW_S + 1))
    hub = server.hub
    try:
        tally = asyncio.run(load.bad_input(
            base, hub.tokens.tokens, list(old.tokens.values()), count=10_000, deadline=60,
            secrets=[label for _clan, label in CLANS.values()]))
        assert tally.problems == []
        assert tally.total >= 10_000
        assert set(tally.sent) == {"http", "wrong-link channel", "not http", "broken frame",
                                   "garbage message"}
        assert 429 not in tally.statuses  # the fast clock: every one was checked
        assert {403, 404, 410} <= set(tally.statuses)
        assert sorted(v.seat for v in tally.seats) == list(SEATS)
        assert load.wrong_clans(tally.seats, CLANS) == []
        assert all(sum(m["type"] == "clan" for m in v.messages) >= 10 for v in tally.seats)
        assert len(server.app[GUARD].wrong) <= 1  # one address, 127.0.0.1
        asyncio.run(_still_serves(base, hub))
        assert server.thread.is_alive()
    finally:
        server.stop()
    secret = [*hub.tokens.tokens.values(), *old.tokens.values()]
    lines = [caplog.handler.format(r) for r in caplog.records]
    assert any("Error handling request" in line for line in lines)  # some were logged
    assert not [line for line in lines if any(t in line for t in secret)]
    assert not [line for line in lines if "Secret-clan" in line]


def test_the_guard_forgets_and_remembers_a_bounded_number_of_addresses():
    """Before: one entry per address ever seen (a right link too), never dropped."""
    now = [0.0]
    guard = _Guard(lambda: now[0])
    assert not guard.blocked("10.0.0.9") and guard.wrong == {}  # a right link: nothing kept
    for k in range(GUARD_ADDRESSES * 3):
        guard.missed(f"fd00::{k:x}")
        now[0] += 0.001
    assert len(guard.wrong) == GUARD_ADDRESSES
    for _ in range(5):
        guard.missed("10.0.0.7")
    assert guard.blocked("10.0.0.7") and len(guard.wrong) == GUARD_ADDRESSES
    now[0] += WINDOW_S + 1
    assert not guard.blocked("10.0.0.7")
    assert guard.wrong == {}


def test_a_message_over_the_limit_closes_that_channel_and_deep_nesting_is_ignored():
    server, _old, base = _serve()
    token = server.hub.tokens.tokens[1]

    async def go() -> None:
        async with ClientSession() as http:
            ws = await http.ws_connect(f"{base}/p/{token}/live")
            await ws.receive_json(timeout=5)
            await ws.send_str("[" * (MAX_MESSAGE - 1))  # deeper than Python's stack
            await ws.send_json({"type": "hold"})
            assert (await ws.receive_json(timeout=5))["clan"] == "clan1"
            await ws.send_str('{"type": "hold", "pad": "' + "a" * MAX_MESSAGE + '"}')
            msg = await ws.receive(timeout=5)
            assert msg.type == WSMsgType.CLOSE and msg.data == 1009  # too big
        await _still_serves(base, server.hub)

    try:
        asyncio.run(go())
    finally:
        server.stop()


class _GoneMidSend:
    """A phone whose connection closes while the server writes to it (aiohttp raises)."""

    closed = False

    async def send_json(self, _data: object) -> None:
        raise ClientConnectionResetError("Cannot write to closing transport")

    async def send_bytes(self, _data: bytes) -> None:
        raise ClientConnectionResetError("Cannot write to closing transport")

    async def close(self) -> bool:
        return True


def test_a_phone_gone_while_being_written_to_is_no_error_for_the_table():
    """The result at the end and the table's "yes" to a second phone run on the game's
    thread (PhoneServer.tell_result, take_over): a phone going at that moment must not
    raise into the game. Its result is kept for when it comes back."""
    hub = PhoneHub(SeatTokens.new([0]), {0: NAMES[0]}, CLANS.get)
    hub.live[0] = _GoneMidSend()  # type: ignore[assignment]
    asyncio.run(tell_result(hub, 0, {"clan": "clan0", "won": True}))
    assert hub.results[0]["won"]
    hub.waiting[0] = _GoneMidSend()  # type: ignore[assignment]
    asyncio.run(take_over(hub, 0))
    assert [kind for _seat, kind in hub.poll()] == ["ready"]


def test_a_malformed_request_with_a_seat_s_link_leaves_no_token_in_the_log(caplog):
    """aiohttp's parser quotes a bad request line word for word in its error, and logs it
    with a traceback: here it comes as one line, the link cut out."""
    caplog.set_level(logging.DEBUG)
    server, old, base = _serve()
    token = server.hub.tokens.tokens[0]

    async def go() -> None:
        for raw in (f"GET /p/{token}\x01 HTTP/1.1\r\nHost: x\r\n\r\n",
                    f"GET /p/{old.tokens[1]}/live HTTP/1.1\r\nX: {token}\x01\r\n\r\n"):
            port = int(base.rsplit(":", 1)[1])
            reader, writer = await asyncio.open_connection(load.LOOPBACK, port)
            writer.write(raw.encode())
            assert (await reader.read()).startswith(b"HTTP/1.0 400")
            writer.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()
    lines = [caplog.handler.format(r) for r in caplog.records
             if "Error handling" in r.getMessage()]
    assert len(lines) == 2 and all("\n" not in line for line in lines)
    assert "Invalid char in url path" in lines[0] and "/p/..." in lines[0]
    assert not [line for line in lines if token in line or old.tokens[1] in line]


def test_the_server_stops_at_once_with_phones_connected_and_tells_them():
    """The game quits (or the Pi shuts down) with phones connected: each is told the
    server is going away (1001; its page reconnects to the next one). Before, the stop
    waited for every open channel and raised TimeoutError after 10 s into the game's
    shutdown."""
    server, _old, base = _serve()
    tokens = server.hub.tokens.tokens
    connected = threading.Event()
    closes: list[object] = []

    async def phones() -> None:
        async with ClientSession() as http:
            live = await http.ws_connect(f"{base}/p/{tokens[0]}/live")
            await live.receive_json(timeout=5)
            waiting = await http.ws_connect(f"{base}/p/{tokens[0]}/live")
            await waiting.receive_json(timeout=5)
            connected.set()
            for ws in (live, waiting):
                msg = await ws.receive(timeout=10)
                closes.append((msg.type, msg.data))

    thread = threading.Thread(target=lambda: asyncio.run(phones()), daemon=True)
    thread.start()
    assert connected.wait(10)
    started = time.monotonic()
    server.stop()
    assert time.monotonic() - started < 5
    thread.join(10)
    assert closes == [(WSMsgType.CLOSE, 1001)] * 2
    assert not server.thread.is_alive()


def test_a_hint_to_a_phone_gone_while_being_written_to_is_no_error_either():
    from clans_pi.phones.server import tell_hint, tell_turn

    hub = PhoneHub(SeatTokens.new([0]), {0: NAMES[0]}, CLANS.get)
    hub.live[0] = _GoneMidSend()  # type: ignore[assignment]
    asyncio.run(tell_turn(hub, {0}))
    hub.live[0].send_json = lambda _data: asyncio.sleep(0)  # the words go, the picture not
    asyncio.run(tell_hint(hub, 0, "ready", b"\x89PNG"))
    assert hub.may_hint == {0}


# ------------------------------------------------------------------ slow and idle connections


async def _closed_after(reader: asyncio.StreamReader, started: float, within: float) -> float:
    """Seconds from ``started`` until the server closed the connection (within ``within``)."""
    with contextlib.suppress(ConnectionError):
        await asyncio.wait_for(reader.read(), within)
    return time.monotonic() - started


@pytest.mark.slow
def test_a_slow_head_and_an_idle_connection_are_closed_in_time(monkeypatch):
    """A connection that sends nothing, one that sends its head a byte at a time, and one
    kept open after its request are closed (after HEAD_S, HEAD_S and IDLE_S); a seat's live
    channel stays, however quiet. Before, nothing closed any of them for an hour."""
    from clans_pi.phones import server as phone_server

    monkeypatch.setattr(phone_server, "HEAD_S", 0.5)
    monkeypatch.setattr(phone_server, "IDLE_S", 1.0)
    server, _old, base = _serve()
    port = int(base.rsplit(":", 1)[1])

    async def go() -> None:
        async with ClientSession() as http:
            live = await http.ws_connect(f"{base}/p/{server.hub.tokens.tokens[0]}/live")
            assert (await live.receive_json(timeout=5))["type"] == "hello"
            started = time.monotonic()
            silent, quiet = await asyncio.open_connection(load.LOOPBACK, port)
            slow, trickle = await asyncio.open_connection(load.LOOPBACK, port)
            kept, asks = await asyncio.open_connection(load.LOOPBACK, port)
            asks.write(b"GET /phone.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert (await kept.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 200")
            trickle.write(b"GET /phone.css HTTP/1.1\r\nX: ")

            async def trickling() -> None:
                while not trickle.is_closing():
                    trickle.write(b"a")
                    await asyncio.sleep(0.05)

            dripping = asyncio.ensure_future(trickling())
            silent_s, slow_s, kept_s = await asyncio.gather(
                _closed_after(silent, started, 5), _closed_after(slow, started, 5),
                _closed_after(kept, started, 5))
            dripping.cancel()
            assert 0.4 < silent_s < 1.0 and 0.4 < slow_s < 1.0, (silent_s, slow_s)
            assert 0.9 < kept_s < 2.0, kept_s
            await asyncio.sleep(1.0)
            assert not live.closed  # past both bounds: the seat's phone stays
            await live.send_json({"type": "hold"})
            assert (await live.receive_json(timeout=5))["type"] == "clan"
            await live.close()
            for writer in (quiet, trickle, asks):
                writer.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()


def test_a_request_head_too_big_is_refused_and_a_browser_s_is_served():
    """A head of many or long lines is answered 4xx and closed (each waiting connection may
    hold at most MAX_HEADERS lines of MAX_FIELD bytes); a phone browser's ordinary head is
    served."""
    from clans_pi.phones import server as phone_server

    server, _old, base = _serve()
    port = int(base.rsplit(":", 1)[1])
    browser = ("Host: 127.0.0.1\r\nUser-Agent: Mozilla/5.0 (Linux; Android 14; Pixel 8) "
               "AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36\r\n"
               "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\n"
               "Accept-Language: ja-JP,ja;q=0.9,en-US;q=0.8\r\nAccept-Encoding: gzip\r\n"
               "Connection: keep-alive\r\nUpgrade-Insecure-Requests: 1\r\n")
    many = "".join(f"X-{i}: y\r\n" for i in range(phone_server.MAX_HEADERS + 1))
    long = f"X: {'y' * (phone_server.MAX_FIELD + 1)}\r\n"

    async def status(head: str) -> bytes:
        reader, writer = await asyncio.open_connection(load.LOOPBACK, port)
        writer.write(f"GET /phone.css HTTP/1.1\r\n{head}\r\n".encode())
        line = await asyncio.wait_for(reader.readline(), 5)
        writer.close()
        return line.split(b" ")[1] if line else b""

    async def go() -> None:
        assert await status(browser) == b"200"
        for head in (browser + many, browser + long):
            assert (await status(head)).startswith(b"4"), head[-40:]

    try:
        asyncio.run(go())
    finally:
        server.stop()


@pytest.mark.slow
def test_connections_beyond_the_limits_make_room(monkeypatch):
    """Beyond PER_ADDRESS from one address, or the limit in all, the oldest connection that
    waits for a request makes room; a seat's live channel never does, and a right link from
    a full address still loads. Before, every connection was kept."""
    from clans_pi.phones import server as phone_server

    monkeypatch.setattr(phone_server, "PER_ADDRESS", 4)
    monkeypatch.setattr(phone_server, "MAX_CONNECTIONS", 8)
    server, _old, base = _serve()
    port = int(base.rsplit(":", 1)[1])
    token = server.hub.tokens.tokens[0]

    writers: list[asyncio.StreamWriter] = []  # kept: a writer let go closes its connection

    async def silent(k: int) -> asyncio.StreamReader:
        reader, writer = await asyncio.open_connection(load.LOOPBACK, port,
                                                       local_addr=(load.source(k), 0))
        writers.append(writer)
        await asyncio.sleep(0.05)  # the server's side waits for its request now
        return reader

    async def is_open(reader: asyncio.StreamReader) -> bool:
        try:
            return await asyncio.wait_for(reader.read(1), 0.2) != b""
        except TimeoutError:
            return True
        except ConnectionError:
            return False

    async def which_open(readers: list[asyncio.StreamReader]) -> list[bool]:
        return list(await asyncio.gather(*map(is_open, readers)))

    async def go() -> None:
        async with ClientSession() as http:
            live = await http.ws_connect(f"{base}/p/{token}/live")
            assert (await live.receive_json(timeout=5))["type"] == "hello"
            one = [await silent(0) for _ in range(6)]  # six from one address
            assert await which_open(one) == [False] * 2 + [True] * 4
            many = [await silent(k) for k in range(1, 7)]  # six more, from six others
            assert await which_open(one + many) == [False] * 5 + [True] * 7  # and the live one
            assert len(server.limits.open) <= 8
            # A right link from an address at its limit: at once, and the live channel stays.
            async with ClientSession(connector=TCPConnector(
                    local_addr=(load.source(1), 0))) as phone:
                for _ in range(4):
                    async with phone.get(f"{base}/p/{token}") as r:
                        assert r.status == 200
            await live.send_json({"type": "hold"})
            assert (await live.receive_json(timeout=5))["type"] == "clan"
            await live.close()
        for writer in writers:
            writer.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()


@pytest.mark.slow
def test_the_loop_s_accept_errors_make_one_log_line_a_minute(monkeypatch, caplog):
    """asyncio's accept loop, out of open files, reports each failed accept (thousands a
    second, each with a traceback); the server's loop says it once at the first, then once
    an interval with how many, and nothing once they stop."""
    from clans_pi.phones import server as phone_server

    monkeypatch.setattr(phone_server, "LOG_EVERY_S", 0.1)
    caplog.set_level(logging.INFO)
    failed = {"message": "socket.accept() out of system resource",
              "exception": OSError(24, "Too many open files")}

    def said() -> list[str]:
        return [r.getMessage().rsplit(", ", 1)[1] for r in caplog.records
                if r.name == "clans_pi.phones.server"]

    async def go() -> None:
        loop = asyncio.get_running_loop()
        limits = phone_server._Limits(loop, total=8)
        for _ in range(10_000):
            limits.loop_error(loop, failed)
        assert said() == ["1 time(s)"]  # at once
        await asyncio.sleep(0.6)  # an interval: the rest in one line; then a quiet one
        assert said() == ["1 time(s)", "9999 time(s)"]
        for _ in range(3):  # later: at once again
            limits.loop_error(loop, failed)
        assert said()[2:] == ["1 time(s)"]
        await asyncio.sleep(0.6)
        assert said()[2:] == ["1 time(s)", "2 time(s)"]
        limits.loop_error(loop, {"message": "something else"})  # as asyncio says it
        limits.stop()

    asyncio.run(go())
    lines = [r.getMessage() for r in caplog.records if r.name == "clans_pi.phones.server"]
    assert lines[0] == ("phones: could not accept a connection, out of open files (OSError: "
                        "[Errno 24] Too many open files), 1 time(s)")
    assert [r.getMessage() for r in caplog.records if r.name == "asyncio"] == ["something else"]


def test_the_maker_s_guide_says_the_limits_as_they_are():
    """docs/pi.md tells the phones' server's limits in numbers: these."""
    from pathlib import Path

    from clans_pi.phones import server as s

    text = " ".join((Path(__file__).parent.parent / "docs" / "pi.md").read_text(
        encoding="utf-8").split())
    for words in (f"whole request within {s.HEAD_S:g} s of opening",
                  f"closed after {s.IDLE_S:g} s", f"At most {s.PER_ADDRESS} connections",
                  f"{s.MAX_CONNECTIONS} in all", f"its limit less {s.FD_RESERVE}",
                  f"waits for it ({s.SETTLE_S:g} s at most)",
                  f"at most {s.MAX_HEADERS} lines of {s.MAX_FIELD} bytes"):
        assert words in text, words


def test_the_limits_find_the_parts_of_aiohttp_they_read(caplog, monkeypatch):
    """The limits read two of aiohttp's private parts (its pin below 4 in pyproject.toml
    keeps them); if a version lacks one, the log says what is lost, once at start."""
    from clans_pi.phones import server as phone_server

    caplog.set_level(logging.WARNING, logger="clans_pi.phones.server")
    server, _old, _base = _serve()
    server.stop()
    assert not [r for r in caplog.records if "this aiohttp has no" in r.getMessage()]
    assert phone_server.unheld_hooks([object()]) == []
    assert [name for name, _lost in phone_server.unheld_hooks(None)] == ["TCPSite._server"]
    monkeypatch.setattr(phone_server.web.RequestHandler, "__slots__", ())
    assert [name for name, _lost in phone_server.unheld_hooks([object()])] == [
        "RequestHandler._waiter"]
