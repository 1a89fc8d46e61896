"""What a Clans handheld does, apart from the hardware: talk to the host, keep the
seat's clan secret until the button is held, show results.

Runs on the Pico (MicroPython) and, for the tests, under CPython with a fake
machine module. Everything it touches is passed in: the hardware object (see
hw.Hardware for its five methods), write(bytes), now_ms() and the watchdog.
"""

import config
import protocol

try:
    from time import ticks_diff
except ImportError:

    def ticks_diff(a, b):
        return a - b


FIRMWARE_VERSION = "1.1.0"  # 1.1.0: clan id 5, the fifth clan shown white
MAX_READ = 64  # bytes read from the host per loop, at most

# Where the display puts things (8x8 font): two text lines, then the clan's pattern.
LINE_1_Y = 0
LINE_2_Y = 12
PATTERN_Y = 24


def pattern_ops(clan_id, x, y, w, h):
    """Drawing operations for the clan's pattern in the box (x, y, w, h), so a
    colour-blind player can tell the clans apart: red horizontal stripes, blue
    vertical stripes, green diagonal stripes, yellow dots, black (or white, id 5)
    a checkerboard.
    Returns [(method, args)] for a framebuf (the colour argument is added when drawn)."""
    ops = []
    if clan_id == 0:
        for i in range(0, h, 6):
            ops.append(("fill_rect", (x, y + i, w, min(3, h - i))))
    elif clan_id == 1:
        for i in range(0, w, 6):
            ops.append(("fill_rect", (x + i, y, min(3, w - i), h)))
    elif clan_id == 2:
        # Lines going down-left, 8 pixels apart, clipped to the box.
        for k in range(0, w + h - 1, 8):
            t0 = max(0, k - (w - 1))
            t1 = min(h - 1, k)
            ops.append(("line", (x + k - t0, y + t0, x + k - t1, y + t1)))
    elif clan_id == 3:
        for j in range(2, h - 1, 6):
            for i in range(2, w - 1, 6):
                ops.append(("fill_rect", (x + i, y + j, 2, 2)))
    elif clan_id in (4, protocol.WHITE):
        for j in range(0, h, 8):
            for i in range((j // 8) % 2 * 8, w, 16):
                ops.append(("fill_rect", (x + i, y + j, min(8, w - i), min(8, h - j))))
    return ops


def _colour(clan_id):
    """The light for a clan id. The fifth clan shown white (id 5) lights as the fifth clan
    does: config.COLOURS has five entries, and an LED shows black as white anyway."""
    return config.COLOURS[4 if clan_id == protocol.WHITE else clan_id]


def _centred(text, y, width):
    return ("text", (text, max(0, (width - 8 * len(text)) // 2), y))


def screen_ops(lines, clan_id):
    """The whole display: up to two centred text lines and the clan's pattern below."""
    width = config.DISPLAY_WIDTH
    ops = []
    rows = (LINE_1_Y, LINE_2_Y)
    for i in range(min(len(lines), len(rows))):
        ops.append(_centred(lines[i], rows[i], width))
    if clan_id is not None:
        ops.extend(pattern_ops(clan_id, 0, PATTERN_Y, width, config.DISPLAY_HEIGHT - PATTERN_Y))
    return ops


class Handheld:
    """The handheld's state machine. feed() what the host sent, call step() often."""

    def __init__(self, hw, write, now_ms):
        self.hw = hw
        self._now = now_ms
        self.link = protocol.Link(write, now_ms)
        self.clan = None  # the clan the host told us to show, or None
        self.result = None  # (clan_id, won, place) from RESULT, or None
        self.welcomed = False
        self.pressed = False  # the debounced button
        self.hellos = 0
        self.bad_bodies = 0  # messages whose body did not parse
        now = now_ms()
        self._raw = False
        self._raw_at = now
        self._result_at = now
        self._host = None  # the host Link's session when we were welcomed
        self._led = "unset"
        self._screen_key = "unset"
        self._status = None
        self._hello()
        self._update(now)

    def _hello(self):
        self.hellos += 1
        self.link.send(protocol.HELLO, protocol.hello_body(self.hw.uid(), FIRMWARE_VERSION))

    def _restart(self):
        """A new connection: forget the clan (a handheld moved to another host must not
        show an old clan) and say HELLO again."""
        self.clan = None
        self.result = None
        self.welcomed = False
        self._host = None
        self.link.reset()
        self._hello()

    def feed(self, data):
        """Bytes from the host."""
        for msg_type, body in self.link.receive(data):
            self._handle(msg_type, body)

    def _handle(self, msg_type, body):
        try:
            if msg_type == protocol.WELCOME:
                self.welcomed = True
                self._host = self.link.peer_session
            elif msg_type == protocol.SHOW:
                self.clan = protocol.parse_show(body)
                self.result = None
            elif msg_type == protocol.CLEAR:
                self.clan = None
                self.result = None
            elif msg_type == protocol.RESULT:
                self.result = protocol.parse_result(body)
                self._result_at = self._now()
        except ValueError:
            self.bad_bodies += 1

    def step(self):
        """Debounce the button, look after the link, update the light and display."""
        now = self._now()
        self._debounce(now)
        self._check_link()
        self.link.tick()
        self._update(now)

    def _debounce(self, now):
        raw = bool(self.hw.button())
        if raw != self._raw:
            self._raw = raw
            self._raw_at = now
        elif raw != self.pressed and ticks_diff(now, self._raw_at) >= config.DEBOUNCE_MS:
            self.pressed = raw
            self.link.send(protocol.BUTTON, protocol.button_body(raw))

    def _check_link(self):
        link = self.link
        if link.lost or link.silence_ms >= protocol.TIMEOUT_MS:
            self._restart()
        elif self.welcomed:
            peer = link.peer_session
            if self._host is None:
                self._host = peer
            elif peer is not None and peer != self._host:
                self._restart()  # another host (or a restarted one) took over the port

    def _update(self, now):
        led = None
        key = None
        if self.result is not None:
            clan, won, place = self.result
            phase = (ticks_diff(now, self._result_at) // config.BLINK_MS) % 2
            if won or phase == 0:
                led = _colour(clan)
            key = ("result", clan, won, place)
        elif self.pressed and self.clan is not None:
            led = _colour(self.clan)
            key = ("clan", self.clan)
        if led != self._led:
            self._led = led
            self.hw.led(led)
        if key != self._screen_key:
            self._screen_key = key
            self.hw.screen(self._screen(key))
        status = self.welcomed and self.link.alive
        if status != self._status:
            self._status = status
            self.hw.status(status)

    def _screen(self, key):
        if key is None:
            return []
        name = protocol.SHOWN_CLANS[key[1]].upper()
        if key[0] == "clan":
            return screen_ops(("Your clan:", name), key[1])
        headline = "You win!" if key[2] else "Place " + str(key[3])
        return screen_ops((headline, name), key[1])


def run(hw, read_byte, write, now_ms, wdt, stop=None):
    """The main loop. read_byte() returns one byte (bytes of length 1) from the host,
    or None (or b"") when there is none after a short wait. Runs until stop() is true,
    or forever without stop; returns the Handheld."""
    handheld = Handheld(hw, write, now_ms)
    while stop is None or not stop():
        wdt.feed()
        got = bytearray()
        b = read_byte()
        while b:
            got.extend(b)
            if len(got) >= MAX_READ:
                break
            b = read_byte()
        if got:
            handheld.feed(got)
        handheld.step()
    return handheld
