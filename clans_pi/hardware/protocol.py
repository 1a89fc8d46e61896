"""The host <-> handheld protocol: framing, messages and a reliable link.

This one file is used unchanged by the host (CPython, imported as
clans_pi.hardware.protocol) and by the handheld firmware (MicroPython on a
Raspberry Pi Pico, copied there as protocol.py). So it uses only what both
have: no dataclasses, typing, enum or abc, no annotations, no f-strings.

Wire format. A packet is

    VERSION, msg_type, seq, len(body), body..., crc_hi, crc_lo

where the CRC is CRC-16/CCITT-FALSE over everything before it. A frame on
the wire is the packet COBS-encoded (so it holds no zero byte) followed by
one 0x00 delimiter. A reader that starts mid-stream, or sees noise, loses at
most the frame it is in.

Link. Every message except ACK and HEARTBEAT is acknowledged by the receiver
with an ACK carrying the same seq. Reliable messages are sent one at a time,
in order (stop-and-wait): the next one goes out only when the previous one is
acked, and an unacked one is resent every RETRY_MS, at most MAX_RETRIES
times; after that the link is lost until reset(). The receiver drops
duplicates of messages it has delivered (re-acking them). Each end sends a
HEARTBEAT every HEARTBEAT_MS. The body of every ACK and HEARTBEAT is the
sender's 2-byte session number (big-endian), picked at random when its Link is
made and kept for the Link's life (reset() keeps it): a change tells the other
end that its peer is a new Link, i.e. a restarted program (see
Link.peer_session), and an ACK or HEARTBEAT carrying a Link's own session is
its own frame echoed back (a tty still echoing while the host opens the port),
which it ignores.
"""

try:
    from micropython import const
except ImportError:

    def const(x):
        return x


try:
    from time import ticks_diff as _ticks_diff
except ImportError:

    def _ticks_diff(a, b):
        return a - b


try:
    from random import getrandbits as _getrandbits
except ImportError:  # a MicroPython build without random
    _getrandbits = None


VERSION = const(1)
MAX_BODY = const(48)

HELLO = const(1)
WELCOME = const(2)
HEARTBEAT = const(3)
ACK = const(4)
SHOW = const(5)
CLEAR = const(6)
RESULT = const(7)
BUTTON = const(8)

TYPE_NAMES = ("", "HELLO", "WELCOME", "HEARTBEAT", "ACK", "SHOW", "CLEAR", "RESULT", "BUTTON")

CLANS = ("red", "blue", "green", "yellow", "black")  # clan id = index
# Clan id 5 in SHOW and RESULT: the fifth clan ("black") shown white, when the host's
# settings show it so (R3). Firmware 1.1.0 and later know it; older handhelds get 4.
WHITE = const(5)
SHOWN_CLANS = ("red", "blue", "green", "yellow", "black", "white")  # names on a display

HEARTBEAT_MS = const(1000)
TIMEOUT_MS = const(3500)
RETRY_MS = const(300)
MAX_RETRIES = const(8)
# A delivered message's seq is remembered this long (and at most _DUP_KEEP of them):
# longer than the sender can go on resending it.
DUP_MS = RETRY_MS * (MAX_RETRIES + 2)
_DUP_KEEP = const(16)

MAX_UID = const(16)  # bytes of unique id in a HELLO

_HEADER = const(4)
_TRAILER = const(2)
MAX_PACKET = _HEADER + MAX_BODY + _TRAILER
# The longest COBS encoding of a packet, without its 0x00 delimiter.
MAX_FRAME = MAX_PACKET + 1 + MAX_PACKET // 254


def _make_crc_table():
    table = []
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_CRC_TABLE = _make_crc_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor).
    Pass a previous result as crc to continue over more data."""
    table = _CRC_TABLE
    for b in data:
        crc = ((crc << 8) & 0xFF00) ^ table[((crc >> 8) ^ b) & 0xFF]
    return crc


def _as_bytes(data):
    if isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    raise ValueError("expected bytes")


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: the result holds no zero byte. Canonical form:
    a run of 254 non-zero bytes at the very end is not followed by an empty block."""
    data = _as_bytes(data)
    n = len(data)
    out = bytearray(b"\x01")
    code_at = 0  # where the current block's code byte is, or -1 once there is none
    code = 1
    for i in range(n):
        b = data[i]
        if b:
            out.append(b)
            code += 1
        if b == 0 or code == 0xFF:
            out[code_at] = code
            code = 1
            if b == 0 or i + 1 < n:
                code_at = len(out)
                out.append(1)
            else:
                code_at = -1
    if code_at >= 0:
        out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    """Undo cobs_encode; ValueError on anything cobs_encode cannot produce."""
    data = _as_bytes(data)
    n = len(data)
    if n == 0:
        raise ValueError("empty COBS data")
    out = bytearray()
    i = 0
    while i < n:
        code = data[i]
        if code == 0:
            raise ValueError("zero byte in COBS data")
        end = i + code
        if end > n:
            raise ValueError("COBS block runs past the end")
        block = data[i + 1 : end]
        if block.find(b"\x00") >= 0:
            raise ValueError("zero byte in COBS data")
        out.extend(block)
        i = end
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


def _known_type(msg_type):
    return isinstance(msg_type, int) and HELLO <= msg_type <= BUTTON


def encode(msg_type, seq, body=b""):
    """One frame, ready to write: COBS(packet) + b"\\x00"."""
    if not _known_type(msg_type):
        raise ValueError("unknown message type")
    body = _as_bytes(body)
    if len(body) > MAX_BODY:
        raise ValueError("body too long")
    packet = bytearray((VERSION, msg_type, seq & 0xFF, len(body)))
    packet.extend(body)
    crc = crc16(packet)
    packet.append(crc >> 8)
    packet.append(crc & 0xFF)
    return cobs_encode(packet) + b"\x00"


class Decoder:
    """Turns a byte stream into messages. feed() never raises; whatever it cannot
    use is dropped and counted in self.counts:

    garbage   feed() given something that is not bytes (or an int 0..255)
    oversize  a frame longer than MAX_FRAME (the bytes up to the next 0x00 are dropped)
    cobs      a frame that is not valid COBS
    short     a packet shorter than header + CRC
    crc       a CRC mismatch
    version   a sound packet of another protocol VERSION
    type      a sound packet of an unknown message type
    length    a sound packet whose length byte does not match its body
    ok        messages delivered

    Empty frames (0x00 0x00) are skipped without counting: a sender may write a
    lone 0x00 to end whatever partial frame the reader holds.
    """

    def __init__(self):
        self.counts = {
            "garbage": 0,
            "oversize": 0,
            "cobs": 0,
            "short": 0,
            "crc": 0,
            "version": 0,
            "type": 0,
            "length": 0,
            "ok": 0,
        }
        self._buf = bytearray()
        self._skipping = False

    def feed(self, data):
        """Feed raw bytes; returns a list of (msg_type, seq, body) for complete frames."""
        out = []
        try:
            if isinstance(data, int) and not isinstance(data, bool) and 0 <= data <= 255:
                data = bytes((data,))
            else:
                data = _as_bytes(data)
            self._feed(data, out)
        except Exception:
            self.counts["garbage"] += 1
            self._buf = bytearray()
            self._skipping = False
        return out

    def _feed(self, data, out):
        n = len(data)
        start = 0
        buf = self._buf
        while start < n:
            zero = data.find(b"\x00", start)
            end = n if zero < 0 else zero
            if not self._skipping and end > start:
                if len(buf) + end - start > MAX_FRAME:
                    self.counts["oversize"] += 1
                    self._skipping = True
                    buf = self._buf = bytearray()
                else:
                    buf.extend(data[start:end])
            if zero < 0:
                return
            if self._skipping:
                self._skipping = False
            elif buf:
                frame = bytes(buf)
                buf = self._buf = bytearray()
                self._frame(frame, out)
            start = zero + 1

    def _frame(self, frame, out):
        counts = self.counts
        try:
            packet = cobs_decode(frame)
        except ValueError:
            counts["cobs"] += 1
            return
        n = len(packet)
        if n < _HEADER + _TRAILER:
            counts["short"] += 1
            return
        if crc16(packet[: n - _TRAILER]) != (packet[n - 2] << 8) | packet[n - 1]:
            counts["crc"] += 1
            return
        if packet[0] != VERSION:
            counts["version"] += 1
            return
        msg_type = packet[1]
        if not _known_type(msg_type):
            counts["type"] += 1
            return
        if packet[3] != n - _HEADER - _TRAILER:
            counts["length"] += 1
            return
        counts["ok"] += 1
        out.append((msg_type, packet[2], packet[_HEADER : n - _TRAILER]))


# Message bodies. Each *_body builds one, each parse_* checks and reads one;
# both raise ValueError on anything out of range.


def _clan(clan_id):
    if isinstance(clan_id, bool) or not isinstance(clan_id, int):
        raise ValueError("clan id must be an int")
    if not 0 <= clan_id < len(SHOWN_CLANS):
        raise ValueError("no such clan")
    return clan_id


def _printable(text):
    return all(" " <= ch <= "~" for ch in text)


def hello_body(uid, firmware):
    """HELLO: len(uid), uid, then the firmware version as printable ASCII."""
    uid = _as_bytes(uid)
    if not 1 <= len(uid) <= MAX_UID:
        raise ValueError("uid must be 1..16 bytes")
    if not isinstance(firmware, str) or not firmware or not _printable(firmware):
        raise ValueError("firmware version must be non-empty printable ASCII")
    body = bytes((len(uid),)) + uid + firmware.encode()
    if len(body) > MAX_BODY:
        raise ValueError("firmware version too long")
    return body


def parse_hello(body):
    """(uid bytes, firmware version str) from a HELLO body."""
    body = _as_bytes(body)
    if len(body) < 3:
        raise ValueError("HELLO too short")
    n = body[0]
    if not 1 <= n <= MAX_UID or len(body) < n + 2:
        raise ValueError("bad uid length in HELLO")
    try:
        firmware = body[n + 1 :].decode()
    except Exception:
        raise ValueError("firmware version is not text") from None
    if not _printable(firmware):
        raise ValueError("firmware version is not printable ASCII")
    return body[1 : n + 1], firmware


def show_body(clan_id):
    return bytes((_clan(clan_id),))


def parse_show(body):
    body = _as_bytes(body)
    if len(body) != 1:
        raise ValueError("SHOW body is one byte")
    return _clan(body[0])


def result_body(clan_id, won, place):
    """RESULT: the seat's clan, whether it won, and its place (1 = first; ties share)."""
    if isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= len(CLANS):
        raise ValueError("place must be 1..5")
    return bytes((_clan(clan_id), 1 if won else 0, place))


def parse_result(body):
    body = _as_bytes(body)
    if len(body) != 3:
        raise ValueError("RESULT body is three bytes")
    if body[1] > 1:
        raise ValueError("RESULT won flag must be 0 or 1")
    if not 1 <= body[2] <= len(CLANS):
        raise ValueError("RESULT place must be 1..5")
    return _clan(body[0]), body[1] == 1, body[2]


def button_body(pressed):
    return b"\x01" if pressed else b"\x00"


def parse_button(body):
    body = _as_bytes(body)
    if len(body) != 1 or body[0] > 1:
        raise ValueError("BUTTON body is one byte, 0 or 1")
    return body[0] == 1


def _random16(now):
    if _getrandbits is not None:
        try:
            return _getrandbits(16)
        except Exception:
            pass
    return (now * 40503) & 0xFFFF


class Link:
    """One end of a connection: sequence numbers, acks, retransmission, heartbeats.
    Same class on host and handheld.

    write(bytes) sends raw bytes (its exceptions propagate to the caller of
    send/receive/tick); now_ms() returns monotonic milliseconds (on MicroPython
    time.ticks_ms: differences go through time.ticks_diff when it exists).
    """

    def __init__(self, write, now_ms):
        self._write = write
        self._now = now_ms
        self.decoder = Decoder()
        now = now_ms()
        self._seq = _random16(now) & 0xFF
        self.session = _random16(now + 1)  # this Link's, for its whole life
        self._session_bytes = bytes((self.session >> 8, self.session & 0xFF))
        self.reset()

    def reset(self):
        """Forget pending messages, duplicate memory and the peer (a new connection).
        alive is False until the peer is heard again. The session stays: the peer sees the
        same program, so it has no reason to think this end restarted."""
        now = self._now()
        self._queue = []  # [seq, frame] of unacked reliable messages, oldest first
        self._sent_at = None  # when the head of the queue was last written
        self._tries = 0  # resends of the head so far
        self._seen = []  # [seq, ms] of recently delivered messages
        self._heard_at = None
        self._since = now
        self._beat_at = None
        self.lost = False  # a reliable message ran out of retries
        self.peer_session = None  # the peer's session, from its ACKs and HEARTBEATs

    @property
    def alive(self):
        """Heard from the peer within TIMEOUT_MS, and no reliable message ran out of retries."""
        if self.lost or self._heard_at is None:
            return False
        return _ticks_diff(self._now(), self._heard_at) < TIMEOUT_MS

    @property
    def silence_ms(self):
        """Milliseconds since the peer was last heard (or since the Link was made or reset)."""
        last = self._since if self._heard_at is None else self._heard_at
        return _ticks_diff(self._now(), last)

    @property
    def pending(self):
        """How many reliable messages are not acked yet."""
        return len(self._queue)

    def send(self, msg_type, body=b"", reliable=True):
        """Send a message; returns its seq. Reliable ones queue behind earlier unacked ones."""
        if not _known_type(msg_type):
            raise ValueError("unknown message type")
        if reliable and msg_type in (ACK, HEARTBEAT):
            raise ValueError("ACKs and HEARTBEATs are never acked: send them unreliable")
        # Heartbeats do not use up sequence numbers.
        seq = self._seq if msg_type == HEARTBEAT else (self._seq + 1) & 0xFF
        frame = encode(msg_type, seq, body)
        self._seq = seq
        if not reliable:
            self._write(frame)
            return seq
        self._queue.append([seq, frame])
        if len(self._queue) == 1 and not self.lost:
            self._transmit(self._now())
        return seq

    def _transmit(self, now):
        self._sent_at = now
        self._write(self._queue[0][1])

    def receive(self, data):
        """Feed raw bytes; returns [(msg_type, body)] of new messages.

        ACKs and HEARTBEATs are consumed (ours echoed back are ignored). Every
        other message is acked; a duplicate of one already delivered is acked
        again but not returned. A HELLO is always delivered and clears the
        duplicate memory (its sender has just started afresh)."""
        out = []
        frames = self.decoder.feed(data)
        if not frames:
            return out
        now = self._now()
        for msg_type, seq, body in frames:
            if msg_type in (ACK, HEARTBEAT):
                session = (body[0] << 8) | body[1] if len(body) == 2 else None
                if session == self.session:
                    continue  # our own frame, echoed
                self._heard_at = now
                if session is not None:
                    if self.peer_session is not None and session != self.peer_session:
                        self._seen = []  # a new peer: its seqs start afresh
                    self.peer_session = session
                if msg_type == ACK:
                    self._acked(seq, now)
                continue
            self._heard_at = now
            self._write(encode(ACK, seq, self._session_bytes))
            if msg_type == HELLO:
                self._seen = []
            elif self._duplicate(seq, now):
                continue
            self._seen.append([seq, now])
            if len(self._seen) > _DUP_KEEP:
                self._seen.pop(0)
            out.append((msg_type, body))
        return out

    def _duplicate(self, seq, now):
        return any(e[0] == seq and _ticks_diff(now, e[1]) < DUP_MS for e in self._seen)

    def _acked(self, seq, now):
        if self.lost or not self._queue or self._queue[0][0] != seq:
            return
        self._queue.pop(0)
        self._tries = 0
        self._sent_at = None
        if self._queue:
            self._transmit(now)

    def tick(self):
        """Resend what is due and send a HEARTBEAT every HEARTBEAT_MS (the first at once)."""
        now = self._now()
        if self._beat_at is None or _ticks_diff(now, self._beat_at) >= HEARTBEAT_MS:
            self._beat_at = now
            self.send(HEARTBEAT, self._session_bytes, False)
        if not self._queue or self.lost:
            return
        if self._sent_at is None:
            self._transmit(now)
        elif _ticks_diff(now, self._sent_at) >= RETRY_MS:
            if self._tries >= MAX_RETRIES:
                self.lost = True
            else:
                self._tries += 1
                self._transmit(now)
