"""The app with seat devices: the deal peek on a seat's own device, each device getting only
its own seat's clan (R22), results at the end (R20, R21), clearing for a new game, notices
when a device goes, pairing."""

from __future__ import annotations

import pygame

from clans_pi.hardware.seats import SeatDevices
from tests.ui_helpers import display_app, finish_animation, press


class FakeSeatDevice:
    """Records what the app told it; ``events`` are handed out by the fake poll."""

    def __init__(self) -> None:
        self.clans: list[str | None] = []
        self.results: list[tuple[str, bool, int]] = []
        self.available = True
        self.events: list[str] = []
        self.closed = 0
        self.paired: list[str] = []

    def set_clan(self, clan):
        self.clans.append(clan)

    def show_result(self, clan, won, place=1):
        self.results.append((clan, won, place))

    def poll(self, now):
        out, self.events = self.events, []
        return out

    def handle(self, event):
        return self.poll(0)

    def pair(self, uid):
        self.paired.append(uid)

    def close(self):
        self.closed += 1


class FakeManager:
    def __init__(self) -> None:
        self.events: list[tuple] = []
        self.closed = False

    def poll(self):
        out, self.events = self.events, []
        return out or [("tick",)]

    def connected(self):
        return {"e6614c311b7e5a2f": "1.0.0"}

    def close(self):
        self.closed = True


class FakePairing:
    def __init__(self) -> None:
        self.seats: dict[int, str] = {}

    def uid_of(self, seat):
        return self.seats.get(seat)


def _devices():
    gpio = {0: FakeSeatDevice(), 2: FakeSeatDevice()}
    hand = {1: FakeSeatDevice()}
    return SeatDevices(gpio, hand, FakeManager(), FakePairing()), gpio, hand


def _start(app, players=3):
    app.start_menu()
    app.pump()
    press(app, f"players{players}")
    press(app, "start")


def test_deal_peek_on_a_seat_device_and_only_own_clans():
    devices, gpio, hand = _devices()
    with display_app() as (app, _clock):
        app.table.devices = devices
        _start(app)
        session = app.session
        everyone = {0: gpio[0], 1: hand[1], 2: gpio[2]}
        for seat, dev in everyone.items():
            # R22: each device was given exactly its own seat's clan, nothing else.
            assert dev.clans[-1] == session.private(seat).own_clan
            assert all(c in (None, dev.clans[-1]) for c in dev.clans)
        for seat in range(3):
            screen = app.screen
            assert screen.name == "peek" and screen.seat == seat
            assert screen.device == ("handheld" if seat == 1 else "gpio")
            texts = {d.name for d in app.canvas.records if d.kind == "text"}
            assert not any(c in " ".join(texts).lower() for c in ("red", "blue", "green",
                                                                  "yellow", "black"))
            everyone[seat].events = ["press"]
            app.pump()
            assert app.screen is screen  # still waiting for the release
            everyone[seat].events = ["release"]
            app.pump()
        assert app.screen.name == "play"


def test_a_seat_device_can_be_bypassed_and_a_lost_one_falls_back():
    devices, _gpio, _hand = _devices()
    with display_app() as (app, _clock):
        app.table.devices = devices
        _start(app)
        assert app.screen.device == "gpio"
        press(app, "use_screen")
        assert app.screen.device is None and app.screen.button("hold")
        app.screen.seen = True
        app.screen.layout()
        press(app, "done")
        assert app.screen.seat == 1 and app.screen.device == "handheld"
        app.screen.device_event(1, "lost")
        assert app.screen.device is None


def test_notices_for_trouble_and_results_and_clearing():
    devices, gpio, hand = _devices()
    with display_app() as (app, clock):
        app.table.devices = devices
        _start(app, players=2)
        assert gpio[2].clans[-1] is None  # seat 3 is not playing: it shows nothing
        app.deal_peek(99)  # skip the peeks
        gpio[0].events = ["stuck"]
        app.pump()
        assert app.notice is not None and "Seat 1's button seems stuck" in app.notice[0]
        texts = {d.name for d in app.canvas.records if d.kind in ("text", "paragraph")}
        assert any("seems stuck" in t for t in texts)
        clock.advance(6000)
        app.pump()
        assert app.notice is None
        session = app.session
        while not session.is_over:
            m = session.public().legal_moves[0]
            session.play(m.src, m.dst)
        app.reveal()
        obs = session.public()
        for seat, dev in ((0, gpio[0]), (1, hand[1])):
            p = session.player_of(seat)
            clan, won, place = dev.results[-1]
            assert clan == obs.revealed_clans[p] and won == (p in obs.winners)
            assert place == 1 + sum(s > obs.scores[p] for s in obs.scores)
        press(app, "new_game")
        assert gpio[0].clans[-1] is None and hand[1].clans[-1] is None
    devices.close()
    devices.close()
    assert gpio[0].closed == 1 and devices.manager.closed


def test_pairing_screen_pairs_the_next_button_press():
    devices, _gpio, hand = _devices()
    with display_app() as (app, clock):
        app.table.devices = devices
        app.start_menu()
        app.pump()
        press(app, "pair")
        assert app.screen.name == "pair"
        texts = " ".join(d.name for d in app.canvas.records if d.kind in ("text", "paragraph"))
        assert "Seat 2" in texts and "press the button on your handheld" in texts
        devices.manager.events = [("button", "e6614c311b7e5a2f", True)]
        app.pump()
        assert hand[1].paired == ["e6614c311b7e5a2f"]
        assert app.screen.index == 1
        press(app, "finish")
        assert app.screen.name == "start"
        finish_animation(app, clock)
        assert pygame.display.get_surface() is not None


def test_a_foreign_device_is_a_notice_not_a_crash():
    devices, _gpio, _hand = _devices()
    devices.manager.events = [("foreign", "/dev/ttyACM3")]
    assert devices.poll(0) == []
    assert devices.take_notices() == [
        "/dev/ttyACM3 looks like a Pico but is not a Clans handheld (flash it: "
        "firmware/README.md)"]
