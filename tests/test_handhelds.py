"""Pico handhelds, host side: fake handhelds speaking the protocol over real ptys, opened
through the real pyserial opener; a fake port list decides what is plugged in and a fake
clock drives both ends. Discovery, pairing (and its file), each clan going only to its own
seat's handheld, unplugging and replugging, moving a handheld to another seat, bad bytes,
silent and foreign devices, the udev rule, and no clan in any log line."""

from __future__ import annotations

import json
import logging
import os
import re
import select
import tty
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import serial

from clans_pi.hardware import handhelds, protocol
from clans_pi.hardware.handhelds import (
    HandheldManager,
    HandheldSeat,
    PairingStore,
    find_ports,
    knows_white,
    open_port,
)
from clans_pi.hardware.seats import SeatDevices

ROOT = Path(__file__).resolve().parent.parent
UID_A = bytes.fromhex("e6614c311b7e5a2f")
UID_B = bytes.fromhex("e6614c311b7e0b01")
UID_C = bytes.fromhex("0123456789abcdef")
STEP_MS = 20

# A log line must not name a clan, nor say "clan" at all (no "clan 3" either).
SECRET = re.compile(r"\b(red|blue|green|yellow|black|clan)\b", re.IGNORECASE)


def clan_lines(records: list[logging.LogRecord]) -> list[str]:
    return [r.getMessage() for r in records if SECRET.search(r.getMessage())]


@pytest.fixture(autouse=True)
def no_clan_in_any_log_line(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Every test here is also a secrecy test: all log lines, all levels."""
    caplog.set_level(logging.DEBUG)
    yield
    records = caplog.get_records("setup") + caplog.get_records("call")
    assert clan_lines(records) == []


# --------------------------------------------------------------------------- fakes


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000

    def __call__(self) -> int:
        return self.now


class PtyDevice:
    """The device's end of a pty (the master); the host opens ``path`` (the slave)."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        os.set_blocking(self.master, False)
        self.gone = False

    def _write(self, data: bytes) -> None:
        if self.gone:
            return
        try:
            os.write(self.master, data)
        except BlockingIOError:
            return  # nobody reads: a full USB buffer drops it
        select.select([self.slave], [], [], 1.0)  # a pty hands data over asynchronously

    def write_raw(self, data: bytes) -> None:
        self._write(data)

    def read(self) -> bytes:
        try:
            return os.read(self.master, 4096)
        except (BlockingIOError, OSError):
            return b""

    def unplug(self) -> None:
        """Pulled out: the host's end of the pty fails from now on."""
        if not self.gone:
            self.gone = True
            os.close(self.master)
            os.close(self.slave)


class FakeHandheld(PtyDevice):
    """A handheld stepped by the test. It behaves like the firmware: HELLO at start and
    again after TIMEOUT_MS without the host (forgetting its clan), SHOW/CLEAR/RESULT
    remembered, BUTTON on press and release."""

    def __init__(self, clock: Clock, uid: bytes = UID_A, firmware: str = "1.0.0",
                 hello: bool = True) -> None:
        super().__init__()
        self.uid = uid
        self.firmware = firmware
        self.received: list[tuple[int, bytes]] = []  # every message the host got through
        self.clan: int | None = None
        self.result: tuple[int, bool, int] | None = None
        self.welcomed = False
        self.silent = False  # hung: reads and writes nothing
        self.link = protocol.Link(self._write, clock)
        if hello:
            self.link.send(protocol.HELLO, protocol.hello_body(uid, firmware))

    def step(self) -> None:
        if self.gone or self.silent:
            return
        data = self.read()
        for msg_type, body in (self.link.receive(data) if data else []):
            self.received.append((msg_type, body))
            if msg_type == protocol.WELCOME:
                self.welcomed = True
            elif msg_type == protocol.SHOW:
                self.clan, self.result = protocol.parse_show(body), None
            elif msg_type == protocol.CLEAR:
                self.clan = self.result = None
            elif msg_type == protocol.RESULT:
                self.result = protocol.parse_result(body)
        if self.link.lost or self.link.silence_ms >= protocol.TIMEOUT_MS:
            self.restart()
        self.link.tick()

    def restart(self) -> None:
        self.clan = self.result = None
        self.welcomed = False
        self.link.reset()
        self.link.send(protocol.HELLO, protocol.hello_body(self.uid, self.firmware))

    def press(self, down: bool = True) -> None:
        self.link.send(protocol.BUTTON, protocol.button_body(down))

    def shows(self) -> list[str]:
        """The clans SHOWn to it, by name, in order."""
        return [protocol.CLANS[b[0]] for t, b in self.received if t == protocol.SHOW]

    def kinds(self) -> list[str]:
        return [protocol.TYPE_NAMES[t] for t, _ in self.received]


class FirmwareHandheld(PtyDevice):
    """The real firmware's Handheld (firmware/handheld.py on tests/fake_machine's fake Pico)
    on a pty, stepped by the test on its clock."""

    def __init__(self, fw: SimpleNamespace, clock: Clock) -> None:
        super().__init__()
        self.fw = fw
        fw.board.set_level(fw.config.BUTTON_PIN, 1)  # not pressed (active low)
        self.hand = fw.handheld.Handheld(fw.hw.Hardware(fw.config), self._write, clock)
        self.uid = fw.board.uid
        self.frozen = False

    @property
    def welcomed(self) -> bool:
        return bool(self.hand.welcomed)

    @property
    def link(self) -> protocol.Link:
        return self.hand.link

    def step(self) -> None:
        if self.gone or self.frozen:
            return
        data = self.read()
        if data:
            self.hand.feed(data)
        self.hand.step()

    def press(self, down: bool = True) -> None:
        self.fw.board.set_level(self.fw.config.BUTTON_PIN, 0 if down else 1)

    def colour(self) -> str | None:
        """The clan its RGB LED shows (by this test's reading of config.COLOURS), or None."""
        duties = [self.fw.board.duty(pin) for pin in self.fw.config.RGB_PINS]
        if not any(duties):
            return None
        for clan, colour in zip(protocol.CLANS, self.fw.config.COLOURS, strict=True):
            if all(abs(d / max(duties) - c / max(colour)) < 0.02
                   for d, c in zip(duties, colour, strict=True)):
                return clan
        raise AssertionError(f"not a clan colour: {duties}")


class SettlingPort:
    """The real pyserial port; after each write it waits until the device end can read it
    (a pty hands data over asynchronously) and keeps a copy of what was written."""

    def __init__(self, port: serial.Serial, device: PtyDevice | None) -> None:
        self.port = port
        self.device = device
        self.sent: list[bytes] = []

    def read(self, size: int = 1) -> bytes:
        return self.port.read(size)

    def write(self, data: bytes) -> int | None:
        n = self.port.write(data)
        self.sent.append(bytes(data))
        if self.device is not None and not self.device.gone:
            select.select([self.device.master], [], [], 1.0)
        return n

    def close(self) -> None:
        self.port.close()


class RecordingManager(HandheldManager):
    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.events: list[tuple] = []

    def poll(self) -> list[tuple]:
        out = super().poll()
        self.events += out
        return out


class Rig:
    """Fake handhelds, the manager, the pairing file, four handheld seats and the app's
    SeatDevices hub, on one fake clock."""

    def __init__(self, state: Path) -> None:
        self.clock = Clock()
        self.devices: dict[str, Any] = {}
        self.plugged: list[str] = []
        self.opened: list[str] = []
        self.ports: dict[str, SettlingPort] = {}
        self.manager = RecordingManager(ports=lambda: list(self.plugged), opener=self._open,
                                        now_ms=self.clock)
        self.store = PairingStore(state / "handhelds.json")
        self.seats = {k: HandheldSeat(k, self.manager, self.store) for k in range(4)}
        self.hub = SeatDevices(handhelds=self.seats, manager=self.manager, pairing=self.store)
        self.seat_events: list[tuple[int, str]] = []

    def _open(self, path: str) -> SettlingPort:
        self.opened.append(path)
        port = SettlingPort(open_port(path), self.devices.get(path))
        self.ports[path] = port
        return port

    def device(self, uid: bytes = UID_A, plug: bool = True, **kw: object) -> FakeHandheld:
        dev = FakeHandheld(self.clock, uid, **kw)  # type: ignore[arg-type]
        self.devices[dev.path] = dev
        if plug:
            self.plugged.append(dev.path)
        return dev

    def attach(self, dev: Any) -> None:
        self.devices[dev.path] = dev
        self.plugged.append(dev.path)

    def unplug(self, dev: PtyDevice, *, close: bool = True) -> None:
        self.plugged.remove(dev.path)
        if close:
            dev.unplug()

    def step(self) -> list[tuple[int, str]]:
        self.clock.now += STEP_MS
        for dev in list(self.devices.values()):
            dev.step()
        out = self.hub.poll(self.clock.now)
        self.seat_events += out
        return out

    def run(self, ms: int) -> list[tuple[int, str]]:
        out: list[tuple[int, str]] = []
        for _ in range(ms // STEP_MS):
            out += self.step()
        return out

    def run_until(self, done, ms: int = 6000) -> int:
        """Step until done() (at most ms of fake time); return the fake ms it took."""
        start = self.clock.now
        while not done():
            assert self.clock.now - start < ms, "timed out"
            self.step()
        return self.clock.now - start

    def ready(self, *devs: Any) -> None:
        uids = {d.uid.hex() for d in devs}
        self.run_until(lambda: uids <= set(self.manager.connected()) and all(
            d.welcomed and d.link.pending == 0 for d in devs))
        self.run(100)

    def pair(self, seat: int, dev: Any) -> None:
        self.hub.start_pairing(seat)
        dev.press(True)
        self.run_until(lambda: (seat, "paired") in self.seat_events)
        dev.press(False)
        self.run(200)

    def close(self) -> None:
        self.hub.close()
        for dev in self.devices.values():
            dev.unplug()


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    made = Rig(tmp_path)
    yield made
    made.close()


def frame(msg_type: int, seq: int, body: bytes = b"", *, version: int = protocol.VERSION,
          length: int | None = None, crc_xor: int = 0) -> bytes:
    """A frame built by hand, to get wrong what encode() always gets right."""
    packet = bytes((version, msg_type, seq, len(body) if length is None else length)) + body
    crc = protocol.crc16(packet) ^ crc_xor
    return protocol.cobs_encode(packet + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


# --------------------------------------------------------------------------- ports


def test_find_ports_lists_only_the_handheld_usb_id() -> None:
    ports = [
        SimpleNamespace(device="/dev/ttyACM1", vid=0x2E8A, pid=0x0005, serial_number="E661"),
        SimpleNamespace(device="/dev/ttyACM0", vid=0x2E8A, pid=0x0005, serial_number="0123"),
        SimpleNamespace(device="/dev/ttyACM2", vid=0x2E8A, pid=0x000A, serial_number="C0DE"),
        SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403, pid=0x6001, serial_number="FT"),
        SimpleNamespace(device="/dev/ttyAMA0", vid=None, pid=None, serial_number=None),
    ]
    assert find_ports(lambda: ports) == ["/dev/ttyACM0", "/dev/ttyACM1"]
    assert find_ports(lambda: []) == []


def test_open_port_is_non_blocking_and_exclusive(rig: Rig) -> None:
    dev = rig.device(plug=False)
    port = open_port(dev.path)
    try:
        assert (port.baudrate, port.timeout, port.write_timeout, port.exclusive) == (
            115200, 0, 0.2, True)
        assert port.read(100) == b""  # nothing there: returns at once
        with pytest.raises(serial.SerialException):
            open_port(dev.path)  # a second program (or app) cannot take it
    finally:
        port.close()


# --------------------------------------------------------------------------- connecting


def test_a_plugged_handheld_says_hello_and_is_ready(rig: Rig) -> None:
    dev = rig.device()
    took = rig.run_until(lambda: rig.manager.connected())
    assert took <= 1000
    assert rig.manager.events == [("ready", UID_A.hex(), "1.0.0")]
    assert rig.manager.connected() == {UID_A.hex(): "1.0.0"}
    rig.run(200)
    assert dev.welcomed
    assert dev.kinds() == ["WELCOME", "CLEAR"]  # a fresh handheld holds nothing
    # The first thing the host ever wrote is the ACK of the HELLO: nothing before it.
    first = protocol.Decoder().feed(rig.ports[dev.path].sent[0])
    assert [m[0] for m in first] == [protocol.ACK]
    conn = rig.manager.connection(dev.path)
    assert conn is not None and conn.state == "ready" and conn.uid == UID_A.hex()
    # Heartbeats keep it up.
    rig.run(5000)
    assert rig.manager.connected() == {UID_A.hex(): "1.0.0"}
    assert rig.manager.events == [("ready", UID_A.hex(), "1.0.0")]


def test_a_restarted_app_finds_a_handheld_still_talking_to_the_old_one(rig: Rig) -> None:
    """The handheld keeps sending heartbeats to the old app until it times out; the new
    app must wait for its HELLO, not call it foreign after 3 s."""
    dev = rig.device()
    rig.ready(dev)
    rig.manager.close()
    rig.manager = RecordingManager(ports=lambda: list(rig.plugged), opener=rig._open,
                                   now_ms=rig.clock)
    for _ in range(6000 // STEP_MS):
        rig.clock.now += STEP_MS
        dev.step()
        rig.manager.poll()
        if rig.manager.connected():
            break
    assert rig.manager.events == [("ready", UID_A.hex(), "1.0.0")]
    rig.manager.close()


# --------------------------------------------------------------------------- pairing


def test_pairing_by_button_press_survives_a_restart(rig: Rig, tmp_path: Path) -> None:
    a, b = rig.device(UID_A), rig.device(UID_B)
    rig.ready(a, b)
    b.press(True)  # not pairing: an unpaired handheld's button means nothing to any seat
    rig.run(200)
    assert rig.seat_events == []
    rig.hub.start_pairing(1)
    b.press(False)  # a release does not pair
    rig.run(200)
    assert rig.seat_events == []
    b.press(True)
    rig.run_until(lambda: rig.seat_events)
    assert rig.seat_events == [(1, "paired")]
    assert rig.store.uid_of(1) == UID_B.hex() and rig.store.seat_of(UID_B.hex()) == 1
    assert rig.seats[1].available and not rig.seats[0].available
    a.press(True)  # pairing is over: this press pairs nothing
    rig.run(200)
    assert rig.store.seat_of(UID_A.hex()) is None
    # The file: valid JSON, written atomically (no temp file left behind).
    path = tmp_path / "handhelds.json"
    assert json.loads(path.read_text()) == {"version": 1, "seats": {"1": UID_B.hex()}}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["handhelds.json"]
    again = PairingStore(path)
    assert again.uid_of(1) == UID_B.hex() and again.problem is None


def test_each_clan_goes_only_to_its_own_seats_handheld(rig: Rig) -> None:
    a, b, c = rig.device(UID_A), rig.device(UID_B), rig.device(UID_C)
    rig.ready(a, b, c)
    rig.pair(0, a)
    rig.pair(1, b)
    rig.seats[0].set_clan("red")
    rig.seats[1].set_clan("blue")
    rig.seats[2].set_clan("green")  # seat 3 has no handheld: nothing goes anywhere
    rig.run(500)
    assert (a.clan, b.clan) == (0, 1)
    assert a.shows() == ["red"] and b.shows() == ["blue"]
    assert c.kinds() == ["WELCOME", "CLEAR"]  # unpaired: only ever CLEAR
    rig.seat_events.clear()
    a.press(True)
    rig.run(100)
    a.press(False)
    rig.run(100)  # (two ports give no order between them)
    b.press(True)
    c.press(True)
    rig.run(200)
    assert rig.seat_events == [(0, "press"), (0, "release"), (1, "press")]
    # The end: results to each seat's own handheld only; a new game clears them.
    rig.seats[0].show_result("red", True, 1)
    rig.seats[1].show_result("blue", False, 2)
    rig.run(500)
    assert (a.result, b.result) == ((0, True, 1), (1, False, 2))
    for seat in rig.seats.values():
        seat.set_clan(None)
    rig.run(500)
    assert (a.clan, a.result, b.clan, b.result) == (None, None, None, None)
    assert c.kinds() == ["WELCOME", "CLEAR"]
    assert rig.manager.counts["lost"] == 0


def test_a_white_fifth_clan_is_named_white_on_handhelds_that_know_it(rig: Rig) -> None:
    """display.fifth_clan = "white": firmware 1.1.0 and later get clan id WHITE (they say
    WHITE); an older handheld gets black's id (it lights white and says BLACK, as before),
    never a body it would refuse. Other clans are unchanged."""
    assert knows_white("1.1.0") and knows_white("2.0") and not knows_white("1.0.0")
    assert not knows_white("") and not knows_white(None) and not knows_white("1.x")
    rig.manager.fifth_clan = "white"
    new, old = rig.device(UID_A, firmware="1.1.0"), rig.device(UID_B, firmware="1.0.0")
    rig.ready(new, old)
    rig.pair(0, new)
    rig.pair(1, old)
    rig.seats[0].set_clan("black")
    rig.seats[1].set_clan("black")
    rig.run(500)
    assert (new.clan, old.clan) == (protocol.WHITE, 4)
    rig.seats[0].show_result("black", True, 1)
    rig.seats[1].show_result("black", False, 2)
    rig.run(500)
    assert (new.result, old.result) == ((protocol.WHITE, True, 1), (4, False, 2))
    rig.seats[0].set_clan("red")
    rig.run(500)
    assert new.clan == 0
    rig.manager.fifth_clan = "black"
    rig.seats[0].set_clan("black")
    rig.run(500)
    assert new.clan == 4


def test_the_settings_tell_the_handhelds_how_the_fifth_clan_looks(tmp_path: Path) -> None:
    from clans_pi.settings.config import Config

    config = Config(seats={1: "handheld"}, state_dir=tmp_path, fifth_clan="white")
    manager = HandheldManager(ports=lambda: [])
    with SeatDevices.open(config, manager_factory=lambda: manager):
        assert manager.fifth_clan == "white"


@pytest.mark.parametrize("how", ["pulled out", "gone from the port list"])
def test_unplugged_mid_game_then_replugged_gets_its_clan_again(rig: Rig, how: str) -> None:
    a = rig.device(UID_A)
    rig.ready(a)
    rig.pair(0, a)
    rig.seats[0].set_clan("yellow")
    rig.run(300)
    assert a.clan == 3
    rig.seat_events.clear()
    rig.unplug(a, close=how == "pulled out")
    rig.run_until(lambda: rig.seat_events, ms=3000)
    assert rig.seat_events == [(0, "lost")]
    assert not rig.seats[0].available and rig.manager.connected() == {}
    rig.seats[0].set_clan("black")  # changed while it is away: sent when it is back
    a.unplug()
    again = rig.device(UID_A)  # the same handheld, plugged in again (a new port)
    rig.run_until(lambda: len(rig.seat_events) == 2)
    rig.run(300)
    assert rig.seat_events == [(0, "lost"), (0, "back")]
    assert rig.seats[0].available
    assert again.clan == 4 and again.kinds() == ["WELCOME", "CLEAR", "SHOW"]
    assert rig.manager.events.count(("lost", UID_A.hex())) == 1


def test_a_handheld_moved_to_another_seat_never_gets_the_old_clan(rig: Rig) -> None:
    a, b = rig.device(UID_A), rig.device(UID_B)
    rig.ready(a, b)
    rig.pair(0, a)
    rig.pair(2, b)
    rig.seats[0].set_clan("red")
    rig.seats[2].set_clan("green")
    rig.run(300)
    assert (a.clan, b.clan) == (0, 2)
    mark_a, mark_b = len(a.received), len(b.received)
    rig.pair(2, a)  # seat 3's player takes handheld A
    assert rig.store.uid_of(2) == UID_A.hex() and rig.store.uid_of(0) is None
    assert a.kinds()[mark_a:] == ["CLEAR", "SHOW"] and a.shows()[-1] == "green"
    assert b.kinds()[mark_b:] == ["CLEAR"] and b.clan is None  # B: paired with no seat now
    rig.seats[0].set_clan("yellow")
    rig.seats[0].show_result("red", True, 1)
    rig.run(300)
    assert not rig.seats[0].available
    assert "red" not in a.shows()[1:] and "yellow" not in a.shows()
    assert a.result is None and b.kinds()[mark_b:] == ["CLEAR"]
    # Replugged: only its new seat re-sends.
    rig.unplug(a)
    rig.run(200)
    again = rig.device(UID_A)
    rig.run_until(lambda: again.link.pending == 0 and again.shows())
    rig.run(300)
    assert again.shows() == ["green"]


# --------------------------------------------------------------------------- trouble


def test_bad_bytes_from_a_handheld_are_counted_never_raised(rig: Rig) -> None:
    a = rig.device(UID_A)
    rig.ready(a)
    rig.pair(0, a)
    rig.seat_events.clear()
    before = dict(rig.manager.counts)
    seen = len(rig.manager.events)
    # The hand-made frames' seqs lie half the range away from the handheld's own, which
    # start at random: a seq the host has just seen from it would be taken as a duplicate
    # (acked, not read), and the frame would count as nothing.
    s = (a.link._seq + 128) & 0xFF

    def seq(k: int) -> int:
        return (s + k) & 0xFF

    good = protocol.encode(protocol.BUTTON, seq(0), protocol.button_body(True))
    junk = [
        b"\x13\x37\xfe\x00",  # garbage (not COBS)
        good[:3] + b"\x00",  # a truncated frame
        b"\x41" * 500 + b"\x00",  # an oversized run
        b"\x00\x00\x00",  # empty frames
        frame(protocol.BUTTON, seq(1), b"\x01", crc_xor=0x0100),  # wrong CRC
        frame(9, seq(2), b"\x01"),  # unknown type
        frame(protocol.BUTTON, seq(3), b"\x01", version=2),  # another protocol version
        frame(protocol.BUTTON, seq(4), b"\x01", length=3),  # wrong length byte
        protocol.cobs_encode(b"\x01\x08") + b"\x00",  # too short to be a packet
        frame(protocol.SHOW, seq(5), b"\x02"),  # a message type handhelds do not send
        frame(protocol.BUTTON, seq(6), b"\x07"),  # a BUTTON whose body does not parse
        frame(protocol.HELLO, seq(7), b"\x00"),  # a HELLO whose body does not parse
        good[:5],  # and a frame cut off mid-way, ended by the next one's start
    ]
    for chunk in junk:
        a.write_raw(chunk)
        rig.run(40)
    rig.run(protocol.DUP_MS + 200)  # let the hand-made seqs age out of the dup memory
    assert rig.seat_events == [] and rig.manager.events[seen:] == []
    a.press(True)
    rig.run(200)
    assert rig.seat_events == [(0, "press")]
    counts = rig.manager.counts
    grew = {k for k in counts if counts[k] > before.get(k, 0)}
    assert {"cobs", "oversize", "crc", "type", "version", "length", "short", "unexpected",
            "bad_bodies"} <= grew
    assert counts["port_errors"] == 0 and counts["lost"] == 0
    conn = rig.manager.connection(a.path)
    assert conn is not None and conn.state == "ready"
    # And a SHOW still arrives as exactly the clan sent.
    rig.seats[0].set_clan("green")
    rig.run(300)
    assert a.clan == 2 and a.shows() == ["green"]


def test_a_corrupted_show_never_decodes_as_another_clan(rig: Rig) -> None:
    a = rig.device(UID_A)
    rig.ready(a)
    rig.pair(0, a)
    rig.seats[0].set_clan("blue")
    rig.run(300)
    sent = b"".join(rig.ports[a.path].sent)
    shows = [f + b"\x00" for f in sent.split(b"\x00")
             if [m[0] for m in protocol.Decoder().feed(f + b"\x00")] == [protocol.SHOW]]
    assert shows, "the host sent no SHOW"
    for show in shows:
        for i in range(len(show) * 8):
            bad = bytearray(show)
            bad[i // 8] ^= 1 << (i % 8)
            for msg_type, _seq, body in protocol.Decoder().feed(bytes(bad)):
                assert msg_type != protocol.SHOW or body == protocol.show_body(1)


def test_a_silent_handheld_is_lost_and_comes_back_when_it_speaks(rig: Rig) -> None:
    a = rig.device(UID_A)
    rig.ready(a)
    rig.pair(1, a)
    rig.seats[1].set_clan("black")
    rig.run(300)
    rig.seat_events.clear()
    a.silent = True
    took = rig.run_until(lambda: rig.seat_events)
    assert rig.seat_events == [(1, "lost")]
    assert took <= protocol.TIMEOUT_MS + 100
    conn = rig.manager.connection(a.path)
    assert conn is not None and conn.state == "lost" and conn.port is not None
    rig.run(3000)
    assert rig.seat_events == [(1, "lost")]  # said once
    assert rig.seats[1].handle(("lost", UID_A.hex())) == []  # even if told twice
    a.silent = False  # it wakes up, finds the host gone quiet, forgets and says HELLO
    rig.run_until(lambda: len(rig.seat_events) == 2)
    rig.run(300)
    assert rig.seat_events == [(1, "lost"), (1, "back")]
    assert a.clan == 4 and rig.seats[1].available


def test_a_foreign_device_is_closed_once_and_left_alone(rig: Rig) -> None:
    stranger = rig.device(UID_C, hello=False)
    stranger.silent = True  # it is not ours: it just prints
    text = b"MicroPython v1.23.0 on 2024-06-02; Raspberry Pi Pico with RP2040\r\n>>> "
    for _ in range(3500 // STEP_MS):
        stranger.write_raw(text)
        rig.step()
    assert rig.manager.events == [("foreign", stranger.path)]
    conn = rig.manager.connection(stranger.path)
    assert conn is not None and conn.state == "foreign" and conn.port is None
    assert rig.ports[stranger.path].sent == []  # not one byte written to it
    assert rig.manager.counts["foreign"] == 1
    rig.run(6000)
    assert rig.opened == [stranger.path]  # not reopened while it stays plugged in
    assert rig.manager.events == [("foreign", stranger.path)]
    rig.unplug(stranger, close=False)
    rig.run(2100)
    rig.plugged.append(stranger.path)  # plugged in again: looked at again
    rig.run(2100)
    assert rig.opened == [stranger.path, stranger.path]


def test_another_protocol_version_is_foreign_at_once(rig: Rig) -> None:
    newer = rig.device(UID_B, hello=False)
    newer.silent = True
    hello = frame(protocol.HELLO, 1, protocol.hello_body(UID_B, "2.0.0"), version=2)
    rig.step()
    took = rig.run_until(lambda: newer.write_raw(hello) or rig.manager.events)
    assert took <= 200
    assert rig.manager.events == [("foreign", newer.path)]
    assert rig.manager.connected() == {}


def test_port_list_and_open_failures_are_logged_once_not_raised(
        caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    calls = {"ports": 0}

    def ports() -> list[str]:
        calls["ports"] += 1
        if calls["ports"] <= 3:
            raise OSError("sysfs is having a bad day")
        return ["/dev/ttyACM7"]

    def opener(path: str) -> handhelds.Port:
        raise serial.SerialException(13, f"could not open port {path}: [Errno 13] "
                                         f"Permission denied: '{path}'")

    with HandheldManager(ports=ports, opener=opener, now_ms=clock, rescan_ms=100) as manager:
        for _ in range(100):
            clock.now += 20
            assert manager.poll() == []
        counts = manager.counts
    assert counts["scan_failures"] == 3 and counts["open_failures"] > 10
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 2, warnings
    assert "cannot list the serial ports" in warnings[0]
    assert "cannot open /dev/ttyACM7" in warnings[1] and "dialout" in warnings[1]
    assert manager.poll() == []  # closed


def test_close_clears_ready_handhelds_and_is_idempotent(rig: Rig) -> None:
    a = rig.device(UID_A)
    rig.ready(a)
    rig.pair(0, a)
    rig.seats[0].set_clan("red")
    rig.run(300)
    assert a.clan == 0
    rig.hub.close()
    rig.hub.close()
    rig.manager.close()
    a.step()
    assert a.clan is None
    assert rig.manager.poll() == [] and rig.manager.connected() == {}
    assert rig.manager.connection(a.path) is not None
    assert rig.manager.connection(a.path).port is None  # type: ignore[union-attr]


def test_the_real_firmware_shows_its_own_seats_clan_while_held(rig: Rig, firmware) -> None:
    pico = FirmwareHandheld(firmware, rig.clock)
    rig.attach(pico)
    rig.ready(pico)
    assert rig.manager.connected() == {pico.uid.hex(): "1.1.0"}
    rig.pair(2, pico)
    rig.seats[2].set_clan("green")
    rig.run(200)
    assert pico.colour() is None  # not held: dark
    rig.seat_events.clear()
    pico.press()
    rig.run(100)
    assert pico.colour() == "green"
    pico.press(False)
    rig.run(100)
    assert pico.colour() is None and rig.seat_events == [(2, "press"), (2, "release")]
    # It hangs for 4 s: lost; then it finds the host quiet, forgets, says HELLO: back.
    pico.frozen = True
    rig.run(4000)
    pico.frozen = False
    rig.run_until(lambda: (2, "back") in rig.seat_events, ms=8000)
    assert rig.seat_events[2:] == [(2, "lost"), (2, "back")]
    rig.run(200)
    pico.press()
    rig.run(100)
    assert pico.colour() == "green"
    pico.press(False)
    rig.seats[2].show_result("green", True, 1)  # a winner's light stays on
    rig.run(300)
    assert pico.colour() == "green"
    rig.seats[2].set_clan(None)  # a new game
    rig.run(200)
    assert pico.colour() is None and pico.hand.clan is None and pico.hand.result is None
    rig.hub.close()
    assert rig.manager.counts["port_errors"] == 0


# --------------------------------------------------------------------------- the pairing file


def test_pairing_store_moves_a_uid_between_seats(tmp_path: Path) -> None:
    store = PairingStore(tmp_path / "deep" / "er" / "handhelds.json")
    store.pair(0, "aa01")
    store.pair(1, "bb02")
    store.pair(2, "aa01")
    assert store.pairs() == {1: "bb02", 2: "aa01"}
    store.pair(1, "cc03")
    assert store.pairs() == {1: "cc03", 2: "aa01"} and store.seat_of("bb02") is None
    store.unpair(2)
    store.unpair(3)
    assert PairingStore(store.path).pairs() == {1: "cc03"}


@pytest.mark.parametrize("content", [
    b"{not json",
    b"\xff\xfe\x00garbage",
    b"[]",
    b'{"version": 2, "seats": {}}',
    b'{"version": 1, "seats": []}',
    b'{"version": 1, "seats": {"one": "aa01"}}',
    b'{"version": 1, "seats": {"0": "not hex"}}',
    b'{"version": 1, "seats": {"0": "aa01", "1": "aa01"}}',
    b"",
])
def test_a_corrupt_pairing_file_is_moved_aside(tmp_path: Path, content: bytes,
                                               caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "handhelds.json"
    path.write_bytes(content)
    store = PairingStore(path)
    assert store.pairs() == {} and not path.exists()
    assert (tmp_path / "handhelds.json.bad").read_bytes() == content
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 and "\n" not in lines[0] and lines[0] == store.problem
    assert "handhelds.json.bad" in lines[0] and "paired again" in lines[0]
    store.pair(0, "aa01")  # and pairing goes on
    assert PairingStore(path).pairs() == {0: "aa01"}


def test_a_pairing_file_that_cannot_be_saved_still_pairs(tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    store = PairingStore(blocker / "handhelds.json")
    store.pair(1, "aa01")
    assert store.uid_of(1) == "aa01"
    assert store.problem is not None and "cannot save the handheld pairing" in store.problem
    assert [r.getMessage() for r in caplog.records] == [store.problem]


# --------------------------------------------------------------------------- udev, logs


def _udev_rules(path: Path) -> list[list[tuple[str, str, str]]]:
    """Each rule as (key, operator, value) triples, checked to cover the whole line."""
    pair = re.compile(r'\s*([A-Z_]+(?:\{[^}]+\})?)\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*(,|$)')
    rules = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        found, at = [], 0
        while at < len(line):
            m = pair.match(line, at)
            assert m, f"cannot parse {line[at:]!r}"
            found.append((m[1], m[2], m[3]))
            at = m.end()
        rules.append(found)
    return rules


def test_the_udev_rule_matches_the_handheld() -> None:
    rules = _udev_rules(ROOT / "systemd" / "99-clans-pi-handheld.rules")
    assert len(rules) == 1
    keys = {key: (op, value) for key, op, value in rules[0]}
    assert len(keys) == len(rules[0])
    assert keys["SUBSYSTEM"] == ("==", "tty")
    assert keys["ATTRS{idVendor}"] == ("==", f"{handhelds.VENDOR_ID:04x}")
    assert keys["ATTRS{idProduct}"] == ("==", f"{handhelds.PRODUCT_ID:04x}")
    assert keys["GROUP"] == ("=", "dialout")
    assert keys["MODE"] == ("=", "0660")
    assert keys["ENV{ID_MM_DEVICE_IGNORE}"] == ("=", "1")
    assert keys["SYMLINK"] == ("+=", "clans-handhelds/%s{serial}")


def test_the_log_check_catches_a_clan() -> None:
    def record(msg: str, *args: object) -> logging.LogRecord:
        return logging.makeLogRecord({"msg": msg, "args": args})

    assert clan_lines([record("seat %d: %s", 2, "Red")]) == ["seat 2: Red"]
    assert clan_lines([record("seat 2: clan %d", 3)]) == ["seat 2: clan 3"]
    assert clan_lines([record("seat 2: show sent"), record("handheld cleared; Clans ready")]) == []


def test_a_whole_game_logs_what_happens_but_no_clan(rig: Rig,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    a, b = rig.device(UID_A), rig.device(UID_B)
    rig.ready(a, b)
    rig.pair(0, a)
    rig.pair(1, b)
    for seat, clan in zip(range(2), protocol.CLANS, strict=False):
        rig.seats[seat].set_clan(clan)
    a.press(True)
    rig.run(200)
    a.press(False)
    rig.unplug(b)
    rig.run(300)
    again = rig.device(UID_B)
    rig.run_until(lambda: again.clan == 1)
    for seat, clan in zip(range(2), protocol.CLANS, strict=False):
        rig.seats[seat].show_result(clan, seat == 0, seat + 1)
    rig.run(300)
    rig.hub.close()
    lines = [r.getMessage() for r in caplog.records]
    for expected in ("seat 1: show sent", "seat 2: result sent", "handheld e6614c311b7e0b01 "
                     "ready", "seat 2: handheld lost", "seat 2: handheld back"):
        assert any(expected in line for line in lines), expected
    assert clan_lines(caplog.records) == []


# --------------------------------------------------------------------------- stray claims


def foreign_hello(uid: bytes, seq: int = 77) -> bytes:
    """A CRC-valid HELLO with ``uid``, as noise, a glitch or a forger could put on a port."""
    return frame(protocol.HELLO, seq, protocol.hello_body(uid, "1.1.0"))


def dealt(rig: Rig) -> tuple[FakeHandheld, FakeHandheld]:
    """Handheld A on seat 1 holding red, B on seat 2 holding blue."""
    a, b = rig.device(UID_A), rig.device(UID_B)
    rig.ready(a, b)
    rig.pair(0, a)
    rig.pair(1, b)
    rig.seats[0].set_clan("red")
    rig.seats[1].set_clan("blue")
    rig.run(300)
    assert (a.clan, b.clan) == (0, 1)
    rig.seat_events.clear()
    rig.hub.take_notices()
    return a, b


@pytest.mark.parametrize("uid", [UID_C, UID_B], ids=["unknown uid", "seat 2's uid"])
def test_a_foreign_hello_on_a_paired_port_changes_nothing(rig: Rig, uid: bytes) -> None:
    """One CRC-valid HELLO with another uid on seat 1's port: the port is still handheld A's
    (a USB port is one device until it is unplugged). Seat 1 is not lost, A keeps its clan
    and is sent nothing, and with seat 2's uid the port never gets seat 2's clan (R22)."""
    a, b = dealt(rig)
    mark_a, mark_b = len(a.received), len(b.received)
    a.write_raw(foreign_hello(uid))
    rig.run(6000)
    assert rig.seat_events == [] and rig.seats[0].available and rig.seats[1].available
    assert a.kinds()[mark_a:] == [] and a.clan == 0 and a.shows() == ["red"]
    assert b.kinds()[mark_b:] == [] and b.clan == 1
    assert rig.manager.counts["other_uid"] == 1 and rig.manager.counts["lost"] == 0
    conn = rig.manager.connection(a.path)
    assert conn is not None and conn.uid == UID_A.hex() and conn.state == "ready"
    a.press(True)
    rig.run(200)
    assert rig.seat_events == [(0, "press")]
    rig.seats[1].set_clan("green")
    rig.run(300)
    assert b.shows() == ["blue", "green"] and a.shows() == ["red"]


def test_a_foreign_hello_while_a_port_is_lost_does_not_take_it(rig: Rig) -> None:
    """Handheld A hangs (seat 1 lost, the host goes quiet on its port); a HELLO with seat 2's
    uid turns up there: the port is not given to seat 2, and when A wakes it is back."""
    a, b = dealt(rig)
    a.silent = True
    rig.run_until(lambda: rig.seat_events == [(0, "lost")])
    a.write_raw(foreign_hello(UID_B))
    rig.run(500)
    a.silent = False
    took = rig.run_until(lambda: (0, "back") in rig.seat_events, ms=8000)
    assert took <= protocol.TIMEOUT_MS + 500
    rig.run(300)
    assert rig.seat_events == [(0, "lost"), (0, "back")]
    assert a.clan == 0 and "blue" not in a.shows() and b.clan == 1 and b.shows() == ["blue"]


def test_the_real_firmware_shrugs_off_a_foreign_hello(rig: Rig, firmware) -> None:
    """The Pico of the report: after the foreign HELLO its seat stays, its status LED
    means what it says, and holding the button shows its own seat's clan."""
    pico = FirmwareHandheld(firmware, rig.clock)
    rig.attach(pico)
    rig.ready(pico)
    rig.pair(2, pico)
    rig.seats[2].set_clan("green")
    rig.run(200)
    rig.seat_events.clear()
    pico.write_raw(foreign_hello(UID_C))
    rig.run(5000)
    assert rig.seat_events == [] and rig.seats[2].available
    assert pico.hand.welcomed and pico.link.alive and pico.hand.hellos == 1
    pico.press()
    rig.run(100)
    assert pico.colour() == "green" and rig.seat_events == [(2, "press")]
    pico.press(False)
    rig.run(100)


def test_a_forged_uid_on_another_port_gets_nothing(rig: Rig) -> None:
    """A second device says it is seat 2's handheld B while B is still talking: it gets no
    clan and no result (R22), its button is nobody's, B keeps everything, and the screen
    says so without naming a clan. Paired again on screen, it is seat 2's and B is not."""
    a, b = dealt(rig)
    mark_b = len(b.received)
    forger = rig.device(UID_B)
    rig.run(3000)
    assert forger.welcomed and forger.kinds() == ["WELCOME", "CLEAR"] and forger.clan is None
    notices = rig.hub.take_notices()
    assert notices == ["A second handheld says it is seat 2's and gets nothing; seat "
                       "2's own goes on working. To use the new one, pair it before the next "
                       "game."]
    assert not SECRET.search(" ".join(notices))
    assert rig.seat_events == [(1, "duplicate")] and rig.seats[1].available
    assert b.kinds()[mark_b:] == [] and b.clan == 1
    rig.seat_events.clear()
    forger.press(True)
    rig.run(200)
    forger.press(False)
    rig.run(200)
    assert rig.seat_events == []  # the forger's button is nobody's
    rig.seats[1].set_clan("yellow")
    rig.seats[1].show_result("yellow", True, 1)
    rig.run(500)
    assert forger.kinds() == ["WELCOME", "CLEAR"] and forger.result is None
    assert b.shows() == ["blue", "yellow"] and b.result == (3, True, 1)
    assert rig.manager.counts["lost"] == 0 and rig.hub.take_notices() == []
    # Paired again on screen (the family chose it): now it is seat 2's, B gets CLEAR only.
    rig.seats[1].set_clan("green")
    rig.run(300)
    mark_b = len(b.received)
    rig.pair(1, forger)
    rig.run(300)
    assert forger.clan == 2 and forger.shows() == ["green"]
    assert b.kinds()[mark_b:] == ["CLEAR"] and b.clan is None and b.result is None
    b.press(True)
    rig.run(200)
    assert rig.seat_events == [(1, "paired"), (1, "release")]  # B's button: nobody's now
    rig.seats[1].set_clan("red")
    rig.run(300)
    assert forger.shows() == ["green", "red"] and b.kinds()[mark_b:] == ["CLEAR"]
    assert a.shows() == ["red"] and a.clan == 0  # seat 1 never noticed any of it


def test_a_quiet_old_port_still_there_keeps_its_uid_from_a_new_port(rig: Rig) -> None:
    """Handheld A's port stays open and listed but quiet (a busy hub), long
    enough to be lost even; a device saying A's uid on another port is a second device: it
    gets nothing, the screen says so, and when A speaks again it is seat 1's as before."""
    a, _b = dealt(rig)
    a.silent = True
    rig.run_until(lambda: rig.seat_events == [(0, "lost")])
    again = rig.device(UID_A)
    rig.run_until(lambda: again.welcomed)
    rig.run(500)
    assert again.kinds() == ["WELCOME", "CLEAR"] and again.clan is None
    assert rig.seat_events == [(0, "lost"), (0, "duplicate")] and not rig.seats[0].available
    a.silent = False  # it wakes: the same port, so the same handheld; it gets its clan
    rig.run_until(lambda: (0, "back") in rig.seat_events, ms=8000)
    rig.run(300)
    assert rig.seat_events == [(0, "lost"), (0, "duplicate"), (0, "back")]
    assert a.clan == 0 and rig.seats[0].available
    assert again.kinds() == ["WELCOME", "CLEAR"] and again.shows() == []


def test_a_handheld_moved_once_its_old_port_failed_needs_no_pairing(rig: Rig) -> None:
    """The legitimate case: the same handheld replugged. Its old port is still listed when
    the new one says HELLO, but it fails when read (pulled out): the new port takes the
    seat at once, with no notice but the seat's own."""
    a, _b = dealt(rig)
    a.unplug()  # the device end is gone; the rig still lists the port
    again = rig.device(UID_A)
    took = rig.run_until(lambda: again.clan == 0)
    assert took <= handhelds.RESCAN_MS + 500
    rig.run(300)
    assert rig.seats[0].available and again.shows() == ["red"]
    assert (0, "duplicate") not in rig.seat_events
    assert all("second handheld" not in n for n in rig.hub.take_notices())


def test_a_slow_loop_does_not_hand_a_live_handhelds_uid_to_a_forger(rig: Rig) -> None:
    """The app's loop stalls for 2.5 s (a slow SD card, say) while handheld B keeps talking
    and a forger, polled first, says B's uid: B's waiting frames are read before deciding,
    so B is still live and the forger gets nothing."""
    forger = rig.device(UID_B, hello=False)  # plugged first: its port is polled first
    rig.run(300)
    a, b = dealt(rig)
    forger.link.send(protocol.HELLO, protocol.hello_body(UID_B, "1.1.0"))
    for _ in range(2500 // STEP_MS):  # the devices go on; the host does not poll
        rig.clock.now += STEP_MS
        for dev in (a, b, forger):
            dev.step()
    rig.run(2000)
    assert forger.clan is None and forger.shows() == [] and b.clan == 1
    assert rig.seats[1].available and (1, "duplicate") in rig.seat_events
    assert (1, "lost") not in rig.seat_events
