"""The phones' Wi-Fi on the touchscreen: the start screen's button (only when the settings
name a Wi-Fi), the screen it opens (a QR code that joins it, its name and password in
letters), and Back."""

from __future__ import annotations

import pygame
import pytest
import segno

from clans_pi.settings.config import Config
from clans_pi.settings.wifi import Hotspot, wifi_qr_payload
from clans_pi.ui import run
from clans_pi.ui.qr import QUIET
from tests.ui_helpers import BOARD, CHART, act, display_app, offscreen_app, press

HOTSPOT = Hotspot("Clans Pi", "k7qm-x3vt-9bfp-w2hc")


def texts(app) -> set[str]:
    return {d.name for d in app.canvas.records if d.kind == "text"}


def qr_region(app) -> pygame.Rect:
    (rect,) = [d.rect for d in app.canvas.records if d.kind == "region" and d.name == "qr"]
    return rect


def modules_drawn(surface: pygame.Surface, rect: pygame.Rect, size: int) -> list[list[bool]]:
    """The QR code drawn in ``rect`` read back module by module (the pixel at each module's
    centre: dark or not), quiet zone included: ``size`` modules a side."""
    assert rect.width == rect.height and rect.width % size == 0, (rect, size)
    module = rect.width // size
    return [[sum(surface.get_at((rect.left + x * module + module // 2,
                                 rect.top + y * module + module // 2))[:3]) < 3 * 128
             for x in range(size)] for y in range(size)]


def expected_modules(payload: str) -> list[list[bool]]:
    """segno's own matrix of ``payload`` with the quiet zone round it."""
    matrix = segno.make(payload, error="m", micro=False).matrix
    n = len(matrix) + 2 * QUIET
    out = [[False] * n for _ in range(n)]
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            out[y + QUIET][x + QUIET] = bool(dark)
    return out


def test_no_wifi_in_the_settings_means_no_button():
    app, _ = offscreen_app()
    app.start_menu()
    with pytest.raises(KeyError):
        app.screen.button("wifi")


def test_the_button_opens_the_wifi_screen_and_back_returns_to_the_same_start_screen():
    with display_app() as (app, _clock):
        app.wifi = HOTSPOT
        app.start_menu()
        app.pump()
        press(app, "players4")
        start = app.screen
        press(app, "wifi")
        assert app.screen.name == "wifi"
        app.redraw()
        shown = texts(app)
        assert {"Wi-Fi for phones", "Clans Pi", "k7qm-x3vt-9bfp-w2hc", "Network",
                "Password"} <= shown
        paragraph = " ".join(d.name for d in app.canvas.records if d.kind == "paragraph")
        assert paragraph.startswith("Join this Wi-Fi first")
        press(app, "back")
        assert app.screen is start and start.count == 4


def test_escape_goes_back_too():
    app, _ = offscreen_app()
    app.wifi = HOTSPOT
    app.start_menu()
    start = app.screen
    act(start, "wifi")
    app.screen.back()
    assert app.screen is start


@pytest.mark.parametrize("size", [(800, 480), (480, 320), (720, 1280), (1024, 600)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("wifi", [HOTSPOT, Hotspot('Anna\'s; "table", 2:1', 'p\\w;d,:"x"')],
                         ids=["plain", "odd"])
def test_the_code_on_the_screen_is_the_wifis_payload_module_for_module(size, wifi):
    """No QR decoder is at hand here: the drawn code is read back module by module and
    compared with segno's matrix of the standard payload."""
    app, _ = offscreen_app(size)
    app.wifi = wifi
    app.start_menu()
    act(app.screen, "wifi")
    app.redraw()
    payload = wifi_qr_payload(wifi.name, wifi.password)
    want = expected_modules(payload)
    got = modules_drawn(app.surface, qr_region(app), len(want))
    assert got == want
    # The control: another payload's code is not the one drawn.
    assert got != expected_modules(wifi_qr_payload(wifi.name, wifi.password + "!"))
    assert {wifi.name, wifi.password} <= texts(app)
    # Big enough to scan from across the table: at least 3 px a module.
    assert qr_region(app).width // len(want) >= 3


def test_an_open_network_says_it_has_no_password():
    app, _ = offscreen_app()
    app.wifi = Hotspot("Open table", "")
    app.start_menu()
    act(app.screen, "wifi")
    app.redraw()
    assert {"Open table", "none (an open network)"} <= texts(app)
    got = modules_drawn(app.surface, qr_region(app), len(expected_modules(
        "WIFI:T:nopass;S:Open table;;")))
    assert got == expected_modules("WIFI:T:nopass;S:Open table;;")


def test_the_wifi_screen_speaks_the_players_language():
    app, _ = offscreen_app()
    app.set_language("de", remember=False)
    try:
        app.wifi = HOTSPOT
        app.start_menu()
        assert app.screen.button("wifi").label == "WLAN für Telefone"
        act(app.screen, "wifi")
        app.redraw()
        assert {"WLAN für Telefone", "Netzwerk", "Passwort", "Clans Pi"} <= texts(app)
    finally:
        app.set_language("en", remember=False)


def test_the_game_gets_the_wifi_from_the_settings(monkeypatch, tmp_path):
    """clans-pi play: the settings' Wi-Fi (hotspot.toml or [phones]) reaches the app."""
    made = []

    class Recording(run.App):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(run, "App", Recording)
    for config, want in ((Config(wifi_name="Clans Pi", wifi_password="k7qm-x3vt-9bfp-w2hc"),
                          HOTSPOT), (Config(), None)):
        run.play(BOARD, CHART, size=(800, 480), fullscreen=False, rotate=0, seed=1,
                 first_frame_only=True, config=config, state_dir=tmp_path)
        assert made[-1].wifi == want
