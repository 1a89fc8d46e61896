"""Pico handhelds on USB serial: finding them, talking to them, pairing them with seats.

A handheld is a Raspberry Pi Pico running our MicroPython firmware, seen by the Pi as a USB
CDC serial port (USB id 2e8a:0005). It speaks :mod:`clans_pi.hardware.protocol`.

- :func:`find_ports` lists the serial ports with the handheld's USB id.
- :class:`HandheldConnection` is one open port: "connecting" until the device says a valid
  HELLO, then "ready", "lost" when it goes quiet or the port fails, "foreign" when it is not
  one of ours (another Pico on MicroPython has the same USB id). It writes nothing to a port
  before a valid HELLO, so a stranger's REPL never gets our bytes (0x03 and 0x04 are Ctrl-C
  and Ctrl-D there). An open port is one device until it is unplugged (unplugging makes the
  port fail; plugged in again it is a new connection), so the uid of its first HELLO is the
  port's for good: a HELLO with another uid on it is noise, a glitch or a forgery, counted
  ("other_uid") and ignored.
- :class:`HandheldManager` owns all connections, rescans for hotplug and turns everything
  into events: ("ready", uid, firmware), ("button", uid, pressed, path), ("lost", uid),
  ("foreign", path), and for a second port claiming a uid whose port is still there
  ("duplicate", uid, path) once and then ("stray", uid, pressed, path) for its button. It
  knows nothing of seats or clans' owners.
- :class:`PairingStore` remembers which handheld (uid) belongs to which seat.
- :class:`HandheldSeat` is one seat's handheld for the app, shaped like a GPIO seat.

The app's loop turn: ``events = manager.poll()`` once, then ``seat.handle(event)`` for every
event and every seat (:class:`clans_pi.hardware.seats.SeatDevices` does both).

Secrecy (R22): a clan goes only to the handheld paired with that clan's seat, and only while
it is ready. Every newly ready handheld is sent CLEAR first; one paired with no seat never
gets more. A uid is held by one connection, one port, at a time (its owner): a second port
saying the same uid while the owner's port is still there (open and listed, however long it
has been quiet: a busy USB hub) is a stray and gets nothing but WELCOME and CLEAR until it
is paired again on screen (:meth:`HandheldManager.bind`); the app shows a notice. Only once
the owner's port is gone (left the port list, or failed: pulled out) does a new port take the
uid at once (the same handheld replugged). Nothing here logs a clan, not even its number.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

import serial
import serial.tools.list_ports

from ..saving.files import FileError, FileMissing, parse_json, read_text, write_atomic
from ..settings.options import shown_clan
from . import protocol

log = logging.getLogger(__name__)

VENDOR_ID = 0x2E8A  # Raspberry Pi
PRODUCT_ID = 0x0005  # MicroPython on a Pico (the board's default USB id)
BAUDRATE = 115200  # USB CDC ignores it, but pyserial wants one
WRITE_TIMEOUT_S = 0.2
READ_SIZE = 4096  # bytes read from a port per poll, at most
RESCAN_MS = 2000
#: A device that sends no valid frame of our protocol this long after the port is opened is
#: not a handheld.
FOREIGN_MS = 3000
#: One that sends valid frames (a handheld still talking to a previous host) but no HELLO
#: this long is not one either. A handheld says HELLO after TIMEOUT_MS without the host.
HELLO_WAIT_MS = 2 * protocol.TIMEOUT_MS

PORT_ERRORS = (serial.SerialException, OSError)

Event = tuple[Any, ...]


class Port(Protocol):
    """What a connection needs of an open port (a ``serial.Serial``, or a fake in tests)."""

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...


def find_ports(comports: Callable[[], Iterable[Any]] = serial.tools.list_ports.comports,
               ) -> list[str]:
    """The device paths of serial ports with the handheld's USB id, sorted."""
    return sorted(p.device for p in comports() if p.vid == VENDOR_ID and p.pid == PRODUCT_ID)


def open_port(path: str) -> serial.Serial:
    """Open a handheld's port: non-blocking reads, short write timeout, and an exclusive lock
    so that no second program (or second app) talks to it at the same time."""
    return serial.Serial(path, BAUDRATE, timeout=0, write_timeout=WRITE_TIMEOUT_S,
                         exclusive=True)


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


# --------------------------------------------------------------------------- one port

CONNECTION_COUNTS = ("hellos", "bad_bodies", "early", "unexpected", "port_errors", "other_uid")


class HandheldConnection:
    """One open port and the protocol Link over it.

    ``poll()`` reads what arrived, answers, keeps the link alive and returns events; it never
    raises: port errors are logged, counted and turn the connection "lost" (port closed).

    ``counts``: the Link's decoder counts (bad frames by kind, "ok") plus "hellos",
    "bad_bodies" (a message whose body did not parse), "early" (messages before HELLO),
    "unexpected" (a message type a handheld does not send), "port_errors" and "other_uid"
    (a HELLO with another uid than the port's: ignored).
    """

    def __init__(self, path: str, port: Port, now_ms: Callable[[], int]) -> None:
        self.path = path
        self.port: Port | None = port
        self.state = "connecting"
        self.uid: str | None = None
        self.firmware: str | None = None
        self.why = ""  # why it is lost or foreign
        self._now = now_ms
        self._opened_at = now_ms()
        self._events: list[Event] = []
        self._counts = dict.fromkeys(CONNECTION_COUNTS, 0)
        self._warned: set[str] = set()
        self.link = protocol.Link(self._write, now_ms)
        self._seen = dict(self.link.decoder.counts)

    @property
    def counts(self) -> dict[str, int]:
        return {**self.link.decoder.counts, **self._counts}

    def _write(self, data: bytes) -> None:
        assert self.port is not None
        self.port.write(data)

    # ------------------------------------------------------------ polling

    def poll(self) -> list[Event]:
        """Read, answer and keep the link alive; return the events since the last call."""
        if self.port is not None:
            try:
                self._poll_port()
            except PORT_ERRORS as exc:
                self._port_error(exc)
        events, self._events = self._events, []
        return events

    def _poll_port(self) -> None:
        assert self.port is not None
        data = self.port.read(READ_SIZE)
        if data:
            for msg_type, body in self.link.receive(data):
                self._handle(msg_type, body)
            self._note_bad_frames()
        if self.port is None:
            return
        if self.state == "connecting":
            self._check_foreign()
        elif self.state == "ready":
            if self.link.lost:
                self._lose("it stopped acknowledging")
            elif self.link.silence_ms >= protocol.TIMEOUT_MS:
                self._lose(f"silent for {protocol.TIMEOUT_MS / 1000:g} s")
            else:
                self.link.tick()
        # "lost" with the port open: stay quiet (the handheld then forgets its clan and says
        # HELLO again), but keep listening for that HELLO.

    def _handle(self, msg_type: int, body: bytes) -> None:
        if msg_type == protocol.HELLO:
            self._hello(body)
        elif self.state != "ready":
            self._counts["early"] += 1  # acked by the Link, otherwise ignored until HELLO
        elif msg_type == protocol.BUTTON:
            try:
                pressed = protocol.parse_button(body)
            except ValueError:
                self._bad_body("BUTTON")
                return
            self._events.append(("button", self.uid, pressed, self.path))
        else:
            self._counts["unexpected"] += 1
            self._once("unexpected", "%s: ignored a message of type %d a handheld does not send",
                       self.path, msg_type)

    def _hello(self, body: bytes) -> None:
        self._counts["hellos"] += 1
        try:
            raw_uid, firmware = protocol.parse_hello(body)
        except ValueError:
            self._bad_body("HELLO")
            return
        uid = raw_uid.hex()
        if self.uid is not None and uid != self.uid:
            # The port is the device that first said HELLO on it until it is unplugged: a
            # frame saying otherwise is not a new handheld. Nothing changes, nothing is sent.
            self._counts["other_uid"] += 1
            self._once("other_uid", "%s: ignored a HELLO from handheld %s: this port is "
                       "handheld %s until it is unplugged", self.path, uid, self.uid)
            return
        if self.state != "ready":
            # A fresh start: nothing queued for whoever was here before goes out.
            self.link.reset()
        # Already ready (the handheld restarted, or our ACK of its HELLO was lost): no reset,
        # so it keeps hearing the same host session and stays welcomed.
        self.uid, self.firmware, self.state, self.why = uid, firmware, "ready", ""
        self.link.send(protocol.WELCOME)
        self.link.send(protocol.CLEAR)  # whatever it held is forgotten; its seat re-sends
        log.info("handheld %s ready on %s (firmware %s)", uid, self.path, firmware)
        self._events.append(("ready", uid, firmware))

    def _check_foreign(self) -> None:
        counts = self.link.decoder.counts
        waited = self._now() - self._opened_at
        if counts["version"]:
            self._foreign(f"it speaks another protocol version, not {protocol.VERSION}")
        elif counts["ok"] == 0 and waited >= FOREIGN_MS:
            self._foreign(f"no handheld protocol from it in {FOREIGN_MS / 1000:g} s")
        elif waited >= HELLO_WAIT_MS:
            self._foreign(f"no HELLO from it in {HELLO_WAIT_MS / 1000:g} s")

    # ------------------------------------------------------------ trouble

    def _once(self, key: str, msg: str, *args: object) -> None:
        """Log at WARNING the first time per connection, at DEBUG after that."""
        level = logging.DEBUG if key in self._warned else logging.WARNING
        self._warned.add(key)
        log.log(level, msg, *args)

    def _bad_body(self, what: str) -> None:
        self._counts["bad_bodies"] += 1
        self._once("body " + what, "%s: ignored a %s whose body does not parse", self.path, what)

    def _note_bad_frames(self) -> None:
        counts = self.link.decoder.counts
        new = {k: n - self._seen.get(k, 0) for k, n in counts.items()
               if k != "ok" and n > self._seen.get(k, 0)}
        self._seen = dict(counts)
        if new:
            text = ", ".join(f"{kind} {n}" for kind, n in sorted(new.items()))
            self._once("frames " + " ".join(sorted(new)),
                       "%s: dropped bad frames from the device (%s)", self.path, text)

    def _port_error(self, exc: BaseException) -> None:
        self._counts["port_errors"] += 1
        log.warning("%s: port error, closed (%s)", self.path, _one_line(exc))
        self._close_port()
        if self.state != "foreign":
            self._lose("port error")

    def _lose(self, why: str) -> None:
        was_ready = self.state == "ready"
        self.state, self.why = "lost", why
        if was_ready:
            log.warning("handheld %s on %s lost: %s", self.uid, self.path, why)
            self._events.append(("lost", self.uid))

    def _foreign(self, why: str) -> None:
        self.state, self.why = "foreign", why
        log.warning("%s has the handheld's USB id but is not a Clans handheld (%s); "
                    "it is left alone until it is unplugged", self.path, why)
        self._close_port()
        self._events.append(("foreign", self.path))

    def _close_port(self) -> None:
        port, self.port = self.port, None
        if port is not None:
            with contextlib.suppress(*PORT_ERRORS):
                port.close()

    # ------------------------------------------------------------ the manager's side

    def send(self, msg_type: int, body: bytes = b"") -> bool:
        """Queue a reliable message if the handheld is ready; False if it is not (or the port
        just failed: the "lost" event comes with the next poll)."""
        if self.state != "ready" or self.port is None:
            return False
        try:
            self.link.send(msg_type, body)
        except PORT_ERRORS as exc:
            self._port_error(exc)
            return False
        return True

    def unplugged(self) -> list[Event]:
        """Its port left the port list: close it; return the events still to report."""
        self._close_port()
        if self.state == "ready":
            self._lose("unplugged")
        elif self.state == "connecting":
            self.state = "lost"
        events, self._events = self._events, []
        return events

    def close(self) -> None:
        """Close the port, telling a ready handheld to forget (best effort); idempotent."""
        if self.port is not None and self.state == "ready":
            with contextlib.suppress(*PORT_ERRORS):
                self.link.send(protocol.CLEAR, b"", False)
        self._close_port()
        if self.state in ("connecting", "ready"):
            self.state = "closed"


# --------------------------------------------------------------------------- all ports

MANAGER_COUNTS = ("opened", "open_failures", "scan_failures", "foreign", "lost")


class HandheldManager:
    """Every handheld plugged in. Call :meth:`poll` once per loop turn.

    ``ports()`` lists the candidate port paths (rescanned every ``rescan_ms`` for hotplug),
    ``opener(path)`` opens one, ``now_ms()`` is a monotonic clock in milliseconds.

    A foreign device is not reopened until its path leaves the port list and comes back; a
    port that failed is reopened at the next rescan while it is still listed.
    """

    def __init__(self, ports: Callable[[], Iterable[str]] = find_ports,
                 opener: Callable[[str], Port] = open_port,
                 now_ms: Callable[[], int] = monotonic_ms, rescan_ms: int = RESCAN_MS) -> None:
        self._ports = ports
        self._opener = opener
        self._now = now_ms
        self.rescan_ms = rescan_ms
        self._conns: dict[str, HandheldConnection] = {}
        self._open_failed: set[str] = set()
        self._scan_failed = False
        self._next_scan: int | None = None
        self._counts = dict.fromkeys(MANAGER_COUNTS, 0)
        self._retired: dict[str, int] = {}
        self._owner: dict[str, str] = {}  # uid -> the path of the connection that holds it
        self._stray: set[str] = set()  # paths of connections claiming a uid held elsewhere
        self._closed = False
        self.fifth_clan = "black"  # or "white" (display.fifth_clan): what handhelds name it

    # ------------------------------------------------------------ the loop

    def poll(self) -> list[Event]:
        """Rescan when due, poll every connection; return the events, in order."""
        if self._closed:
            return []
        events: list[Event] = []
        now = self._now()
        if self._next_scan is None or now - self._next_scan >= 0:
            self._next_scan = now + self.rescan_ms
            self._rescan(events)
        for conn in list(self._conns.values()):
            events += self._route(conn, conn.poll())
        return self._tidy(events)

    def _rescan(self, events: list[Event]) -> None:
        try:
            listed = set(self._ports())
        except Exception as exc:  # a broken port list must not stop the game
            self._counts["scan_failures"] += 1
            if not self._scan_failed:
                log.warning("cannot list the serial ports (%s); trying again", _one_line(exc))
            self._scan_failed = True
            return
        self._scan_failed = False
        for path in sorted(set(self._conns) - listed):
            conn = self._conns.pop(path)
            events += self._route(conn, conn.unplugged())
            log.info("%s unplugged", path)
            self._retire(conn)
        self._open_failed &= listed
        for path in sorted(listed):
            conn = self._conns.get(path)
            if conn is not None and (conn.port is not None or conn.state == "foreign"):
                continue
            if conn is not None:
                events += self._route(conn, conn.poll())  # anything it still had to say
                self._retire(self._conns.pop(path))
            self._open(path)

    def _open(self, path: str) -> None:
        try:
            port = self._opener(path)
        except (*PORT_ERRORS, ValueError) as exc:
            self._counts["open_failures"] += 1
            level = logging.DEBUG if path in self._open_failed else logging.WARNING
            self._open_failed.add(path)
            hint = ""
            if isinstance(exc, PermissionError) or "ermission denied" in str(exc):
                hint = (" (is this user in the dialout group? "
                        "see systemd/99-clans-pi-handheld.rules)")
            log.log(level, "cannot open %s: %s%s", path, _one_line(exc), hint)
            return
        self._open_failed.discard(path)
        self._counts["opened"] += 1
        log.info("%s opened; waiting for its HELLO", path)
        self._conns[path] = HandheldConnection(path, port, self._now)

    def _retire(self, conn: HandheldConnection) -> None:
        conn.close()
        self._stray.discard(conn.path)
        for key, n in conn.counts.items():
            self._retired[key] = self._retired.get(key, 0) + n

    # ------------------------------------------------------------ who holds a uid

    def _route(self, conn: HandheldConnection, events: list[Event]) -> list[Event]:
        """A connection's events as the manager reports them: only the owner of a uid speaks
        for it; a stray's HELLO is one "duplicate" and its button "stray"."""
        out: list[Event] = []
        for event in events:
            kind, uid = event[0], event[1]
            if kind == "ready":
                out += self._claim(conn, event)
            elif kind == "button" and (conn.path in self._stray
                                       or self._owner.get(uid) != conn.path):
                out.append(("stray", *event[1:]))
            elif kind == "lost" and self._owner.get(uid) != conn.path:
                continue  # a stray, or a port that gave its uid up: no seat's business
            else:
                out.append(event)
        return out

    def _claim(self, conn: HandheldConnection, event: Event) -> list[Event]:
        uid, path = event[1], conn.path
        if path in self._stray:
            return []  # still the second one (it said HELLO again): nothing new
        held = self._owner.get(uid)
        owner = self._conns.get(held) if held is not None and held != path else None
        out: list[Event] = []
        if owner is not None and owner.port is not None:
            # What it still has to say may be waiting unread (the app's loop was slow), or
            # its port may have failed since (pulled out between two rescans): read first.
            out += self._route(owner, owner.poll())
        if owner is not None and owner.port is not None:
            # The paired port is still there, however long it has been quiet (a busy hub):
            # this is a second device, never the same one, and it gets nothing.
            self._stray.add(path)
            log.warning("%s says it is handheld %s, whose port %s is still there: it gets "
                        "nothing until it is paired again", path, uid, held)
            return [*out, ("duplicate", uid, path)]
        self._owner[uid] = path  # its old port is gone: the same handheld, plugged in again
        return [*out, event]

    def bind(self, uid: str, path: str) -> None:
        """Pairing on screen chose the handheld on ``path`` for ``uid``: it holds the uid from
        now on; any other port saying that uid becomes a stray and is sent CLEAR."""
        self._owner[uid] = path
        self._stray.discard(path)
        for other in self._conns.values():
            if other.path != path and other.uid == uid and other.state == "ready":
                self._stray.add(other.path)
                other.send(protocol.CLEAR)
                log.info("%s: no longer handheld %s's port (paired on %s)", other.path, uid,
                         path)

    def _tidy(self, events: list[Event]) -> list[Event]:
        out: list[Event] = []
        for event in events:
            if event[0] == "lost" and self.is_ready(event[1]):
                continue  # already back on another port (replugged between two rescans)
            if event[0] in ("lost", "foreign"):
                self._counts[event[0]] += 1
            out.append(event)
        return out

    # ------------------------------------------------------------ sending

    def _ready(self, uid: str) -> HandheldConnection | None:
        """The ready connection that holds ``uid`` (never a stray claiming it too)."""
        path = self._owner.get(uid)
        conn = self._conns.get(path) if path is not None else None
        if (conn is None or conn.state != "ready" or conn.uid != uid or conn.port is None
                or path in self._stray):
            return None
        return conn

    def is_ready(self, uid: str) -> bool:
        return self._ready(uid) is not None

    def _send(self, uid: str, msg_type: int, body: bytes, what: str) -> bool:
        conn = self._ready(uid)
        if conn is None or not conn.send(msg_type, body):
            log.debug("handheld %s: not ready, %s not sent", uid, what)
            return False
        log.debug("handheld %s: %s sent", uid, what)
        return True

    def send_show(self, uid: str, clan: str) -> bool:
        """Tell handheld ``uid`` its seat's clan (shown while its button is held)."""
        body = protocol.show_body(self._wire_clan(uid, clan))
        return self._send(uid, protocol.SHOW, body, "show")

    def send_clear(self, uid: str) -> bool:
        """Tell handheld ``uid`` to forget its clan and any result."""
        return self._send(uid, protocol.CLEAR, b"", "clear")

    def send_result(self, uid: str, clan: str, won: bool, place: int) -> bool:
        """Tell handheld ``uid`` its seat's result, shown until CLEAR."""
        body = protocol.result_body(self._wire_clan(uid, clan), bool(won), place)
        return self._send(uid, protocol.RESULT, body, "result")

    def _wire_clan(self, uid: str, clan: str) -> int:
        """The clan id sent to ``uid``: the fifth clan shown white is protocol.WHITE for a
        handheld that knows it (firmware 1.1.0 on); an older one gets black's id, lights
        white as ever and names it BLACK."""
        if shown_clan(clan, self.fifth_clan) == "white":
            conn = self._ready(uid)
            if conn is not None and knows_white(conn.firmware):
                return protocol.WHITE
        return _clan_id(clan)

    # ------------------------------------------------------------ state

    def connected(self) -> dict[str, str]:
        """Ready handhelds: uid -> firmware version."""
        out: dict[str, str] = {}
        for conn in self._conns.values():
            if conn.state == "ready" and conn.uid is not None:
                out[conn.uid] = conn.firmware or ""
        return out

    def connection(self, path: str) -> HandheldConnection | None:
        return self._conns.get(path)

    @property
    def counts(self) -> dict[str, int]:
        """Totals over all connections, past and present, plus the manager's own counts."""
        out = dict(self._retired)
        for conn in self._conns.values():
            for key, n in conn.counts.items():
                out[key] = out.get(key, 0) + n
        for key in (*protocol.Decoder().counts, *CONNECTION_COUNTS):
            out.setdefault(key, 0)
        out.update(self._counts)
        return out

    def close(self) -> None:
        """Tell every ready handheld to forget (best effort) and close every port."""
        if self._closed:
            return
        self._closed = True
        for conn in self._conns.values():
            conn.close()
        log.info("handhelds closed; counts: %s",
                 ", ".join(f"{k} {n}" for k, n in sorted(self.counts.items()) if n))

    def __enter__(self) -> HandheldManager:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def knows_white(firmware: str | None) -> bool:
    """Handheld firmware ``firmware`` (its HELLO's version) shows clan id WHITE: 1.1.0 on."""
    try:
        version = tuple(int(part) for part in (firmware or "").split(".")[:3])
    except ValueError:
        return False
    return version >= (1, 1, 0)


def _clan_id(clan: str) -> int:
    assert clan in protocol.CLANS, "not a clan"  # never the name itself: it could be logged
    return protocol.CLANS.index(clan)


# --------------------------------------------------------------------------- pairing


class PairingStore:
    """Which handheld (uid) belongs to which seat, kept in a small JSON file.

    Seats are the app's table seats (0-based). A file that cannot be read or makes no sense
    is moved aside (``.bad`` suffix) with one log line, and pairing starts empty; a file that
    cannot be written is logged, and the pairing lasts until the app stops. ``problem`` holds
    the last such line (None if all went well).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.problem: str | None = None
        self._seats: dict[int, str] = {}
        self._load()

    def _load(self) -> None:
        try:
            text = read_text(self.path)
        except FileMissing:
            return  # nothing paired yet (a save says what is wrong with the folder)
        except FileError as exc:
            self._set_aside(exc.problem)
            return
        try:
            self._seats = _parse_pairing(text)
        except ValueError as exc:
            self._set_aside(str(exc))

    def _set_aside(self, why: str) -> None:
        bad = self.path.with_name(self.path.name + ".bad")
        try:
            os.replace(self.path, bad)
            where = f"moved to {bad}"
        except OSError as exc:
            where = f"could not move it aside ({_one_line(exc)})"
        self.problem = f"{self.path}: {why}; {where}; handhelds must be paired again"
        log.warning("%s", self.problem)

    def _save(self) -> None:
        data = {"version": 1, "seats": {str(k): v for k, v in sorted(self._seats.items())}}
        text = json.dumps(data, indent=2) + "\n"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, text)
        except OSError as exc:
            self.problem = (f"{self.path}: cannot save the handheld pairing "
                            f"({_one_line(exc)}); it lasts until the app stops")
            log.warning("%s", self.problem)

    def pair(self, seat: int, uid: str) -> None:
        """Pair ``uid`` with ``seat`` (taking it from any other seat) and save."""
        assert isinstance(seat, int) and seat >= 0, seat
        assert _is_uid(uid), "bad uid"
        self._seats = {k: v for k, v in self._seats.items() if v != uid and k != seat}
        self._seats[seat] = uid
        self._save()

    def unpair(self, seat: int) -> None:
        if self._seats.pop(seat, None) is not None:
            self._save()

    def uid_of(self, seat: int) -> str | None:
        return self._seats.get(seat)

    def seat_of(self, uid: str) -> int | None:
        for seat, known in self._seats.items():
            if known == uid:
                return seat
        return None

    def pairs(self) -> dict[int, str]:
        """A copy: seat -> uid."""
        return dict(self._seats)


def _is_uid(uid: object) -> bool:
    if not isinstance(uid, str) or not 2 <= len(uid) <= 2 * protocol.MAX_UID or len(uid) % 2:
        return False
    return all(c in "0123456789abcdef" for c in uid)


def _parse_pairing(text: str) -> dict[int, str]:
    """seat -> uid from the file's text; ValueError (one line) when it makes no sense."""
    try:
        data = parse_json(text, "the pairing file")
    except FileError as exc:
        raise ValueError(exc.problem) from None
    if not isinstance(data, dict) or data.get("version") != 1:
        raise ValueError('not a pairing file (no "version": 1)')
    seats = data.get("seats")
    if not isinstance(seats, dict):
        raise ValueError('"seats" is not a table')
    out: dict[int, str] = {}
    for key, uid in seats.items():
        if not (isinstance(key, str) and key.isdigit() and key.isascii()):
            raise ValueError(f"seat {key!r} is not a seat number")
        if not _is_uid(uid):
            raise ValueError(f"seat {key}: {uid!r} is not a handheld uid")
        if uid in out.values():
            raise ValueError(f"handheld {uid} is paired with two seats")
        out[int(key)] = uid
    return out


# --------------------------------------------------------------------------- one seat


class HandheldSeat:
    """One seat's handheld, for the app (the same shape as a GPIO seat).

    ``seat`` is the app's table seat (0-based; logs say seat + 1). The app gives the seat's
    own clan with :meth:`set_clan`; it goes, as SHOW, only to the handheld paired with this
    seat and only while that handheld is ready. When the paired handheld comes back (ready
    again after being lost, or after a restart), the clan is sent again.

    :meth:`handle` takes each manager event and returns this seat's events: "press",
    "release", "lost" (the paired handheld went away) and "back" (it is ready again).
    """

    def __init__(self, seat: int, manager: HandheldManager, pairing: PairingStore) -> None:
        self.seat = seat
        self.manager = manager
        self.pairing = pairing
        self._clan: str | None = None
        self._result: tuple[bool, int] | None = None  # (won, place)
        self._lost = False
        self._closed = False

    @property
    def uid(self) -> str | None:
        """The paired handheld's uid, or None."""
        return self.pairing.uid_of(self.seat)

    @property
    def available(self) -> bool:
        """The paired handheld is connected and ready."""
        uid = self.uid
        return not self._closed and uid is not None and self.manager.is_ready(uid)

    def set_clan(self, clan: str | None) -> None:
        """This seat's own clan, shown while the handheld's button is held; None clears it
        (also ends a result)."""
        if clan is not None and clan not in protocol.CLANS:
            raise ValueError("unknown clan")
        self._clan = clan
        self._result = None
        self._push()

    def show_result(self, clan: str, won: bool, place: int = 1) -> None:
        """The game is over: the handheld shows this seat's clan, won or not, and place."""
        if clan not in protocol.CLANS:
            raise ValueError("unknown clan")
        self._clan = clan
        self._result = (bool(won), place)
        self._push()

    def _push(self) -> None:
        """Send what the paired handheld should hold now, if it is ready."""
        uid = self.uid
        if self._closed or uid is None or not self.manager.is_ready(uid):
            return
        if self._clan is not None and self._result is not None:
            won, place = self._result
            what, sent = "result", self.manager.send_result(uid, self._clan, won, place)
        elif self._clan is not None:
            what, sent = "show", self.manager.send_show(uid, self._clan)
        else:
            what, sent = "clear", self.manager.send_clear(uid)
        if sent:
            log.info("seat %d: %s sent", self.seat + 1, what)

    def handle(self, event: Event) -> list[str]:
        """This seat's events from one manager event."""
        uid = self.uid
        if self._closed or uid is None or len(event) < 2 or event[1] != uid:
            return []
        kind = event[0]
        if kind == "button":
            return ["press" if event[2] else "release"]
        if kind == "ready":
            self._push()
            if self._lost:
                self._lost = False
                log.info("seat %d: handheld back", self.seat + 1)
                return ["back"]
            return []
        if kind == "lost" and not self._lost:
            self._lost = True
            log.info("seat %d: handheld lost", self.seat + 1)
            return ["lost"]
        return []

    def pair(self, uid: str) -> None:
        """Make ``uid`` this seat's handheld (taking it from any other seat). It is sent CLEAR
        first, so it forgets whatever it held for another seat; this seat's previous
        handheld, now paired with no seat, is cleared too; then this seat's clan is sent."""
        old = self.uid
        before = self.pairing.seat_of(uid)
        self.manager.send_clear(uid)
        if old is not None and old != uid:
            self.manager.send_clear(old)
        self.pairing.pair(self.seat, uid)
        self._lost = False
        if before is not None and before != self.seat:
            log.info("seat %d: handheld %s paired (taken from seat %d)", self.seat + 1, uid,
                     before + 1)
        else:
            log.info("seat %d: handheld %s paired", self.seat + 1, uid)
        if self._clan is not None:
            self._push()

    def unpair(self) -> None:
        """Forget this seat's handheld (sent CLEAR first)."""
        old = self.uid
        if old is not None:
            self.manager.send_clear(old)
            self.pairing.unpair(self.seat)
            log.info("seat %d: handheld %s unpaired", self.seat + 1, old)

    def close(self) -> None:
        """Clear the paired handheld if it holds anything; the manager is closed by its
        owner. Idempotent."""
        if self._closed:
            return
        if self._clan is not None:
            self.set_clan(None)
        self._closed = True
