"""Faults of what the touchscreen draws: a phone seat's link under its QR code, the charts of
how well each player hid (the replay's strip, the large chart), the take-back question."""

from __future__ import annotations

import pygame
import pytest

from clans_pi.ui.screens.peek import PeekScreen
from tests.faults import fault
from tests.ui_helpers import offscreen_app, random_session

SIZES = [(800, 480), (480, 320), (720, 1280), (1280, 720)]
#: A seat's link as the table serves it: the host, the port, and a token of
#: ``secrets.token_urlsafe(16)`` (22 characters; the second of the widest letters).
LINKS = [
    "http://raspberrypi.local:8080/p/q3Jx-7LbVf_Z0aKpT2mWcA",
    "http://raspberrypi.local:8080/p/MWmwMWmwMWmwMWmwMWmwMW",
    "http://192.168.178.123:8080/p/q3Jx-7LbVf_Z0aKpT2mWcA",
]


class _Phones:
    """Seat devices as the peek asks them: seat 1 is a phone with ``url``."""

    def __init__(self, url: str) -> None:
        self.url = url

    def phone_url(self, seat: int) -> str | None:
        return self.url if seat == 1 else None


def _phone_peek(size: tuple[int, int], url: str):
    app, _clock = offscreen_app(size)
    app.table.session = random_session(3, moves=0)
    app.table.devices = _Phones(url)  # type: ignore[assignment]
    screen = PeekScreen(app, app.table.session, 1, done=lambda: None, deal=True,
                        device="phone")
    app.show(screen)
    app.full = True
    app.redraw()
    return app, screen


@fault("display", "a phone seat's link under its QR code cut at the card's edge "
       "('raspberrypi.local:8080/p/w')",
       sees="the whole link, over two or three lines where it is long, at a size one reads",
       kept="the seat's link and its QR code")
@pytest.mark.parametrize("url", LINKS)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_phone_seat_s_link_is_drawn_whole(size, url):
    app, screen = _phone_peek(size, url)
    link = url.removeprefix("http://")
    card = screen.hold_rect
    qr = next(d.rect for d in app.canvas.records if d.kind == "region" and d.name == "qr")
    parts = [d for d in app.canvas.records if d.kind == "text" and d.name and d.name in link]
    assert "".join(d.name for d in parts) == link, [d.name for d in parts]
    for d in parts:
        assert d.fits, (d.name, d.rect, d.box)
        assert card.contains(d.rect), (d.name, d.rect, card)
        assert not d.rect.colliderect(qr), (d.name, d.rect, qr)
        assert d.height >= pygame.font.Font(None, app.canvas.least_px).get_height() - 1


def test_a_link_is_cut_after_a_slash_then_a_dot_or_colon_then_anywhere():
    from clans_pi.ui.canvas import text_width, wrap_link

    link = "raspberrypi.local:8080/p/q3Jx-7LbVf_Z0aKpT2mWcA"
    assert wrap_link(link, 18, 1000) == [link]
    wide = text_width("raspberrypi.local:8080/p/q3J", 18)
    assert wrap_link(link, 18, wide) == ["raspberrypi.local:8080/p/", "q3Jx-7LbVf_Z0aKpT2mWcA"]
    host = text_width("raspberrypi.local:80", 18)
    assert wrap_link(link, 18, host)[:2] == ["raspberrypi.local:", "8080/p/"]
    halves = max(text_width("q3Jx-7LbVf_", 18), text_width("Z0aKpT2mWcA", 18))
    assert wrap_link(link, 18, halves)[-2:] == ["q3Jx-7LbVf_", "Z0aKpT2mWcA"]  # not 20 and 2
    assert "".join(wrap_link(link, 18, 1)) == link  # a letter a line: still whole
