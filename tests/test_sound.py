"""Sound effects: the right bytes for every mixer format, silence when off or when there is
no audio device, and (R22) a sound that depends on the kinds of a move's events only."""

from __future__ import annotations

import logging
from array import array
from itertools import pairwise

import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clans_pi.rules.constants import CLANS
from clans_pi.rules.events import (
    EpochChanged,
    GameOver,
    Moved,
    Strife,
    VillageFounded,
    VillageScored,
    VillageUnscored,
)
from clans_pi.ui import sound
from clans_pi.ui.sound import NAMES, SPECS, Sounds

# (frequency, format, channels) as pygame.mixer.get_init() reports them
FORMATS = [
    (44100, -16, 2), (48000, -16, 2), (44100, -16, 1), (22050, -16, 1), (22050, -16, 2),
    (11025, -16, 1), (96000, -16, 2), (44100, -16, 6),
    (44100, 16, 2), (44100, -8, 1), (44100, 8, 2), (44100, -32, 2), (48000, 32, 1),
]  # fmt: skip
DECODE = {-16: ("h", 32767, 0), 16: ("H", 32767, 32768), -8: ("b", 127, 0),
          8: ("B", 127, 128), -32: ("f", 1.0, 0), 32: ("f", 1.0, 0)}  # fmt: skip


def decode(raw: bytes, fmt: int, channels: int) -> list[list[float]]:
    """Raw mixer samples back to one list of floats (-1..1) per channel."""
    code, scale, offset = DECODE[fmt]
    values = array(code, raw)
    return [[(v - offset) / scale for v in values[c::channels]] for c in range(channels)]


@pytest.fixture
def dummy_audio(monkeypatch):
    """A real mixer on SDL's dummy audio driver, quit again afterwards."""
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    pygame.mixer.quit()
    yield
    pygame.mixer.quit()


class FakeSound:
    """Stands in for pygame.mixer.Sound: counts plays."""

    def __init__(self, name: str, plays: list[str]) -> None:
        self.name, self.plays = name, plays

    def play(self) -> None:
        self.plays.append(self.name)


def spy() -> tuple[Sounds, list[str]]:
    plays: list[str] = []
    return Sounds({name: FakeSound(name, plays) for name in NAMES}), plays


# ---------------------------------------------------------------- the sounds themselves


def test_every_name_has_a_short_sound() -> None:
    assert set(SPECS) == set(NAMES) and len(NAMES) == len(set(NAMES))
    assert all(spec.length <= 0.6 for spec in SPECS.values())
    # the frequent ones are the shortest
    assert all(SPECS[name].length <= 0.25 for name in ("tap", "move", "village"))
    for spec in SPECS.values():
        assert all(t.start + t.length <= spec.length + 1e-9 for t in spec.tones)
    assert SPECS["tap"].peak < min(s.peak for n, s in SPECS.items() if n != "tap")


@pytest.mark.parametrize(("frequency", "fmt", "channels"), FORMATS)
def test_buffers_fit_the_mixer_format(frequency: int, fmt: int, channels: int) -> None:
    width = abs(fmt) // 8
    built = sound.build(frequency, fmt, channels)
    assert set(built) == set(NAMES)
    for name, raw in built.items():
        spec = SPECS[name]
        frames = round(spec.length * frequency)
        assert len(raw) == frames * channels * width, name
        waves = decode(raw, fmt, channels)
        assert all(w == waves[0] for w in waves), f"{name}: the channels differ"
        wave = waves[0]
        peak = max(map(abs, wave))
        assert peak > 0.1, f"{name} is silent"
        assert peak <= spec.peak + 0.01 < 0.95, f"{name} is too loud or clips"
        # starts and ends at (near) zero: no click
        assert max(map(abs, wave[:2])) < 0.02 and max(map(abs, wave[-2:])) < 0.02, name


def test_the_sounds_differ_and_are_the_same_every_time() -> None:
    built = sound.build(44100, -16, 2)
    assert len(set(built.values())) == len(NAMES)
    assert sound.build(44100, -16, 2) == built


def test_tones_have_their_pitch() -> None:
    """Counting zero crossings of a lone tone (one partial) gives its frequency."""
    tone = sound.Tone(0, 440.0, 0.5, 10.0)
    wave = sound._tone(tone, 22050)
    crossings = sum(1 for a, b in pairwise(wave) if a < 0 <= b)
    assert crossings == pytest.approx(440 * 0.5, abs=1.5)


def test_unknown_mixer_formats_are_refused() -> None:
    with pytest.raises(ValueError, match="format"):
        sound.encode([0.0, 0.5], 24, 2)
    with pytest.raises(ValueError, match="channel"):
        sound.encode([0.0, 0.5], -16, 0)


# ---------------------------------------------------------------- which sound for a move


def test_the_most_significant_event_chooses_the_sound() -> None:
    moved = Moved(0, 1, 2, 3, 4)
    founded = VillageFounded(2, 0, 1, 0)
    scored = VillageScored(2, 3, ("red",), "neutral")
    strife = Strife(2, ("blue",))
    epoch = EpochChanged(2)
    over = GameOver("twelfth_village", ("red", "blue"), (10, 9), (0,))
    sounds, plays = spy()
    cases = [
        ([], None),
        ([moved], "move"),
        ([moved, founded, scored], "village"),
        ([moved, VillageScored(2, 0, (), "hostile")], "village"),
        ([moved, founded, strife, scored], "strife"),
        ([moved, founded, scored, epoch], "epoch"),
        ([moved, founded, strife, scored, epoch], "strife"),
        ([moved, founded, scored, VillageUnscored(5), over], "end"),
        ([moved, over], "end"),
    ]
    for events, expected in cases:
        assert sounds.for_events(events) == expected, events
    assert plays == [name for _, name in cases if name is not None]


PLAYERS = st.integers(0, 3)
SMALL = st.integers(0, 60)
CLAN_TUPLES = st.lists(st.sampled_from(CLANS), max_size=5, unique=True).map(tuple)
EVENTS = st.one_of(
    st.builds(Moved, PLAYERS, SMALL, SMALL, st.integers(1, 20), st.integers(1, 40)),
    st.builds(VillageFounded, SMALL, st.integers(0, 11), st.integers(1, 6), PLAYERS),
    st.builds(Strife, SMALL, CLAN_TUPLES),
    st.builds(VillageScored, SMALL, st.integers(0, 30), CLAN_TUPLES,
              st.sampled_from(("favourable", "neutral", "hostile"))),
    st.builds(VillageUnscored, SMALL),
    st.builds(EpochChanged, st.integers(1, 6)),
    st.builds(GameOver, st.sampled_from(("twelfth_village", "no_moves")),
              st.lists(st.sampled_from(CLANS), min_size=2, max_size=4, unique=True).map(tuple),
              st.lists(st.integers(0, 99), min_size=2, max_size=4).map(tuple),
              st.lists(PLAYERS, min_size=1, max_size=4, unique=True).map(tuple)),
)
# the same kind of event with every field, clans and players first, fixed
CANON = {
    Moved: Moved(0, 0, 1, 1, 1),
    VillageFounded: VillageFounded(0, 0, 1, 0),
    Strife: Strife(0, ()),
    VillageScored: VillageScored(0, 0, (), "neutral"),
    VillageUnscored: VillageUnscored(0),
    EpochChanged: EpochChanged(1),
    GameOver: GameOver("no_moves", (), (), ()),
}
# independent of the module's own table: what each kind of event sounds like
EXPECTED_KIND = {Moved: "move", VillageFounded: "village", VillageScored: "village",
                 VillageUnscored: "village", Strife: "strife", EpochChanged: "epoch",
                 GameOver: "end"}  # fmt: skip
RANK = ("end", "strife", "epoch", "village", "move")


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(EVENTS, max_size=8), st.lists(EVENTS, max_size=8))
def test_r22_the_sound_depends_on_the_kinds_of_events_only(events, others) -> None:
    """Whatever the clans in the events (who scored, who lost a hut, how many, whose
    village), the sound, and the Sound object played, follow from the events' types."""
    sounds, plays = spy()
    name = sounds.for_events(events)
    kinds = {EXPECTED_KIND[type(e)] for e in events}
    assert name == next((k for k in RANK if k in kinds), None)
    assert sounds.for_events([CANON[type(e)] for e in events]) == name
    # any other events of the same kinds, in any order, sound the same
    same_kinds = [CANON[type(e)] for e in reversed(events)] + [
        e for e in others if type(e) in {type(x) for x in events}]
    assert sounds.for_events(same_kinds) == name
    assert plays == ([name] * 3 if name else [])


# ---------------------------------------------------------------- silent Sounds


def test_disabled_sounds_touch_no_device_and_play_nothing(monkeypatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(pygame.mixer, "init", lambda *a, **k: calls.append("init"))
    monkeypatch.setattr(pygame.mixer, "Sound", lambda *a, **k: calls.append("Sound"))
    sounds = Sounds.open(enabled=False)
    assert not sounds.enabled
    for name in NAMES:
        sounds.play(name)
    assert sounds.for_events([Moved(0, 1, 2, 1, 2)]) == "move"  # named, not played
    sounds.close()
    assert calls == []


def test_no_audio_device_means_silence_not_a_crash(monkeypatch, caplog) -> None:
    def no_device(*args, **kwargs):
        raise pygame.error("ALSA: Couldn't open audio device: No such file or directory")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    with caplog.at_level(logging.INFO, logger="clans_pi.ui.sound"):
        sounds = Sounds.open()
    assert not sounds.enabled
    assert [r.levelno for r in caplog.records] == [logging.WARNING]
    assert "audio device" in caplog.records[0].getMessage()
    sounds.play("village")
    assert sounds.for_events([Strife(3, ("red",))]) == "strife"
    sounds.close()


def test_unknown_names_are_a_programming_error() -> None:
    for sounds in (Sounds(), spy()[0]):
        with pytest.raises(ValueError, match="no sound named 'boom'"):
            sounds.play("boom")


def test_volume_is_a_fraction(dummy_audio) -> None:
    with pytest.raises(ValueError, match=r"0\.\.1"):
        Sounds.open(volume=60)
    assert pygame.mixer.get_init() is None


# ---------------------------------------------------------------- a real (dummy) mixer


def test_open_plays_and_close_quits_the_mixer_it_opened(dummy_audio) -> None:
    sounds = Sounds.open(volume=0.5)
    assert sounds.enabled
    frequency, fmt, channels = pygame.mixer.get_init()
    assert fmt == -16
    for name in NAMES:
        raw = sounds._sounds[name].get_raw()
        assert len(raw) == round(SPECS[name].length * frequency) * channels * 2
        assert sounds._sounds[name].get_volume() == pytest.approx(0.5, abs=0.01)
        sounds.play(name)
    assert sounds.for_events([Moved(0, 1, 2, 1, 2), EpochChanged(2)]) == "epoch"
    sounds.close()
    assert not sounds.enabled and pygame.mixer.get_init() is None
    sounds.close()  # twice is fine


@pytest.mark.parametrize("channels", [1, 2])
def test_mono_and_stereo_mixers(dummy_audio, channels: int) -> None:
    """A mixer opened elsewhere is used as it is, and left open."""
    pygame.mixer.init(frequency=22050, size=-16, channels=channels, allowedchanges=0)
    assert pygame.mixer.get_init() == (22050, -16, channels)
    sounds = Sounds.open()
    assert sounds.enabled
    for name in NAMES:
        made = sounds._sounds[name]
        # pygame measures a Sound in the mixer's format: right bytes, right length
        assert made.get_length() == pytest.approx(SPECS[name].length, abs=0.001)
        assert len(made.get_raw()) == round(SPECS[name].length * 22050) * channels * 2
    sounds.close()
    assert pygame.mixer.get_init() == (22050, -16, channels)


def test_other_sample_formats_of_a_mixer_opened_elsewhere(dummy_audio) -> None:
    pygame.mixer.init(frequency=44100, size=32, channels=2)
    _, fmt, channels = pygame.mixer.get_init()
    sounds = Sounds.open()
    assert sounds.enabled
    end = sounds._sounds["end"]
    assert end.get_length() == pytest.approx(SPECS["end"].length, abs=0.001)
    wave = decode(end.get_raw(), fmt, channels)[0]
    assert 0.1 < max(map(abs, wave)) <= SPECS["end"].peak + 0.01


def test_a_failure_after_opening_the_mixer_closes_it(dummy_audio, monkeypatch, caplog) -> None:
    def broken(*args, **kwargs):
        raise pygame.error("out of memory")

    monkeypatch.setattr(pygame.mixer, "Sound", broken)
    sounds = Sounds.open()
    assert not sounds.enabled
    assert pygame.mixer.get_init() is None
    assert "out of memory" in caplog.text


def test_the_app_sounds_a_move_by_touch_and_each_tap() -> None:
    """The play screen: a tap ticks; a move, once made, plays the sound of its public
    events (the one sound `for_events` picks)."""
    import random

    from clans_pi.session import Seat, Session
    from tests.ui_helpers import BOARD, CHART, display_app, finish_animation, tap, territory_point

    heard: list[str] = []
    silent = Sounds.open(enabled=False)
    silent.play = heard.append  # type: ignore[method-assign]
    picked: list[str | None] = []
    choose = silent.for_events
    silent.for_events = lambda events: picked.append(choose(events))  # type: ignore
    with display_app() as (app, clock):
        app.sounds = silent
        session = Session.new([Seat("Ada"), Seat("Bo")], BOARD, CHART, random.Random(2))
        app.begin(session, peeks=False)
        app.pump()
        move = session.public().legal_moves[0]
        tap(app, territory_point(app, move.src))
        assert heard == ["tap"] and picked == []
        tap(app, territory_point(app, move.dst))
        finish_animation(app, clock)
        assert session.public().ply == 1 and picked == ["move"]
        assert heard == ["tap", "tap", "move"]


def test_the_audio_device_rests_after_silence_and_wakes_for_the_next_sound() -> None:
    """An idle game closes the device (SDL's audio thread would mix silence all the time)
    and opens it again, same format, for the next sound."""
    assert pygame.mixer.get_init() is None
    sounds = Sounds.open(volume=0.5)
    try:
        fmt = pygame.mixer.get_init()
        assert sounds.rest(1000) is False  # the silence starts being counted now
        assert sounds.rest(1000 + sound.REST_MS - 1) is False
        assert sounds.rest(1000 + sound.REST_MS) is True
        assert pygame.mixer.get_init() is None and sounds.enabled
        assert sounds.rest(99_999) is False  # already resting
        sounds.play("tap")
        assert pygame.mixer.get_init() == fmt
        assert sounds._sounds["tap"].get_volume() == pytest.approx(0.5, abs=0.01)
        assert sounds.rest(200_000) is False  # counting again from the sound
    finally:
        sounds.close()
    assert pygame.mixer.get_init() is None


def test_a_device_that_cannot_be_opened_again_leaves_the_game_silent(monkeypatch, caplog):
    sounds = Sounds.open()
    sounds.rest(0)
    assert sounds.rest(sound.REST_MS)

    def refuse(*args, **kwargs):
        raise pygame.error("Audio device not available")

    monkeypatch.setattr(pygame.mixer, "init", refuse)
    sounds.play("move")  # no exception
    assert not sounds.enabled
    assert [r.getMessage() for r in caplog.records if r.levelname == "WARNING"] == [
        "no sound any more: Audio device not available"]
    sounds.play("move")
    sounds.close()
