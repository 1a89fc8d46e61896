"""Load and bad input for the phones' server, over loopback only.

Three loads, each bounded in count and in time, each stopping by itself:

- :func:`phones`: many phones on the seats' links, each connecting, holding, letting go and
  leaving (closing, or dropping the connection as a phone out of the Wi-Fi does) for a
  number of rounds; more phones than seats, so most find their seat taken and wait.
- :func:`bad_input`: malformed and wrong-token requests (wrong, old, over-long and
  non-ASCII tokens, bad paths and methods, requests that are not HTTP at all, garbage and
  binary WebSocket messages, invalid JSON, unknown types, messages over the size limit,
  frames that break the WebSocket protocol), all at once, while each seat's real phone
  holds and lets go on its live channel between them.
- :func:`slow`: clients that send a request's head a byte at a time and never end it,
  from one or many loopback addresses, each opening another when the server closes its
  own.

Every message each phone got is kept (:class:`Visit`), so that :func:`wrong_clans` can
check that no clan reached a wrong seat or a phone that was not its seat's (R22). Used by
``tests/test_phones_load.py`` and, in a process of its own, by ``scripts/bench/ui.py
--phones`` (``python -m clans_pi.phones.load``). It talks to 127.0.0.1 and nothing else,
each phone (and each connection of the requests that are not HTTP) from a loopback address
of its own, as phones on a Wi-Fi each have theirs.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from aiohttp import ClientSession, ClientTimeout, TCPConnector, WSMsgType, WSServerHandshakeError
from yarl import URL

LOOPBACK = "127.0.0.1"
#: Each load's limit on the wall clock: past it, it is cancelled (a TimeoutError).
DEADLINE_S = 60.0
#: Each request's own limits (waiting for one of the few connections does not count).
CONNECT = ClientTimeout(total=None, sock_connect=10, sock_read=10)


def loopback(base: str) -> str:
    """``base`` ("http://127.0.0.1:PORT") if it is on loopback; anything else is refused."""
    parts = urlsplit(base)
    if parts.scheme != "http" or parts.hostname != LOOPBACK or parts.path not in ("", "/"):
        raise ValueError(f"load goes to http://{LOOPBACK}:PORT only, not {base!r}")
    return base.rstrip("/")


@dataclass
class Visit:
    """One connection of one phone: the seat its link is (None for a wrong link), the
    upgrade's status (101 when it got a channel) and every message it got there."""

    seat: int | None
    status: int = 0
    messages: list[dict[str, Any]] = field(default_factory=list)


def wrong_clans(visits: list[Visit], clans: dict[int, tuple[str, str]]) -> list[str]:
    """What went wrong, in words (none: all is well): a clan or a hint on a channel that is
    not its seat's live one (a wrong link, a phone waiting for the table's yes, one
    replaced), a clan that is not that seat's own, or anything unknown."""
    problems = []
    for k, visit in enumerate(visits):
        live = False
        for msg in visit.messages:
            kind = msg.get("type")
            if kind == "hello":
                live = True
            elif kind == "replaced":
                live = False
            elif kind == "clan":
                mine = clans.get(visit.seat) if visit.seat is not None else None
                if not live or mine is None:
                    problems.append(f"visit {k} (seat {visit.seat}) got a clan while not "
                                    f"its seat's phone: {msg}")
                elif (msg.get("clan"), msg.get("label")) != mine:
                    problems.append(f"visit {k} (seat {visit.seat}) got another seat's clan: "
                                    f"{msg}")
            elif kind in ("hint", "frame BINARY") and not live:  # a hint follows the clan
                problems.append(f"visit {k} (seat {visit.seat}) got a hint while not its "
                                f"seat's phone: {msg}")
            elif kind not in ("waiting", "hidden", "result", "turn", "hint", "frame BINARY"):
                problems.append(f"visit {k} (seat {visit.seat}) got {msg}")
    return problems


# ------------------------------------------------------------------ phones in a loop


async def _read(ws: Any, visit: Visit, heard: asyncio.Condition) -> None:
    async for msg in ws:
        if msg.type == WSMsgType.TEXT:
            try:
                visit.messages.append(json.loads(msg.data))
            except ValueError:
                visit.messages.append({"type": "not json", "data": msg.data[:80]})
        else:
            visit.messages.append({"type": f"frame {msg.type.name}"})
        async with heard:
            heard.notify_all()


async def _until(heard: asyncio.Condition, test: Callable[[], bool], timeout: float) -> bool:
    try:
        async with asyncio.timeout(timeout), heard:
            await heard.wait_for(test)
        return True
    except TimeoutError:
        return False


async def _say(ws: Any, message: dict[str, Any]) -> bool:
    """Send ``message``; False when the table has closed the channel already."""
    try:
        await ws.send_json(message)
    except ConnectionResetError:
        return False
    return True


def source(k: int) -> str:
    """The ``k``-th loopback address a client of the load comes from, beside 127.0.0.1:
    each phone has its own address, as on a table's Wi-Fi (the server allows only so many
    connections from one)."""
    return f"127.0.{k // 250}.{2 + k % 250}"


def _session(k: int) -> ClientSession:
    return ClientSession(timeout=CONNECT,
                         connector=TCPConnector(local_addr=(source(k), 0)))


async def _phone(base: str, seat: int, token: str, rounds: int, rng: random.Random,
                 pause: float, visits: list[Visit], k: int) -> None:
    http = _session(k)
    try:
        for _ in range(rounds):
            visit = Visit(seat)
            visits.append(visit)
            try:
                ws = await http.ws_connect(f"{base}/p/{token}/live", autoclose=True)
            except WSServerHandshakeError as exc:
                visit.status = exc.status
                await asyncio.sleep(pause)
                continue
            visit.status = 101
            heard = asyncio.Condition()
            reader = asyncio.create_task(_read(ws, visit, heard))
            got = visit.messages

            def types(got: list[dict[str, Any]] = got) -> list[Any]:
                return [m.get("type") for m in got]

            await _until(heard, lambda got=got: bool(got), 5.0)
            live = types()[:1] == ["hello"]
            await asyncio.sleep(rng.random() * pause)  # holding the connection a while
            # A waiting phone replaced by a newer one is closed by the table: it stops there,
            # as the page does.
            if await _say(ws, {"type": "hold"}):
                # Its seat's phone gets the clan at once; a waiting one must get nothing.
                await _until(heard, lambda t=types: "clan" in t(), 5.0 if live else pause)
                await _say(ws, {"type": "release"})
            if live:
                await _until(heard, lambda t=types: "hidden" in t(), 5.0)
            if rng.random() < 0.3:  # out of the Wi-Fi: gone without a goodbye
                reader.cancel()
                await http.close()
                http = _session(k)
            else:
                await ws.close()
            await asyncio.gather(reader, return_exceptions=True)
    finally:
        await http.close()


async def phones(base: str, tokens: dict[int, str], *, count: int = 50, rounds: int = 10,
                 seed: int = 1, pause: float = 0.05,
                 deadline: float = DEADLINE_S) -> list[Visit]:
    """``count`` phones spread over the seats' ``tokens``, all at once, each ``rounds``
    times: connect, hold, let go, leave. Every visit, with what it got."""
    base = loopback(base)
    rng = random.Random(seed)
    seats = sorted(tokens)
    visits: list[Visit] = []
    async with asyncio.timeout(deadline):
        await asyncio.gather(*(
            _phone(base, seats[k % len(seats)], tokens[seats[k % len(seats)]], rounds,
                   random.Random(rng.random()), pause, visits, k) for k in range(count)))
    return visits


# ------------------------------------------------------------------ bad input


@dataclass
class Tally:
    """What :func:`bad_input` sent and what came back."""

    sent: Counter[str] = field(default_factory=Counter)  # kind -> how many
    statuses: Counter[int] = field(default_factory=Counter)  # HTTP statuses of the refused
    problems: list[str] = field(default_factory=list)  # what should not have happened
    seats: list[Visit] = field(default_factory=list)  # the real phones' channels
    seconds: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.sent.values())


#: WebSocket text messages a phone's channel must shrug off (no answer, no harm).
GARBAGE = (
    "not json at all", "", "{", "}", "[1, 2, 3]", "null", "42", '"hold"', "true",
    '{"type": 5}', '{"type": ["hold"]}', '{"type": {"hold": 1}}', '{"type": null}',
    '{"type": "HOLD"}', '{"type": "hold "}', '{"type": "unknown"}', '{"kind": "hold"}',
    '{"type": "clan", "clan": "red"}', '{"type": "hello"}', '{"type": "result"}',
    '{"type": "x", "pad": "' + "a" * 900 + '"}', "[" * 1000, '{"a":' * 200,
    "\u00e9\u4e2d\U0001f600", '{"type": "seen\u0000"}', "\x00\x01\x02",
)
#: Binary messages: ignored, even one that spells a hold.
BINARY = (b'{"type": "hold"}', b"\x00\xff" * 100, bytes(range(256)))
#: Requests that are not HTTP, or break it; each on a connection of its own.
NOT_HTTP = (
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(32),  # a TLS hello
    b"HELLO\r\n\r\n", b"GET\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n",
    b"GET /p/{token}\x01 HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /p/{token} HTTP/1.1\r\nHo\x01st: x\r\n\r\n",
    b"GET /p/{token} HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
    b"GET /p/{token} HTTP/1.1\r\nHost: x\r\nX: " + b"y" * 9000 + b"\r\n\r\n",
    b"GET /p/{token} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    b"\xff\xfe\xfd\r\n\r\n",
)


def _bad_paths(rng: random.Random, tokens: list[str], old: list[str]) -> list[tuple[str, str]]:
    """(method, raw path) of requests that must be refused, one of each kind."""
    token = rng.choice(tokens)
    guess = base64.urlsafe_b64encode(rng.randbytes(16)).rstrip(b"=").decode()
    # One letter changed (not to a way of typing it: capitals, i/l for 1, o for 0).
    flipped = token[:-1] + ("2" if token[-1] != "2" else "3")
    out = [
        ("GET", f"/p/{guess}"), ("GET", f"/p/{guess}/live"), ("GET", f"/p/{flipped}"),
        ("GET", f"/p/{token[:-1]}"), ("GET", f"/p/{token}x"), ("GET", f"/p/{token[::-1]}"),
        ("GET", "/p/" + "A" * rng.randrange(100, 6000)),
        ("GET", "/p/%C3%A9%E4%B8%AD%F0%9F%98%80"), ("GET", "/p/%FF%FE%00"),
        ("GET", f"/p/{token}%00"), ("GET", f"/p/{token}%20"), ("GET", "/p/%2e%2e%2f%2e%2e"),
        ("GET", "/"), ("GET", "/p"), ("GET", "/p/"), ("GET", "/p//live"),
        ("GET", "/phone.html"), ("GET", "/../../etc/passwd"), ("GET", f"/p/{token}/live/x"),
        ("GET", "/phone.jsx"), ("GET", "/PHONE.JS"), ("GET", f"/p/{token}/x"),
        ("POST", f"/p/{token}"), ("PUT", f"/p/{token}/live"), ("DELETE", "/phone.js"),
    ]
    if old:
        out.append(("GET", f"/p/{rng.choice(old)}"))
    return out


async def _http(http: ClientSession, base: str, jobs: list[tuple[str, str]], tally: Tally,
                secrets: list[str]) -> None:
    for method, path in jobs:
        async with http.request(method, URL(base + path, encoded=True),
                                allow_redirects=False) as r:
            body = await r.text(errors="replace")
        tally.sent["http"] += 1
        tally.statuses[r.status] += 1
        if r.status < 400 or any(s in body for s in secrets):
            tally.problems.append(f"{method} {path[:60]}: {r.status} {body[:60]!r}")


async def _upgrade(http: ClientSession, base: str, paths: list[str], tally: Tally) -> None:
    for path in paths:
        try:
            ws = await http.ws_connect(URL(base + path, encoded=True))
        except WSServerHandshakeError as exc:
            tally.sent["wrong-link channel"] += 1
            tally.statuses[exc.status] += 1
            continue
        tally.problems.append(f"a channel on {path[:40]}")
        await ws.close()


async def _not_http(port: int, raw: bytes, tally: Tally, secrets: list[str], k: int) -> None:
    reader, writer = await asyncio.open_connection(LOOPBACK, port, local_addr=(source(k), 0))
    try:
        writer.write(raw)
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(4096), 5)
    except (ConnectionError, TimeoutError):
        answer = b""
    finally:
        writer.close()
    tally.sent["not http"] += 1
    text = answer.decode("latin-1")
    if text.startswith("HTTP/1.1 200") or any(s in text for s in secrets):
        tally.problems.append(f"{raw[:30]!r} got {text[:60]!r}")


def _frame(opcode: int, payload: bytes, *, fin: bool = True, mask: bool = True,
           rsv: int = 0) -> bytes:
    """One WebSocket frame as a client sends it (RFC 6455 5.2), or breaking the rules."""
    head = bytes([(0x80 if fin else 0) | rsv << 4 | opcode])
    n = len(payload)
    size = (bytes([n]) if n < 126 else bytes([126]) + n.to_bytes(2, "big") if n < 65536
            else bytes([127]) + n.to_bytes(8, "big"))
    if not mask:
        return head + size + payload
    key = os.urandom(4)
    return (head + bytes([size[0] | 0x80]) + size[1:] + key
            + bytes(b ^ key[i % 4] for i, b in enumerate(payload)))


#: Frames that break the WebSocket protocol: the server must close that channel, no more.
BROKEN_FRAMES = (
    _frame(0x1, b'{"type": "hold"}', mask=False),  # a client's frames must be masked
    _frame(0x3, b"x"), _frame(0xB, b"x"),  # reserved opcodes
    _frame(0x1, b'{"type": "hold"}', rsv=4),  # RSV1 without an extension
    _frame(0x9, b"x" * 126),  # a control frame over 125 bytes
    _frame(0x9, b"x", fin=False),  # a fragmented control frame
    _frame(0x0, b'{"type": "hold"}'),  # a continuation of nothing
    _frame(0x1, b"\xff\xfe\xfd"),  # text that is not UTF-8
    _frame(0x1, b'{"type": ', fin=False) + _frame(0x1, b'"hold"}'),  # a new text mid-message
    _frame(0x8, (999).to_bytes(2, "big")),  # a close with an invalid code
    _frame(0x1, b"x" * 70000),  # over the size limit
)


async def _broken(port: int, token: str, frame: bytes, tally: Tally,
                  secrets: list[str], k: int) -> None:
    """A channel on a real link (it waits: the seat's phone is live) that gets one frame
    that breaks the protocol; it must be closed, and must not have carried a clan."""
    reader, writer = await asyncio.open_connection(LOOPBACK, port, local_addr=(source(k), 0))
    try:
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(f"GET /p/{token}/live HTTP/1.1\r\nHost: {LOOPBACK}:{port}\r\n"
                     f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}"
                     f"\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        tally.sent["broken frame"] += 1
        if not head.startswith(b"HTTP/1.1 101"):
            tally.statuses[int(head.split()[1])] += 1  # refused (slowed down): fine
            return
        # The broken frame, then a proper goodbye for a server that let it pass (aiohttp
        # takes unmasked frames): either way the server closes the channel.
        writer.write(frame + _frame(0x8, (1000).to_bytes(2, "big")))
        await writer.drain()
        rest = await asyncio.wait_for(reader.read(), 10)
    except (ConnectionError, TimeoutError, asyncio.IncompleteReadError):
        return
    finally:
        writer.close()
    if b'"clan"' in rest or any(s.encode() in rest for s in secrets):
        tally.problems.append(f"a broken channel got {rest[:80]!r}")


async def _real_phone(http: ClientSession, base: str, seat: int, token: str,
                      tally: Tally) -> Callable[[int, random.Random], Any]:
    """A seat's own phone, connected (its hello read); returned: its part amid the bad
    input, ``rounds`` times hold, garbage, let go. Each hold must get its clan and each
    release its "hidden", in order, whatever came between."""
    visit = Visit(seat, 101)
    tally.seats.append(visit)
    for _ in range(50):  # a phone that has just left may still hold the seat for a moment
        ws = await http.ws_connect(f"{base}/p/{token}/live", max_msg_size=0)
        first = await ws.receive_json(timeout=10)
        if first.get("type") == "hello":
            break
        await ws.close()
        await asyncio.sleep(0.1)
    else:
        raise AssertionError(f"seat {seat}'s phone never got its seat: {first}")
    visit.messages.append(first)

    async def next_message() -> dict[str, Any]:
        msg = await ws.receive(timeout=10)
        if msg.type != WSMsgType.TEXT:
            raise AssertionError(f"seat {seat}'s phone lost its channel: {msg}")
        data: dict[str, Any] = json.loads(msg.data)
        visit.messages.append(data)
        return data

    async def play(rounds: int, rng: random.Random) -> None:
        for _ in range(rounds):
            for text in rng.sample(GARBAGE, 16):
                await ws.send_str(text)
            for data in (*BINARY, rng.choice(BINARY)):
                await ws.send_bytes(data)
            await ws.send_json({"type": "hold"})
            tally.sent["garbage message"] += 20
            got = await next_message()
            await ws.send_bytes(BINARY[0])  # a binary "hold" while held: no second clan
            await ws.send_str(rng.choice(GARBAGE))
            await ws.send_json({"type": "release"})
            tally.sent["garbage message"] += 2
            after = await next_message()
            if got.get("type") != "clan" or after.get("type") != "hidden":
                tally.problems.append(f"seat {seat}: hold gave {got}, release gave {after}")
        await ws.close()

    return play


async def bad_input(base: str, tokens: dict[int, str], old: list[str] | None = None, *,
                    count: int = 10_000, seed: int = 1, connections: int = 4,
                    secrets: list[str] | None = None,
                    deadline: float = DEADLINE_S) -> Tally:
    """About ``count`` malformed or wrong-token requests and messages, all at once over a
    few connections, while each seat's real phone (one per token) keeps holding and letting
    go. ``secrets`` (the clans' words) must never be in a refusal."""
    base = loopback(base)
    port = URL(base).port
    assert port is not None
    rng = random.Random(seed)
    tally = Tally()
    real = list(tokens.values())
    old = list(old or [])
    secrets = list(secrets or [])
    # Shares of the count: the real phones' garbage messages (22 a round), refused
    # channels, requests that are not HTTP, broken frames, and HTTP requests for the rest.
    rounds = max(1, count * 7 // 10 // (22 * max(1, len(tokens))))
    upgrades = count // 25
    # At once, under the server's limit in all (server.MAX_CONNECTIONS, 256) with the rest:
    # beyond it the server closes idle kept-alive connections to make room, which is its
    # own test's matter, not this one's.
    raw = min(160, count // 30)
    broken = min(len(BROKEN_FRAMES) * 4, count // 100)
    http_count = max(0, count - rounds * 22 * len(tokens) - upgrades - raw - broken)
    jobs: list[tuple[str, str]] = []
    while len(jobs) < http_count:
        jobs += _bad_paths(rng, real, old)
    jobs = jobs[:http_count]
    started = time.perf_counter()
    async with asyncio.timeout(deadline), ClientSession(timeout=CONNECT) as own, \
            ClientSession(timeout=CONNECT, connector=TCPConnector(limit=connections)) as http:
        # The real phones first: their seats' live channels, open before the guard slows
        # this address down (then the broken frames' channels on their links wait).
        phones = [await _real_phone(own, base, seat, token, tally)
                  for seat, token in tokens.items()]
        wrong = [p for m, p in _bad_paths(rng, real, old) if m == "GET" and "/live" not in p]
        per = max(1, http_count // connections + 1)
        await asyncio.gather(
            *(play(rounds, random.Random(rng.random())) for play in phones),
            *(_http(http, base, jobs[k:k + per], tally, secrets)
              for k in range(0, len(jobs), per)),
            *(_upgrade(own, base, [rng.choice(wrong) + "/live" for _ in range(upgrades // 2)],
                       tally) for _ in range(2)),
            *(_not_http(port, rng.choice(NOT_HTTP).replace(b"{token}",
                                                           rng.choice(real).encode()),
                        tally, secrets, k) for k in range(raw)),
            *(_broken(port, rng.choice(real), BROKEN_FRAMES[k % len(BROKEN_FRAMES)], tally,
                      secrets, raw + k)
              for k in range(broken)))
    tally.seconds = time.perf_counter() - started
    return tally


# ------------------------------------------------------------------ slow connections


@dataclass
class Slow:
    """What :func:`slow` saw: how long each of its connections stayed open until the server
    closed it (seconds), how many were still open at the end, and how many could not even
    connect within a second."""

    lived: list[float] = field(default_factory=list)
    open_at_end: int = 0
    unconnected: int = 0

    @property
    def opened(self) -> int:
        return len(self.lived) + self.open_at_end


async def _slow_one(port: int, address: str, until: float, trickle_s: float, again: bool,
                    tally: Slow) -> None:
    """One slow client from ``address`` (on loopback): it opens a connection and
    sends a request's head a byte at a time, never ending it; closed by the server, it
    opens another (``again``) until ``until``."""
    loop = asyncio.get_running_loop()
    while loop.time() < until:
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(LOOPBACK, port, local_addr=(address, 0)), 1.0)
        except (OSError, TimeoutError):
            tally.unconnected += 1
            await asyncio.sleep(trickle_s)
            continue
        opened = loop.time()
        closed = False
        try:
            writer.write(b"GET /p/slow HTTP/1.1\r\nHost: " + LOOPBACK.encode() + b"\r\nX-Slow: ")
            while loop.time() < until:
                try:
                    if await asyncio.wait_for(reader.read(4096), trickle_s) == b"":
                        closed = True
                        break
                    # An answer (the server gave up on the head): it closes next.
                except TimeoutError:
                    writer.write(b"a")
        except (ConnectionError, OSError):
            closed = True
        finally:
            writer.close()
        if not closed:
            tally.open_at_end += 1
            return
        tally.lived.append(loop.time() - opened)
        if not again:
            return


async def slow(port: int, count: int, seconds: float, *, sources: int = 1,
               trickle_s: float = 0.5, again: bool = True) -> Slow:
    """``count`` clients that send their request's head so slowly that it never ends (a
    byte every ``trickle_s``), for ``seconds``, from ``sources`` loopback addresses
    (:func:`source`), each opening another connection when the server closes its own
    (``again``). The server must close each of them within its bound."""
    until = asyncio.get_running_loop().time() + seconds
    tally = Slow()
    await asyncio.gather(*(_slow_one(port, source(k % sources), until, trickle_s, again, tally)
                           for k in range(count)))
    return tally


# ------------------------------------------------------------------ a process of its own


async def _hold(base: str, tokens: dict[int, str]) -> None:
    """Each seat's phone connected and idle until stdin closes (the benchmark's "two
    phones connected")."""
    base = loopback(base)
    async with ClientSession(timeout=CONNECT) as http:
        channels = [await http.ws_connect(f"{base}/p/{t}/live") for t in tokens.values()]
        for ws in channels:
            await ws.receive_json(timeout=10)  # hello
        print("connected", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        for ws in channels:
            await ws.close()


async def _load(base: str, tokens: dict[int, str], args: argparse.Namespace) -> dict[str, Any]:
    print("started", flush=True)
    started = time.perf_counter()
    visits = await phones(base, tokens, count=args.phones, rounds=args.rounds)
    tally = await bad_input(base, tokens, count=args.bad)
    return {"phones": args.phones, "rounds": args.rounds,
            "visits": len(visits), "channels": sum(v.status == 101 for v in visits),
            "bad": tally.total, "seconds": round(time.perf_counter() - started, 2),
            "problems": tally.problems[:5]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Load a table's phone server on loopback.")
    parser.add_argument("what", choices=("hold", "load"))
    parser.add_argument("base", help=f"http://{LOOPBACK}:PORT")
    parser.add_argument("tokens", nargs="+", metavar="SEAT=TOKEN")
    parser.add_argument("--phones", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--bad", type=int, default=10_000)
    args = parser.parse_args(argv)
    tokens = {int(s): t for s, _, t in (x.partition("=") for x in args.tokens)}
    if args.what == "hold":
        asyncio.run(_hold(args.base, tokens))
    else:
        print(json.dumps(asyncio.run(_load(args.base, tokens, args))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
