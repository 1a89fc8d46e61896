"""The phones' server: the page each phone seat opens, and a live channel (WebSocket) per
seat that carries that seat's clan only, only while the phone's button is held (R22).

State stays in the table; the server relays per-seat views: the name and picture (a PNG
made by whoever has pictures: the screen's UI; the headless game has none), and the clan
from ``clan_of(seat)`` (the table's private view of that seat) with its mark when its
phone holds.
What the phones do comes back as ``(seat, kind)`` events on :attr:`PhoneHub.events` for the
game's loop to poll, as the other seat devices' buttons do: "ready" (a phone connected),
"seen" (the deal's peek confirmed), "again" (a second phone opened the same code: the
table's screen asks before it takes over; once the first phone's channel is gone, the
second gets the seat by itself), "hint" and "hint_off" (the player to move holds the
phone's hint button, and lets go), "result" (the seat's phone was sent its result). A
hint's picture goes to that seat's phone alone.

Every response, error answers included, carries ``Cache-Control: no-store``, a strict
Content-Security-Policy, nosniff and no-referrer; the page loads nothing from elsewhere (its
font comes with it; it works with no internet). The live channel is refused to a page on
another origin. A right link is always served. A wrong one is refused in the players'
language on a page that tries again by itself; repeated from one address, its requests are
answered one at a time, slowly; an old game's link says the game is over. Tokens never
appear in logs (no access log, and aiohttp's own error lines, which can quote a malformed
request word for word, have every link cut out). Slow, idle and surplus connections are
closed (:data:`HEAD_S`), so that a phone's page loads at once whatever else connects; until
the table has restored its game's links, a link none of the seats has waits for them.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import queue
import re
import resource
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from html import escape
from importlib import resources
from typing import Any, cast

from aiohttp import WSCloseCode, WSMsgType, web

from ..i18n import _, language
from ..palette import mark_of
from .tokens import SeatTokens

log = logging.getLogger(__name__)

HEADERS = {
    "Cache-Control": "no-store",
    # img-src blob: the hint's picture arrives over the live channel and is shown from a
    # blob the page made of it (never a URL another page could open).
    "Content-Security-Policy": ("default-src 'none'; script-src 'self'; style-src 'self'; "
                                "font-src 'self'; connect-src 'self'; img-src 'self' blob:; "
                                "base-uri 'none'; "
                                "form-action 'none'; frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
#: Wrong links from one address: this many in WINDOW_S seconds, then its wrong links are
#: answered one at a time, each after PENALTY_S, and beyond MAX_QUEUED waiting at once at
#: once with 429: guessing 128-bit links is slowed to one a second. A right link (and an
#: old game's) is answered at once, whatever its address did: never slowed, never refused.
WRONG_LIMIT = 5
WINDOW_S = 60.0
PENALTY_S = 1.0
MAX_QUEUED = 8
#: How often a refused page tries again by itself: a wrong link (the table may not have
#: resumed its game yet) less often than WRONG_LIMIT in WINDOW_S, so its own retries never
#: slow its address down.
RETRY_WRONG_S = 20
#: The most addresses the guard remembers at once (a flood from more forgets the oldest).
GUARD_ADDRESSES = 1024
#: The longest message a phone may send; its own are a few bytes ({"type": "hold"}). A
#: longer one closes its channel (1009) before it is read, so nobody can make the server
#: parse megabytes while the game draws (the GIL is shared with the pygame loop).
MAX_MESSAGE = 1024
#: Slow or idle connections (nginx's client_header_timeout, keepalive_timeout and
#: limit_conn, for a table's few phones): a connection that has not sent a whole request
#: head HEAD_S seconds after it opened is closed, and so is one kept open with no request
#: for IDLE_S. At most PER_ADDRESS connections from one address and MAX_CONNECTIONS in
#: all, fewer when the process may open few files (its limit less FD_RESERVE: a systemd
#: service gets 1,024); beyond either, the oldest connection that waits for a request
#: (from that address, or from any) makes room, else the new one is closed at once. A
#: phone's page and its live channel need a handful: they never wait.
HEAD_S = 5.0
IDLE_S = 10.0
PER_ADDRESS = 32
MAX_CONNECTIONS = 256
FD_RESERVE = 128
#: The most connections accepted at once, before any is looked at (asyncio accepts up to
#: its listening backlog in one go; a few such rounds pass before a refused one's file is
#: closed: within FD_RESERVE), and how many the system keeps waiting meanwhile (so that a
#: phone's connection waits its turn rather than being dropped, to retry a second later).
ACCEPT_BATCH = 16
LISTEN_QUEUE = 128
#: A link that is no game's while the table is still restoring its game's links (a
#: restart: the server listens from the start, the saved game comes back a moment later)
#: waits for them, until SETTLE_S after the server started at most.
SETTLE_S = 10.0
#: The most a request's header lines may hold (nginx's large_client_header_buffers is
#: 4 x 8 KB): a phone's browser sends about fifteen short ones, and 256 waiting connections
#: of aiohttp's own limits (128 lines of 8 KB) could hold 256 MB of a Pi's memory; with
#: these, 32 MB (a line of 4 KB leaves room for a cookie another web page on the Pi's name
#: may have set). The request line keeps aiohttp's 8 KB: refused past it, a long wrong
#: link's connection would be cut while it is still being sent (a reset, not an answer).
MAX_HEADERS = 32
MAX_FIELD = 4096
#: How often the server's log says what it closed or could not accept: one line at the
#: first, then at most one a minute with how many, never a line each.
LOG_EVERY_S = 60.0


@dataclass(frozen=True, slots=True)
class PhoneSeat:
    """What a phone's page shows of its seat (public: the name and picture)."""

    name: str
    avatar: str


class PhoneHub:
    """The phone seats of one game, between the server (its thread) and the game's loop."""

    def __init__(self, tokens: SeatTokens, seats: dict[int, PhoneSeat],
                 clan_of: Callable[[int], tuple[str, str] | None]) -> None:
        self.tokens = tokens
        self.seats = seats
        self.clan_of = clan_of  # (clan, its name) for a seat's own view, or None
        self.events: queue.Queue[tuple[int, str]] = queue.Queue()
        self.live: dict[int, web.WebSocketResponse] = {}
        self.waiting: dict[int, web.WebSocketResponse] = {}
        self.over = False
        self.results: dict[int, dict[str, Any]] = {}  # each seat's, once the game is over
        self.hiding: dict[int, dict[str, Any]] = {}  # each seat's own chart, once read
        self.may_hint: set[int] = set()  # the seat to move, when it may ask for a hint
        self.pictures: dict[int, bytes] = {}  # each seat's player's picture (PNG), if any
        self.screen = True  # a table's screen confirms a second phone (headless: none)
        self.settled = True  # the game's links are in place (see unsettled)
        self.settle_by = 0.0

    def unsettled(self) -> None:
        """The game's links are still being restored: a link that is none of the seats'
        waits for :meth:`settle` (SETTLE_S at most from now) before it is judged."""
        self.settled, self.settle_by = False, time.monotonic() + SETTLE_S

    def settle(self) -> None:
        self.settled = True

    async def seat_of(self, token: str) -> int | None:
        """The seat whose link ``token`` is, once the game's links are in place."""
        seat = self.tokens.seat_of(token)
        while (seat is None and not self.settled and not self.tokens.is_over(token)
               and time.monotonic() < self.settle_by):
            await asyncio.sleep(0.05)
            seat = self.tokens.seat_of(token)
        return seat

    def poll(self) -> list[tuple[int, str]]:
        """The phones' events since the last poll (the game's loop calls this)."""
        out = []
        while True:
            try:
                out.append(self.events.get_nowait())
            except queue.Empty:
                return out


class _Guard:
    """Counts wrong links per address; too many in a minute and it waits.

    It remembers only addresses with a wrong link in the last WINDOW_S seconds, and at most
    GUARD_ADDRESSES of them, so its memory stays bounded whoever knocks: ``wrong`` is kept
    in the order of each address's latest miss, so the stale ones are always at its front.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.wrong: dict[str, deque[float]] = {}  # oldest latest miss first

    def _forget(self, now: float) -> None:
        while self.wrong:
            who = next(iter(self.wrong))
            if now - self.wrong[who][-1] <= WINDOW_S:
                return
            del self.wrong[who]

    def wait_s(self, who: str) -> int:
        """Seconds until ``who`` is no longer slowed down (0: it is not)."""
        seen = self.wrong.get(who)
        if not self.blocked(who) or seen is None:
            return 0
        return max(1, int(seen[0] + WINDOW_S - self.clock()) + 1)

    def blocked(self, who: str) -> bool:
        now = self.clock()
        self._forget(now)
        seen = self.wrong.get(who)
        if seen is None:
            return False
        while now - seen[0] > WINDOW_S:  # its latest miss is recent (_forget): never empty
            seen.popleft()
        return len(seen) >= WRONG_LIMIT

    def missed(self, who: str) -> None:
        seen = self.wrong.pop(who, None) or deque(maxlen=WRONG_LIMIT)
        seen.append(self.clock())
        self.wrong[who] = seen  # to the end: its miss is the newest
        while len(self.wrong) > GUARD_ADDRESSES:
            del self.wrong[next(iter(self.wrong))]


#: The guard of an application made by :func:`make_app` (for tests and benchmarks).
GUARD = web.AppKey("guard", _Guard)


@cache  # read once: a page still loads when the process is short of open files
def _asset(name: str) -> bytes:
    return resources.files(__package__).joinpath("page", name).read_bytes()


async def _security_headers(_request: web.Request, response: web.StreamResponse) -> None:
    """Every response the application prepares, its error answers (404, 405, a refused
    WebSocket handshake) included (aiohttp's on_response_prepare)."""
    response.headers.update(HEADERS)


class _Headed(web.RequestHandler):  # type: ignore[type-arg]
    """aiohttp's connection handler, whose answer to a request its parser refuses (400,
    made before any routing, so no on_response_prepare) carries the same headers."""

    __slots__ = ()

    def handle_error(self, request: web.BaseRequest, status: int = 500,
                     exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        response = super().handle_error(request, status, exc, message)
        response.headers.update(HEADERS)
        return response


class _Sparse:
    """One log line at most every LOG_EVERY_S, whatever happens how often: the first at
    once, the rest counted and told in one line at the end of the interval."""

    def __init__(self, loop: asyncio.AbstractEventLoop,
                 say: Callable[[Counter[str]], None]) -> None:
        self.loop, self.say, self.every = loop, say, LOG_EVERY_S
        self.counts: Counter[str] = Counter()
        self.due: asyncio.TimerHandle | None = None

    def __call__(self, what: str) -> None:
        self.counts[what] += 1
        if self.due is None:
            self._tell()

    def _tell(self) -> None:
        if not self.counts:
            self.due = None
            return
        self.say(self.counts)
        self.counts = Counter()
        self.due = self.loop.call_later(self.every, self._tell)

    def cancel(self) -> None:
        if self.due is not None:
            self.due.cancel()
            self.due = None


def connection_limit() -> int:
    """How many connections the server keeps open at most: MAX_CONNECTIONS, fewer when the
    process may open few files."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(PER_ADDRESS, min(MAX_CONNECTIONS, soft - FD_RESERVE))


def _waits(handler: web.RequestHandler) -> bool:  # type: ignore[type-arg]
    """Whether a connection waits for a request (its first, or the next on a connection kept
    open): one closed then loses nothing. aiohttp says it by the future its loop awaits
    (none while it reads a head's start or answers, a live channel included)."""
    waiter = getattr(handler, "_waiter", None)
    return waiter is not None and not waiter.done()


def unheld_hooks(listening: object) -> list[tuple[str, str]]:
    """The parts of aiohttp the limits read that this aiohttp lacks (a later version may
    rename them), each with what is lost: ``listening``, the site's sockets."""
    lost = []
    if "_waiter" not in getattr(web.RequestHandler, "__slots__", ()):
        lost.append(("RequestHandler._waiter", "beyond the limits a new connection is "
                     "closed at once instead of an idle one making room"))
    if not listening:
        lost.append(("TCPSite._server", f"the system keeps {ACCEPT_BATCH} connections "
                     f"waiting, not {LISTEN_QUEUE}"))
    return lost


class _Limits:
    """The connections open, oldest first, with their addresses: each closed if it sends no
    whole request head within HEAD_S, and at most PER_ADDRESS from one address and
    ``total`` in all (see :data:`HEAD_S`). What it closes, and the loop's "out of open
    files" (asyncio's ``socket.accept() out of system resource``, which it would repeat
    with a traceback thousands of times a second), go to the log in one line a minute."""

    def __init__(self, loop: asyncio.AbstractEventLoop, total: int | None = None) -> None:
        self.loop = loop
        self.total = connection_limit() if total is None else total
        self.open: dict[Any, tuple[str, asyncio.BaseTransport]] = {}  # oldest first
        self.per: Counter[str] = Counter()
        self.due: dict[Any, asyncio.TimerHandle] = {}  # those with no request yet
        self.closed = _Sparse(loop, self._say_closed)
        self.unaccepted = _Sparse(loop, self._say_unaccepted)

    def made(self, handler: Any, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        who = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        self.open[handler] = (who, transport)
        self.per[who] += 1
        self.due[handler] = self.loop.call_later(HEAD_S, self._head_due, handler)
        if self.per[who] > PER_ADDRESS:
            self._make_room(handler, who, "address")
        elif len(self.open) > self.total:
            self._make_room(handler, None, "total")

    def asked(self, handler: Any) -> None:
        """A whole request head came: no deadline for the head any more."""
        due = self.due.pop(handler, None)
        if due is not None:
            due.cancel()

    def lost(self, handler: Any) -> None:
        self.asked(handler)
        entry = self.open.pop(handler, None)
        if entry is not None:
            self.per[entry[0]] -= 1
            if not self.per[entry[0]]:
                del self.per[entry[0]]

    def _close(self, handler: Any, why: str) -> None:
        entry = self.open.get(handler)
        if entry is not None:
            self.lost(handler)
            # On the loop's next turn: a connection just made has its handler's loop
            # started first (aiohttp starts it after telling the server of the connection).
            self.loop.call_soon(entry[1].close)
            self.closed(why)

    def _head_due(self, handler: Any) -> None:
        self.due.pop(handler, None)
        self._close(handler, "head")

    def _make_room(self, new: Any, who: str | None, why: str) -> None:
        """The oldest connection waiting for a request (from ``who``; None: any) is closed
        for ``new``; with none, ``new`` is."""
        for handler, (address, _transport) in self.open.items():
            if handler is not new and (who is None or address == who) and _waits(handler):
                self._close(handler, why)
                return
        self._close(new, why)

    def loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The server loop's exception handler: an accept that failed for want of files is
        counted (the loop tries again by itself a second later); the rest as asyncio logs
        it."""
        if context.get("message") == "socket.accept() out of system resource":
            exc = context.get("exception")
            self.unaccepted(f"{type(exc).__name__}: {exc}" if exc else "?")
        else:
            loop.default_exception_handler(context)

    def _say_closed(self, counts: Counter[str]) -> None:
        parts = {"head": f"{counts['head']} sent no whole request within {HEAD_S:g} s",
                 "address": f"{counts['address']} beyond {PER_ADDRESS} from one address",
                 "total": f"{counts['total']} beyond {self.total} in all"}
        level = logging.WARNING if counts["address"] or counts["total"] else logging.INFO
        log.log(level, "phones: connections closed: %s",
                ", ".join(text for key, text in parts.items() if counts[key]))

    def _say_unaccepted(self, counts: Counter[str]) -> None:
        for what, n in counts.items():
            log.warning("phones: could not accept a connection, out of open files "
                        "(%s), %d time(s)", what, n)

    def stop(self) -> None:
        for due in self.due.values():
            due.cancel()
        self.due.clear()
        self.closed.cancel()
        self.unaccepted.cancel()


class _HeadedServer(web.Server):
    """aiohttp's server (the connections' factory), whose connections are :class:`_Headed`,
    held to its :class:`_Limits`. aiohttp offers no option for the handler's class: the
    runner's server is made this one (:meth:`PhoneServer._start`;
    tests/faults/test_phones.py checks a parser's 400)."""

    limits: _Limits

    def __call__(self) -> web.RequestHandler:  # type: ignore[type-arg]
        handler = super().__call__()
        handler.__class__ = _Headed
        return handler

    def connection_made(self, handler: web.RequestHandler,  # type: ignore[type-arg]
                        transport: asyncio.Transport) -> None:
        super().connection_made(handler, transport)
        self.limits.made(handler, transport)

    def connection_lost(self, handler: web.RequestHandler,  # type: ignore[type-arg]
                        exc: BaseException | None = None) -> None:
        self.limits.lost(handler)
        super().connection_lost(handler, exc)

    def hold_to(self, limits: _Limits) -> None:
        """Hold this server's connections to ``limits``: its request factory (called with
        each whole request head) tells them when a connection has asked."""
        self.limits = limits
        make = self.request_factory

        def request(message: Any, payload: Any, protocol: Any, writer: Any,
                    task: Any) -> web.BaseRequest:
            limits.asked(protocol)
            return make(message, payload, protocol, writer, task)

        self.request_factory = request


def make_app(hub: PhoneHub, *, clock: Callable[[], float] = time.monotonic,
             penalty_s: float = PENALTY_S, names: Iterable[str] = ()) -> web.Application:
    """The phones' web application for ``hub`` (``penalty_s``: how long each wrong link from
    an address with too many waits; ``names``: the host names its links use, besides
    addresses, ``localhost`` and ``.local`` names)."""
    names = frozenset(n.lower().rstrip(".") for n in names)
    guard = _Guard(clock)
    # The slowed-down addresses: their wrong links answered one at a time, each after
    # penalty_s; how many wait, so the lock goes only with the last of them.
    queues: dict[str, tuple[asyncio.Lock, list[int]]] = {}

    async def _seat(request: web.Request, *, html: bool = False) -> int | web.Response:
        """The seat whose link the request names, or the refusal it gets (``html``: a page
        in the players' language, for a browser's address bar). A right link is always
        served at once; an old game's is "over" (not a wrong link: never counted); a wrong
        one from an address with too many waits its turn (at most MAX_QUEUED waiting)."""
        who = request.remote or "?"
        token = request.match_info["token"]
        seat = await hub.seat_of(token)
        if seat is not None:
            return seat
        if hub.tokens.is_over(token):
            return _refusal(410, "over", html=html)
        if guard.blocked(who):
            lock, waiting = queues.setdefault(who, (asyncio.Lock(), [0]))
            if waiting[0] >= MAX_QUEUED:
                return _refusal(429, "busy", html=html, retry_s=guard.wait_s(who))
            waiting[0] += 1
            try:
                async with lock:
                    await asyncio.sleep(penalty_s)
            finally:
                waiting[0] -= 1
                if waiting[0] == 0 and queues.get(who, (None,))[0] is lock:
                    del queues[who]
            return _refusal(429, "busy", html=html, retry_s=guard.wait_s(who))
        guard.missed(who)
        return _refusal(403, "wrong", html=html, retry_s=RETRY_WRONG_S)

    async def page(request: web.Request) -> web.Response:
        seat = await _seat(request, html=True)
        if isinstance(seat, web.Response):
            return seat
        return web.Response(body=_asset("phone.html"), content_type="text/html",
                            charset="utf-8")

    async def picture(request: web.Request) -> web.Response:
        """The seat's player's picture (public, yet only to the seat's link)."""
        seat = await _seat(request)
        if isinstance(seat, web.Response):
            return seat
        png = hub.pictures.get(seat)
        if png is None:
            return web.Response(status=404, text="No picture for this seat.\n")
        return web.Response(body=png, content_type="image/png")

    async def asset(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name == FONT:
            return web.Response(body=_asset(name), content_type="font/woff")
        kinds = {"phone.js": "text/javascript", "phone.css": "text/css"}
        return web.Response(body=_asset(name), content_type=kinds[name], charset="utf-8")

    async def live(request: web.Request) -> web.StreamResponse:
        if not _same_origin(request, names):
            # A page on another origin that knows the link (R22): no channel, no clan.
            return web.Response(status=403, text="Not from this table's page.\n")
        seat = await _seat(request)
        if isinstance(seat, web.Response):
            return seat
        ws = web.WebSocketResponse(heartbeat=20.0, timeout=2.0, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        if seat in hub.live and not hub.live[seat].closed:
            # One phone per seat: the table's screen asks first, once; a phone that was
            # waiting already is told the seat is on another phone, and closed (each open
            # socket costs the table a file: never an unbounded number of them).
            earlier = hub.waiting.get(seat)
            hub.waiting[seat] = ws
            if earlier is not None and not earlier.closed:
                await _send(earlier, {"type": "replaced"})
                await earlier.close()
            else:
                hub.events.put((seat, "again"))
            # Not the seat's phone yet, so no clan; the seat's name, picture and words are
            # the link's to know (public).
            await _send(ws, {"type": "waiting", **_public(hub, seat)})
        else:
            await _welcome(hub, seat, ws)
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                await _heard(hub, seat, ws, msg.data)
        finally:
            if hub.live.get(seat) is ws:
                del hub.live[seat]
                # The seat's phone is gone (closed, or dropped by the heartbeat). Where no
                # screen can ask (headless), a phone waiting for it gets the seat by itself;
                # at a table, only the screen's "Yes" gives it (R22: a "No" stays a no).
                if not hub.screen:
                    waiting = hub.waiting.pop(seat, None)
                    if waiting is not None and not waiting.closed:
                        await _welcome(hub, seat, waiting)
            if hub.waiting.get(seat) is ws:
                del hub.waiting[seat]
        return ws

    app = web.Application()
    app.on_response_prepare.append(_security_headers)
    app[GUARD] = guard
    app.router.add_get("/p/{token}", page)
    app.router.add_get("/p/{token}/live", live)
    app.router.add_get("/p/{token}/picture.png", picture)
    app.router.add_get("/{name:phone\\.(?:js|css)|phone-font\\.woff}", asset)
    return app


#: The page's font (a subset of Noto Sans CJK JP: every letter the page's words need in
#: the five languages, and Latin-1 for names), so that every phone draws the same letters.
FONT = "phone-font.woff"


def _same_origin(request: web.Request, names: frozenset[str] = frozenset()) -> bool:
    """Whether the request comes from the page this server served (a browser always says
    its page's origin on a WebSocket; a program that says none is no page at all), by a
    name the table's links use: an address, ``localhost``, a ``.local`` name or one of
    ``names``. A page on another site whose name was made to point here (DNS rebinding)
    says its own name as the Host, and is refused."""
    host = (request.url.host or "").lower().rstrip(".")
    if not (_is_address(host) or host == "localhost" or host.endswith(".local")
            or host in names):
        return False
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    return origin.lower() in {f"{scheme}://{request.host}".lower() for scheme in
                              ("http", "https")}


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def refusal_texts() -> dict[str, str]:
    """What a refused link's page says, in the players' language."""
    return {
        "wrong": _("This link is not for a game at this table."),
        # TRANSLATORS: the phone's page after several wrong links from the same phone.
        "busy": _("Too many wrong links from this phone: wait a minute."),
        "over": _("The game is over."),
        "retry": _("This page tries again by itself."),
    }


def _refusal(status: int, key: str, *, html: bool, retry_s: int = 0) -> web.Response:
    """A refused link: for a browser's address bar, a page like the phone's own in the
    players' language that loads itself again after ``retry_s`` seconds (0: never; an old
    game's link is over for good); else one plain line (the page's script reads the status).
    """
    texts = refusal_texts()
    headers = {"Retry-After": str(retry_s)} if retry_s else {}
    if not html:
        return web.Response(status=status, text=texts[key] + "\n", headers=headers)
    words = escape(texts[key]) + (f"<br>{escape(texts['retry'])}" if retry_s else "")
    refresh = f'<meta http-equiv="refresh" content="{retry_s}">' if retry_s else ""
    body = (_asset("refused.html").decode("utf-8").replace("{lang}", escape(language()))
            .replace("{refresh}", refresh).replace("{words}", words))
    return web.Response(status=status, text=body, content_type="text/html", headers=headers)


def page_texts(screen: bool = True) -> dict[str, str]:
    """The page's words in the players' language (the page itself is the same for every
    seat and language; these come with the hello); ``screen``: whether the table has a
    screen to confirm a second phone on."""
    return {
        # TRANSLATORS: the phone's page while it (re)connects to the table.
        "connecting": _("Connecting…"),
        "hold": _("Hold to see your clan"),
        "seen": _("I have seen my clan"),
        "only_you": _("Only you look at this phone."),
        "over": _("The game is over."),
        "waiting": (_("This seat has a phone already: confirm on the table's screen.")
                    if screen else
                    _("This seat is open on another phone: close it there, and this one "
                      "takes over.")),
        "replaced": _("This seat is on another phone now."),
        "won": _("You won!"),
        # TRANSLATORS: a player's place at the end, on their phone, e.g. "Place 2 of 4".
        "place": _("Place {place} of {players}"),
        "hint": _("Press and hold to see your hint"),
        "hint_wait": _("Looking for your hint…"),
        "no_hint": _("No hint this time"),
    }


def _public(hub: PhoneHub, seat: int) -> dict[str, Any]:
    """What any phone holding the seat's link may know: the name, whether there is a
    picture, the language and the page's words in it."""
    info = hub.seats[seat]
    return {"name": info.name, "avatar": info.avatar, "picture": seat in hub.pictures,
            "lang": language(), "texts": page_texts(hub.screen)}


async def _send(ws: web.WebSocketResponse, message: dict[str, Any] | bytes) -> bool:
    """Send ``message`` to a phone (bytes: a picture, as a binary message). One whose
    connection is closing meanwhile (locked, out of the Wi-Fi, between its going and the
    server's noticing) is no error: the page reconnects and its hello brings all it needs
    again."""
    try:
        if isinstance(message, bytes):
            await ws.send_bytes(message)
        else:
            await ws.send_json(message)
    except ConnectionResetError:  # aiohttp: "Cannot write to closing transport"
        log.debug("phones: a phone went away while being sent %s",
                  "a picture" if isinstance(message, bytes) else message.get("type"))
        return False
    return True


async def _welcome(hub: PhoneHub, seat: int, ws: web.WebSocketResponse) -> None:
    hub.live[seat] = ws
    hub.events.put((seat, "ready"))
    await _send(ws, {"type": "hello", **_public(hub, seat), "over": hub.over,
                     "hint": seat in hub.may_hint})
    if seat in hub.results:  # a phone that comes back after the end still sees its result
        await _tell_result(hub, seat, ws)
    if seat in hub.hiding:
        await _send(ws, {"type": "hiding", **hub.hiding[seat]})


async def _tell_result(hub: PhoneHub, seat: int, ws: web.WebSocketResponse) -> None:
    if await _send(ws, {"type": "result", **hub.results[seat]}):
        hub.events.put((seat, "result"))


async def tell_hiding(hub: PhoneHub, seat: int, hiding: dict[str, Any]) -> None:
    """After the game: how sure the others were of this seat's clan, move by move (its own
    numbers only), read once the result is shown."""
    hub.hiding[seat] = hiding
    ws = hub.live.get(seat)
    if ws is not None and not ws.closed:
        await _send(ws, {"type": "hiding", **hiding})


async def _heard(hub: PhoneHub, seat: int, ws: web.WebSocketResponse, text: str) -> None:
    """One message from seat ``seat``'s phone; a phone that is not the seat's live one
    (waiting to take over) gets nothing."""
    if hub.live.get(seat) is not ws:
        return
    try:
        kind = json.loads(text).get("type")
    except (ValueError, AttributeError, RecursionError):  # [[[[... nested past the stack
        return  # garbage from a phone is ignored
    if kind == "hold":
        clan = hub.clan_of(seat)
        if clan is not None:
            await _send(ws, {"type": "clan", "clan": clan[0], "label": clan[1],
                             "mark": mark_of(clan[0])})
    elif kind == "release":
        await _send(ws, {"type": "hidden"})
    elif kind == "seen":
        hub.events.put((seat, "seen"))
    elif kind in ("hint", "hint_off"):
        hub.events.put((seat, kind))


async def tell_result(hub: PhoneHub, seat: int, result: dict[str, Any]) -> None:
    """The game is over (R20, R21): the seat's phone shows its own result; clans are
    revealed now, so the result may name the seat's clan."""
    hub.results[seat] = result
    ws = hub.live.get(seat)
    if ws is not None and not ws.closed:
        await _tell_result(hub, seat, ws)


async def tell_turn(hub: PhoneHub, may_hint: set[int]) -> None:
    """Which seat may ask its phone for a hint now (the person to move, hints on): its
    phone shows the hint button; the others' hide theirs."""
    was, hub.may_hint = hub.may_hint, set(may_hint)
    for seat in was ^ hub.may_hint:
        ws = hub.live.get(seat)
        if ws is not None and not ws.closed:
            await _send(ws, {"type": "turn", "hint": seat in hub.may_hint})


async def tell_hint(hub: PhoneHub, seat: int, state: str, picture: bytes | None) -> None:
    """Seat ``seat``'s hint, to its phone alone: "thinking", "none", or "ready" followed
    by the picture (a PNG in a binary message)."""
    ws = hub.live.get(seat)
    if ws is None or ws.closed or (state != "none" and seat not in hub.may_hint):
        return  # "none" says nothing; the rest only to the seat to move
    await _send(ws, {"type": "hint", "state": state})
    if state == "ready" and picture is not None:
        await _send(ws, picture)


async def refuse(hub: PhoneHub, seat: int) -> None:
    """The table said "No" to "Anna's phone again?": the waiting phone gets nothing and is
    told the seat is on another phone."""
    new = hub.waiting.pop(seat, None)
    if new is not None and not new.closed:
        await _send(new, {"type": "replaced"})
        await new.close()


async def take_over(hub: PhoneHub, seat: int) -> None:
    """The table confirmed "Anna's phone again?": the waiting phone becomes the seat's (none
    waiting any more, as when it got the seat by itself: nothing changes)."""
    new = hub.waiting.pop(seat, None)
    if new is None or new.closed:
        return
    old = hub.live.pop(seat, None)
    if old is not None and not old.closed:
        await _send(old, {"type": "replaced"})
        await old.close()
    await _welcome(hub, seat, new)


#: Links in aiohttp's error lines ("Invalid char in url path: b'GET /p/<token>\\x01 ...'").
_LINK = re.compile(r"/p/[^\s/'\"\\]+")


class _NoTokens(logging.LoggerAdapter):  # type: ignore[type-arg]
    """The logger aiohttp reports errors to, with no link in what it writes. A malformed
    request that holds a seat's link comes back in the parser's error, and in its
    traceback, word for word: each such report becomes one line, with the exception's own
    message, the seats' tokens (current and old) and anything after ``/p/`` cut out."""

    def __init__(self, hub: PhoneHub) -> None:
        super().__init__(logging.getLogger(f"{__name__}.http"), {})
        self.hub = hub

    def log(self, level: int, msg: object, *args: Any, exc_info: Any = None,
            **_kwargs: Any) -> None:
        if not self.isEnabledFor(level):
            return
        text = str(msg) % args if args else str(msg)
        if exc_info is True:
            exc_info = sys.exc_info()[1]
        elif isinstance(exc_info, tuple):
            exc_info = exc_info[1]
        if isinstance(exc_info, BaseException):
            text += f": {type(exc_info).__name__}: {exc_info}"
        tokens = self.hub.tokens
        for token in (*tokens.tokens.values(), *tokens.retired):
            text = text.replace(token, "...")
        self.logger.log(level, "%s", " ".join(_LINK.sub("/p/...", text).split()))


class PhoneServer:
    """The server on its own thread and event loop, beside the game's loop."""

    def __init__(self, hub: PhoneHub, host: str, port: int, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.hub, self.host, self.port = hub, host, port
        self.clock = clock  # the guard's (tests move it on)
        self.app: web.Application | None = None
        self.loop = asyncio.new_event_loop()
        self.runner: web.AppRunner | None = None
        self.limits: _Limits | None = None
        self.thread = threading.Thread(target=self.loop.run_forever, name="phones",
                                       daemon=True)

    def start(self) -> int:
        """Listen; returns the port (the one the system chose, for port 0)."""
        self.thread.start()
        return asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(10)

    async def _start(self) -> int:
        self.app = make_app(self.hub, clock=self.clock, names=[self.host])
        # No access log, and aiohttp's error lines with every link cut out: no token logged.
        # A phone that does not answer the closing handshake holds a stop up 2 s at most.
        # An idle connection is closed after IDLE_S (aiohttp's keep-alive timeout); the
        # rest of the limits are _Limits'.
        self.runner = web.AppRunner(self.app, access_log=None, logger=_NoTokens(self.hub),
                                    shutdown_timeout=2.0, keepalive_timeout=IDLE_S,
                                    max_headers=MAX_HEADERS, max_field_size=MAX_FIELD)
        await self.runner.setup()
        assert self.runner.server is not None
        self.runner.server.__class__ = _HeadedServer  # a parser's 400 has the headers too
        self.limits = _Limits(self.loop)
        cast(_HeadedServer, self.runner.server).hold_to(self.limits)
        self.loop.set_exception_handler(self.limits.loop_error)
        site = web.TCPSite(self.runner, self.host, self.port, backlog=ACCEPT_BATCH)
        await site.start()
        listening = getattr(getattr(site, "_server", None), "sockets", None)  # no accessor
        for sock in listening or ():
            with sock.dup() as same:  # the same socket: its waiting queue, not its batch
                same.listen(LISTEN_QUEUE)
        for missing in unheld_hooks(listening):
            log.warning("phones: this aiohttp has no %s: %s", *missing)
        addresses = self.runner.addresses  # (host, port, ...) of each socket listening
        return int(addresses[0][1]) if addresses else self.port

    async def _stop(self) -> None:
        assert self.runner is not None
        phones = [*self.hub.live.values(), *self.hub.waiting.values()]
        await asyncio.gather(*(ws.close(code=WSCloseCode.GOING_AWAY) for ws in phones
                               if not ws.closed), return_exceptions=True)
        await self.runner.cleanup()
        if self.limits is not None:
            self.limits.stop()

    def take_over(self, seat: int) -> None:
        asyncio.run_coroutine_threadsafe(take_over(self.hub, seat), self.loop).result(10)

    def refuse(self, seat: int) -> None:
        asyncio.run_coroutine_threadsafe(refuse(self.hub, seat), self.loop).result(10)

    def tell_turn(self, may_hint: set[int]) -> None:
        asyncio.run_coroutine_threadsafe(tell_turn(self.hub, may_hint), self.loop).result(10)

    def tell_hint(self, seat: int, state: str, picture: bytes | None = None) -> None:
        asyncio.run_coroutine_threadsafe(tell_hint(self.hub, seat, state, picture),
                                         self.loop).result(10)

    def tell_result(self, seat: int, result: dict[str, Any]) -> None:
        asyncio.run_coroutine_threadsafe(tell_result(self.hub, seat, result),
                                         self.loop).result(10)

    def tell_hiding(self, seat: int, hiding: dict[str, Any]) -> None:
        asyncio.run_coroutine_threadsafe(tell_hiding(self.hub, seat, hiding),
                                         self.loop).result(10)

    def stop(self) -> None:
        """Stop serving: every phone connected is told the server is going away (its page
        tries again by itself), so stopping never waits on a phone."""
        if self.runner is not None:
            asyncio.run_coroutine_threadsafe(self._stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
