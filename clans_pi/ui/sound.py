"""Short, soft sound effects, synthesised at start-up in pure Python (no sound files).

Six sounds, each a few bell- or wood-like tones under an envelope (attack, exponential
decay, a short release so nothing clicks), normalised to a fixed peak well below full scale:

========  =======  ==========================================================
name      length   what it is
========  =======  ==========================================================
tap       35 ms    a quiet tick: a button was pressed
move      120 ms   a soft wooden knock: huts moved
village   250 ms   two rising chimes (G4, C5): a village was founded
strife    400 ms   two low falling tones, slowly beating (A3, F3): huts were removed
epoch     450 ms   three rising chimes (E4, A4, C#5): a new epoch begins
end       600 ms   a four-note arpeggio (C5 E5 G5 C6): the game is over
========  =======  ==========================================================

Secrecy (R22): a sound depends on nothing but the *kind* of the events of a move. No sound
varies with a clan, with how many clans scored, or with which player founded a village;
:meth:`Sounds.for_events` reads only ``type(event)``. The buffers are built once, in
:meth:`Sounds.open`, from the mixer's format alone, so nothing of a game can reach them.

The mixer, from the pygame-ce documentation (docs/reST/ref/mixer.rst, ``pygame.mixer.init``
and ``pygame.mixer.Sound``): ``init(frequency=44100, size=-16, channels=2, buffer=512,
devicename=None, allowedchanges=AUDIO_ALLOW_FREQUENCY_CHANGE | AUDIO_ALLOW_CHANNELS_CHANGE)``.
``size=-16`` asks for signed 16-bit samples; as long as ``AUDIO_ALLOW_FORMAT_CHANGE`` is not
allowed, SDL converts to what the hardware wants and the mixer keeps that format, while the
frequency and the channel count may change to the device's (so they are read back with
``get_init()``). ``buffer`` is in samples: smaller means less lag but, say the docs, sound
may drop out; 512, the default since pygame 2.0, is about 12 ms at 44.1 kHz, quick enough
for a tap, so it is kept. ``Sound(buffer=...)`` takes raw samples in exactly the mixer's
format and copies them; it converts nothing. The docs also say some platforms need the
mixer initialised *after* the display.
"""

from __future__ import annotations

import logging
import math
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate, repeat
from operator import add, mul
from typing import Any

import pygame

from ..rules import (
    EpochChanged,
    Event,
    GameOver,
    Moved,
    Strife,
    VillageFounded,
    VillageScored,
    VillageUnscored,
)

log = logging.getLogger(__name__)

NAMES: tuple[str, ...] = ("move", "village", "strife", "epoch", "end", "tap")

# What a completed move sounds like: the first of these that its events contain.
PRIORITY: tuple[str, ...] = ("end", "strife", "epoch", "village", "move")
KIND: dict[type, str] = {
    GameOver: "end",
    Strife: "strife",
    EpochChanged: "epoch",
    VillageFounded: "village",
    VillageScored: "village",
    VillageUnscored: "village",
    Moved: "move",
}

FREQUENCY = 44100  # asked for; the device may change it (see get_init)
CHANNELS = 2
BUFFER = 512  # samples: ~12 ms of latency at 44.1 kHz
REST_MS = 5000  # silence after which the audio device is closed until the next sound
ATTACK = 0.003  # seconds of linear fade-in of every tone
RELEASE = 0.012  # seconds of linear fade-out at the end of every tone
LOOP = 512  # samples of each tone computed with sin() (see _tone)
SYNTH_RATE = 22050  # made at about this rate, then held (see build)


@dataclass(frozen=True, slots=True)
class Tone:
    """One tone of a sound: ``start`` and ``length`` in seconds, ``freq`` in Hz, decaying
    with time constant ``tau`` seconds; ``partials`` are (frequency multiple, amplitude)."""

    start: float
    freq: float
    length: float
    tau: float
    partials: tuple[tuple[float, float], ...] = ((1.0, 1.0),)


MALLET = ((1.0, 1.0), (2.0, 0.22), (3.0, 0.07))  # soft, bell-like
WOOD = ((1.0, 1.0), (2.76, 0.18), (5.4, 0.05))  # a marimba bar's inharmonic partials


@dataclass(frozen=True, slots=True)
class Spec:
    """A whole sound: its length in seconds, its peak (0..1 of full scale) and its tones."""

    length: float
    peak: float
    tones: tuple[Tone, ...]


SPECS: dict[str, Spec] = {
    "tap": Spec(0.035, 0.16, (Tone(0, 1318.5, 0.035, 0.008),)),
    "move": Spec(0.12, 0.40, (Tone(0, 392.0, 0.12, 0.03, WOOD),)),
    "village": Spec(0.25, 0.45, (
        Tone(0, 392.0, 0.14, 0.05, MALLET),
        Tone(0.07, 523.25, 0.18, 0.06, MALLET),
    )),
    "strife": Spec(0.40, 0.45, (  # each note with a twin 1.5 % sharp: a slow, rough beat
        Tone(0, 220.0, 0.20, 0.08, ((1.0, 1.0), (2.0, 0.25))),
        Tone(0, 223.3, 0.20, 0.08, ((1.0, 0.6),)),
        Tone(0.14, 174.61, 0.26, 0.10, ((1.0, 1.0), (2.0, 0.25))),
        Tone(0.14, 177.23, 0.26, 0.10, ((1.0, 0.6),)),
    )),
    "epoch": Spec(0.45, 0.45, (
        Tone(0, 329.63, 0.29, 0.10, MALLET),
        Tone(0.08, 440.0, 0.29, 0.10, MALLET),
        Tone(0.16, 554.37, 0.29, 0.12, MALLET),
    )),
    "end": Spec(0.60, 0.50, (
        Tone(0, 523.25, 0.60, 0.16, MALLET),
        Tone(0.07, 659.26, 0.53, 0.16, MALLET),
        Tone(0.14, 783.99, 0.46, 0.16, MALLET),
        Tone(0.21, 1046.5, 0.39, 0.18, MALLET),
    )),
}


def samples(seconds: float, rate: float) -> int:
    """How many samples (per channel) ``seconds`` are at ``rate``."""
    return round(seconds * rate)


def _tone(tone: Tone, rate: float) -> list[float]:
    """One tone's samples at ``rate``: its partials, summed, under its envelope.

    Only one loop of about LOOP samples, holding a whole number of cycles of every partial,
    is computed with sin() and the decay; every later loop is a copy of it scaled by one
    number (since the decay is exponential), one C-level pass per sample. Rounding the loop
    to whole samples moves the pitch by at most 1 / (2 * LOOP), under 2 cents, and each
    partial to a whole number of cycles per loop, which timbres tolerate.
    """
    n = samples(tone.length, rate)
    cycles = max(1, round(LOOP * tone.freq / rate))
    length = round(cycles * rate / tone.freq)
    if length >= n:  # shorter than a loop: compute it all, at the exact pitch
        length, steps = n, [2 * math.pi * tone.freq * m / rate for m, _ in tone.partials]
    else:
        steps = [2 * math.pi * round(cycles * m) / length for m, _ in tone.partials]
    loop: Any = None
    for step, (_, amp) in zip(steps, tone.partials, strict=True):
        part = map(mul, map(math.sin, map(mul, range(length), repeat(step))), repeat(amp))
        loop = part if loop is None else map(add, loop, part)
    decay = math.exp(-1.0 / (tone.tau * rate))
    first = list(map(mul, loop, accumulate(repeat(decay, length - 1), mul, initial=1.0)))
    out: list[float] = []
    gain, per_loop = 1.0, decay**length
    while len(out) < n:
        out += map(mul, first, repeat(gain))
        gain *= per_loop
    del out[n:]
    attack = min(n, max(1, samples(ATTACK, rate)))
    out[:attack] = map(mul, out[:attack], (k / attack for k in range(attack)))
    release = min(n, max(1, samples(RELEASE, rate)))
    out[n - release:] = map(mul, out[n - release:], (k / release for k in range(release, 0, -1)))
    return out


def mono(spec: Spec, rate: float, n: int | None = None) -> list[float]:
    """A sound's ``n`` samples (default: its length) at ``rate``, one channel, as floats
    whose peak is ``spec.peak``."""
    n = samples(spec.length, rate) if n is None else n
    buf = [0.0] * n
    for tone in spec.tones:
        at = samples(tone.start, rate)
        wave = _tone(tone, rate)[: n - at]
        buf[at:at + len(wave)] = map(add, buf[at:at + len(wave)], wave)
    top = max(map(abs, buf))
    return list(map(mul, buf, repeat(spec.peak / top)))


# mixer format (as get_init reports it) -> array typecode, full scale, offset (unsigned)
FORMATS: dict[int, tuple[str, float, float]] = {
    -16: ("h", 32767.0, 0.0),
    16: ("H", 32767.0, 32768.5),
    -8: ("b", 127.0, 0.0),
    8: ("B", 127.0, 128.5),
    -32: ("f", 1.0, 0.0),  # size=32 means 32-bit float samples
    32: ("f", 1.0, 0.0),
}


def encode(wave: list[float], fmt: int, channels: int, *, repeat_each: int = 1,
           total: int | None = None) -> bytes:
    """``wave`` (mono floats in -1..1) as raw samples in the mixer's format: native byte
    order, the same sample in each of ``channels`` channels, interleaved. Each sample is
    held for ``repeat_each`` frames (the wave was made at 1/repeat_each of the rate), then
    the result cut to ``total`` frames."""
    if fmt not in FORMATS:
        raise ValueError(f"unsupported mixer format {fmt}")
    if channels < 1:
        raise ValueError(f"bad channel count {channels}")
    code, scale, offset = FORMATS[fmt]
    if code == "f":
        one = array("f", wave)
    elif offset:  # int() truncates toward zero: the +0.5 of the offset rounds instead
        one = array(code, map(int, map(add, map(mul, wave, repeat(scale)), repeat(offset))))
    else:
        one = array(code, map(int, map(mul, wave, repeat(scale))))
    width = channels * repeat_each
    if width > 1:
        out = array(code, one[:1]) * (len(one) * width)
        for slot in range(width):
            out[slot::width] = one
        one = out
    if total is not None:
        del one[total * channels:]
    return one.tobytes()


def build(frequency: int, fmt: int, channels: int) -> dict[str, bytes]:
    """Every sound's raw samples for a mixer that runs at (frequency, fmt, channels).

    The sounds are made at frequency / k, k = frequency // SYNTH_RATE (so at 22.05 to
    44.1 kHz), and each sample is held for k frames. Their partials stay below 3.2 kHz, so
    the hold's images lie above 19 kHz and at least 13 dB down (mostly over 20 dB): out of
    hearing, and it halves the start-up cost at 44.1 or 48 kHz.
    """
    hold = max(1, frequency // SYNTH_RATE)
    out = {}
    for name in NAMES:
        total = samples(SPECS[name].length, frequency)
        wave = mono(SPECS[name], frequency / hold, -(-total // hold))
        out[name] = encode(wave, fmt, channels, repeat_each=hold, total=total)
    return out


def name_for(events: Sequence[Event]) -> str | None:
    """The one sound for a move's events: its most significant kind of event. It reads
    only each event's type, never a field (R22)."""
    kinds = {KIND[type(event)] for event in events if type(event) in KIND}
    return next((name for name in PRIORITY if name in kinds), None)


class Sounds:
    """The game's sound effects; silent (every call does nothing) when sound is off or no
    audio device could be opened. Make one with :meth:`open`; the constructor takes ready
    pygame Sounds (or stand-ins, in tests) by name."""

    def __init__(self, sounds: dict[str, Any] | None = None, *, owns_mixer: bool = False,
                 raw: dict[str, bytes] | None = None, mixer_format: tuple[int, int, int] = (
                     FREQUENCY, -16, CHANNELS), volume: float = 0.6):
        self._sounds: dict[str, Any] = sounds or {}
        self._owns_mixer = owns_mixer
        # To wake the mixer after a rest (see :meth:`rest`): the samples and their format.
        self._raw = raw or {}
        self._format = mixer_format
        self._volume = volume
        self._asleep = False
        self._last_ms: int | None = None

    @classmethod
    def open(cls, enabled: bool = True, volume: float = 0.6) -> Sounds:
        """Open the mixer (unless it is open already) and build the sounds.

        ``enabled`` False gives silent Sounds without touching the audio device. Never
        raises for a missing or failing audio device: it logs one line and stays silent.
        ``volume`` is 0..1 (not percent); outside that is a ValueError.
        """
        if not 0.0 <= volume <= 1.0:
            raise ValueError(f"volume must be 0..1, not {volume!r}")
        if not enabled:
            return cls()
        owns = False
        try:
            if pygame.mixer.get_init() is None:
                pygame.mixer.init(frequency=FREQUENCY, size=-16, channels=CHANNELS,
                                  buffer=BUFFER)
                owns = True
            frequency, fmt, channels = pygame.mixer.get_init()
            raw = build(frequency, fmt, channels)
            sounds = {name: pygame.mixer.Sound(buffer=data) for name, data in raw.items()}
            for sound in sounds.values():
                sound.set_volume(volume)
        except (pygame.error, NotImplementedError, ValueError, OSError) as exc:
            log.warning("no sound: %s", str(exc) or type(exc).__name__)
            if owns:
                pygame.mixer.quit()
            return cls()
        log.info("sound on: %d Hz, format %d, %d channel(s)", frequency, fmt, channels)
        return cls(sounds, owns_mixer=owns, raw=raw, mixer_format=(frequency, fmt, channels),
                   volume=volume)

    @property
    def enabled(self) -> bool:
        """True when sounds really play (also while the device rests between them)."""
        return bool(self._sounds)

    def play(self, name: str) -> None:
        """Play sound ``name`` (one of NAMES); an unknown name is a ValueError."""
        if name not in SPECS:
            raise ValueError(f"no sound named {name!r}; there are {', '.join(NAMES)}")
        if self._asleep:
            self._wake()
        sound = self._sounds.get(name)
        if sound is not None:
            sound.play()
            self._last_ms = None  # :meth:`rest` counts from its next call

    def rest(self, now_ms: int) -> bool:
        """Close the audio device after REST_MS of silence; the next :meth:`play` opens it
        again (about as quick as a frame). Call it every loop turn. An open device keeps
        SDL's audio thread mixing silence every few milliseconds, which is most of an idle
        game's CPU time. Returns True when it closed the device now."""
        if not self._owns_mixer or self._asleep or not self._sounds:
            return False
        if self._last_ms is None:
            self._last_ms = now_ms
            return False
        if now_ms - self._last_ms < REST_MS or pygame.mixer.get_busy():
            return False
        self._sounds = {name: None for name in self._sounds}  # the pygame Sounds go too
        pygame.mixer.quit()
        self._asleep = True
        return True

    def _wake(self) -> None:
        frequency, fmt, channels = self._format
        self._asleep = False
        try:
            pygame.mixer.init(frequency=frequency, size=fmt, channels=channels, buffer=BUFFER)
            if pygame.mixer.get_init() != self._format:
                raise pygame.error(f"the audio device changed to {pygame.mixer.get_init()}")
            self._sounds = {name: pygame.mixer.Sound(buffer=data)
                            for name, data in self._raw.items()}
            for sound in self._sounds.values():
                sound.set_volume(self._volume)
        except (pygame.error, NotImplementedError, ValueError, OSError) as exc:
            log.warning("no sound any more: %s", str(exc) or type(exc).__name__)
            self._sounds = {}
            if pygame.mixer.get_init() is not None:
                pygame.mixer.quit()
            self._owns_mixer = False

    def for_events(self, events: Sequence[Event]) -> str | None:
        """Play the one sound for a completed move's public events (the most significant:
        end, strife, epoch, village, move) and return its name, also when silent; None if
        there is none."""
        name = name_for(events)
        if name is not None:
            self.play(name)
        return name

    def close(self) -> None:
        """Stop sounding; quit the mixer if :meth:`open` opened it. Safe to call twice."""
        self._sounds = {}
        if self._owns_mixer:
            self._owns_mixer = False
            if not self._asleep:
                pygame.mixer.quit()
