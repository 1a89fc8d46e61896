"""Choosing Phone on the start screen: a person's seat button goes Person, Person:
phone, then the computers; the deal's peek for that seat shows its code; the server listens
only while some seat is a phone; a resumed game's phone seats come back with their links."""

from __future__ import annotations

import socket

from clans_pi.hardware.seats import SeatDevices
from clans_pi.saving.store import GameStore
from clans_pi.session import Seat
from clans_pi.settings.config import Config
from clans_pi.table.players import ComputerPlayers
from tests.ui_helpers import BOARD, CHART, act, offscreen_app, random_session


def _devices(**seats: str) -> SeatDevices:
    config = Config()
    config.listen = ("127.0.0.1", 0)
    for seat, kind in seats.items():
        config.seats[int(seat.removeprefix("s"))] = kind
    return SeatDevices.open(config)


def _app(devices: SeatDevices, *, bots: bool = True):
    app, clock = offscreen_app()
    app.table.devices = devices
    if bots:
        app.table.bots = ComputerPlayers(BOARD, CHART, 1.0, seed=1, workers=1)
    app.start_menu()
    return app, clock


def _label(app, name: str) -> str:
    return app.screen.button(name).label


def test_a_person_s_seat_button_goes_person_phone_then_the_computers():
    devices = _devices()
    try:
        app, _clock = _app(devices)
        assert _label(app, "kind0") == "Person"
        act(app.screen, "kind0")
        assert _label(app, "kind0") == "Person: phone"
        assert devices.phones is None  # nothing listens before the game starts
        act(app.screen, "kind0")
        assert _label(app, "kind0") == "Computer: Easy"
        assert not app.screen.is_phone(0)  # a computer never has a phone (R22)
        for _ in range(3):
            act(app.screen, "kind0")
        assert _label(app, "kind0") == "Person"
    finally:
        devices.close()


def test_without_computers_the_button_still_offers_the_phone():
    devices = _devices()
    try:
        app, _clock = _app(devices, bots=False)
        act(app.screen, "kind1")
        assert _label(app, "kind1") == "Person: phone"
        act(app.screen, "kind1")
        assert _label(app, "kind1") == "Person"
    finally:
        devices.close()


def test_without_seat_devices_nothing_is_offered():
    app, _clock = offscreen_app()
    app.start_menu()
    assert not app.screen.has_kinds or _label(app, "kind0") != "Person: phone"
    assert not app.screen.phones_offered


def test_the_settings_phone_seats_are_chosen_at_first():
    devices = _devices(s2="phone")
    try:
        app, _clock = _app(devices)
        assert _label(app, "kind1") == "Person: phone" and _label(app, "kind0") == "Person"
    finally:
        devices.close()


def test_a_phone_chosen_on_the_start_screen_serves_that_seat_only_during_its_game():
    devices = _devices()
    try:
        app, _clock = _app(devices)
        act(app.screen, "players2")
        act(app.screen, "kind1")  # Ben's seat: a phone
        act(app.screen, "start")
        assert devices.phones is not None and sorted(devices.phone_seats) == [1]
        url = devices.phone_url(1)
        assert url is not None and devices.phone_url(0) is None
        port = devices.phones.port
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass  # it listens
        # Seat 1 peeks on the screen; seat 2's peek shows its phone's code.
        assert app.screen.name == "peek" and app.screen.seat == 0
        assert app.screen.device is None
        act(app.screen, "hold", True)
        act(app.screen, "hold", False)
        app.screen.seen = True
        app.screen.layout()
        act(app.screen, "done")
        assert app.screen.name == "peek" and app.screen.seat == 1
        assert app.screen.device == "phone"
        app.redraw()
        assert "qr" in {d.name for d in app.canvas.records if d.kind == "region"}
        # The clan the phone would show is that seat's own (R22).
        assert devices.phones.clans[1] == app.session.private(1).own_clan
        # Back to the menu; the next game has no phone: the server stops listening.
        app.start_menu()
        assert _label(app, "kind1") == "Person: phone"  # the last game's choice
        for _ in range(4):  # Easy, Normal, Hard, Person
            act(app.screen, "kind1")
        assert _label(app, "kind1") == "Person"
        act(app.screen, "start")
        assert devices.phones is None and devices.phone_seats == {}
        try:
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
            listening = True
        except OSError:
            listening = False
        assert not listening
    finally:
        devices.close()


def test_a_computer_seat_is_never_made_a_phone():
    devices = _devices()
    try:
        app, _clock = offscreen_app()
        app.table.devices = devices
        app.table.new_game([Seat("Anna"), Seat("Owl (Easy)", "owl", "easy")], phones={0, 1})
        assert sorted(devices.phone_seats) == [0]
        assert devices.phones.clans.get(1) is None
    finally:
        devices.close()


def test_a_resumed_game_s_phone_seats_come_back_with_their_links(tmp_path):
    """A power cut: the Pi starts again with no phone in the settings; the saved game's
    phone seat is a phone again and its old QR code works."""
    first = _devices()
    session = random_session(3, moves=4)
    try:
        first.use_phones([2])
        first.deal(session)
        link = first.phones.hub.tokens.tokens[2]
        GameStore(tmp_path).save(session)
    finally:
        first.close()
    resumed, problems = GameStore(tmp_path).load(BOARD, CHART)
    assert problems == [] and resumed is not None
    again = _devices()
    try:
        assert again.phones is None
        again.deal(resumed)
        assert sorted(again.phone_seats) == [2] and again.peek_kind(2) == "phone"
        assert again.phones.hub.tokens.seat_of(link) == 2
    finally:
        again.close()


def test_a_phone_that_cannot_be_served_leaves_its_seat_on_the_screen():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        config = Config()
        config.listen = ("127.0.0.1", taken.getsockname()[1])
        devices = SeatDevices.open(config)
        try:
            devices.use_phones([0])
            assert devices.phone_seats == {} and devices.peek_kind(0) is None
            notices = devices.take_notices()
            assert len(notices) == 1 and "cannot be served" in notices[0]
        finally:
            devices.close()
