"""A private peek: "Only Anna looks now", press and hold to see her clan, let go to hide it.

The only screen that shows a clan before the end, and only while one seat's button is held.
The clan comes from that seat's own view (:meth:`Session.private`), never the full state;
when nothing is held the picture is the same whatever the clan is (R22). While held the
screen goes dark but for a small swatch of the clan (its colour, mark and name) that the
one person at arm's length reads and the table across does not; a look counts as seen only
when held at least :data:`SEEN_MS`, so a quick tap confirms nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from ...i18n import _
from ...session import Session
from ..canvas import Canvas
from ..icons import draw_eye, hut_icon
from ..layout import centered
from ..panel import draw_avatar
from ..qr import qr_surface
from ..theme import BG, CARD, SELECT, TEXT, TEXT_DIM
from ..widgets import Button
from .base import Screen

if TYPE_CHECKING:
    from .base import Host

#: How long (ms) the card must be held for the look to count (the deal's confirmation).
SEEN_MS = 500
#: The held peek's screen: dark, so that nothing but the small swatch is lit.
DARK = (6, 6, 8)


def draw_only_you(screen: Screen, canvas: Canvas, name: str, title: pygame.Rect,
                  sub: pygame.Rect) -> None:
    """The private screens' heading (the peek, the hint): who alone looks now, and that
    everyone else looks away."""
    canvas.text(_("Only {name} looks now").format(name=name), title, screen.px(38), TEXT)
    canvas.text(_("Pass the screen to {name}. Everyone else, look away.").format(name=name),
                sub, screen.px(20), TEXT_DIM)


def draw_closed_card(screen: Screen, canvas: Canvas, r: pygame.Rect, text: str, *,
                     radius: int, eye_side: int) -> None:
    """The private screens' card ``r`` while nothing is held: a closed eye and ``text``
    (what holding it shows)."""
    canvas.box(r, CARD, radius=radius, border=SELECT)
    eye = centered(r, eye_side, eye_side)
    eye.centery = r.top + round(r.height * 0.4)
    draw_eye(canvas.surface, eye, TEXT, closed=True)
    line = pygame.Rect(r.left + 8, r.top + round(r.height * 0.68), r.width - 16,
                       round(r.height * 0.16))
    canvas.text(text, line, screen.px(22), TEXT)


class PeekScreen(Screen):
    name = "peek"

    def __init__(self, app: Host, session: Session, seat: int, *, done: Callable[[], None],
                 deal: bool, device: str | None = None) -> None:
        super().__init__(app)
        self.session = session
        self.seat = seat
        self.done = done
        self.deal = deal
        self.holding = False
        self.held_since: int | None = None  # app clock when the card was pressed
        self.seen = not deal  # during the deal, confirming needs one look first
        # During the deal a seat with its own device looks there: its button shows the clan
        # on the seat's LED or handheld, and letting go confirms. The screen shows no clan.
        self.device = device
        self.device_down = False
        self.phone_ready = False  # the seat's phone has its page open

    def layout(self) -> None:
        w, h = self.size
        u, pad = self.unit, self.px(10)
        portrait = h > w
        self.title = pygame.Rect(pad, pad, w - 2 * pad, round(u * 1.1))
        self.sub = pygame.Rect(pad, self.title.bottom, w - 2 * pad, round(u * 0.7))
        top = self.sub.bottom + pad
        bottom = h - u - 2 * pad
        side = min(round((bottom - top) * (0.8 if portrait else 1)), round(w * 0.6))
        wide = round(side * 1.5)
        if self.device == "phone":
            # The code, and beside it what to do and the link in letters: wider, leaving
            # room for the seat's picture at the left.
            wide = max(wide, min(round(side * 2), w - 2 * (round(u * 1.6) + 2 * pad)))
        self.hold_rect = centered(pygame.Rect(0, top, w, bottom - top), wide, side)
        self.avatar = pygame.Rect(self.hold_rect.left - round(u * 1.6) - pad,
                                  self.hold_rect.top, round(u * 1.6), round(u * 1.6))
        if self.avatar.left < pad:
            self.avatar = pygame.Rect(0, 0, 0, 0)
        label = _("I have seen my clan") if self.deal else _("Back to the board")
        done = centered(pygame.Rect(0, bottom + pad, w, u), round(min(w - 2 * pad, 340 *
                                                                         self.scale)), u)
        if self.device is not None:
            self.buttons = [Button("use_screen", done, _("Use the screen instead"),
                                   self._use_screen, px=self.px(20))]
            return
        self.buttons = [
            Button("hold", self.hold_rect, "", self._hold, hold=True),
            Button("done", done, label, self._done, enabled=self.seen, style="primary",
                   px=self.px(22)),
        ]

    def _hold(self, down: bool) -> None:
        self.holding = down
        self.partial = None  # the whole screen goes dark, or comes back
        now = self.app.clock()
        if down:
            self.held_since = now
            return
        looked = self.held_since is not None and now - self.held_since >= SEEN_MS
        self.held_since = None
        if looked and not self.seen:
            self.seen = True
            self.layout()

    def _use_screen(self) -> None:
        self.device = None
        self.layout()

    def device_event(self, seat: int, kind: str) -> None:
        """The seat's button: pressed shows the clan on its device; let go confirms. A
        phone: "ready" once its page is open, "seen" when its player confirmed there."""
        if self.device is None or seat != self.seat:
            return
        if self.device == "phone":
            if kind == "ready":
                self.phone_ready = True
            elif kind == "seen":
                self._done()
            return
        if kind == "press":
            self.device_down = True
        elif kind == "release" and self.device_down:
            self.device_down = False
            self._done()
        elif kind == "lost":
            self._use_screen()

    def guide_ready(self) -> bool:
        """The deal's peek, before anybody holds the button (the guide explains the secret
        first); never a peek during the game."""
        return self.deal and not self.holding and not self.device_down

    def _done(self) -> None:
        self.holding = False
        self.done()

    def back(self) -> None:
        if not self.deal:
            self._done()

    def draw(self, canvas: Canvas) -> None:
        if self.holding and self.device is None:
            canvas.fill(DARK)
            canvas.target("hold", self.hold_rect)
            self._draw_clan(canvas, self.hold_rect)
            return
        canvas.fill(BG)
        seat = self.session.seats[self.seat]
        draw_only_you(self, canvas, seat.name, self.title, self.sub)
        if self.avatar.width:
            draw_avatar(canvas, seat, self.seat, self.avatar)
        if self.device is not None:
            self._draw_device(canvas, seat.name)
            return
        self.buttons[1].draw(canvas)
        r = self.hold_rect
        canvas.target("hold", r)
        draw_closed_card(self, canvas, r, _("Press and hold to see your clan"),
                         radius=r.height // 8, eye_side=r.height // 2)

    def _draw_phone(self, canvas: Canvas, name: str) -> None:
        """The seat's phone: its link as a QR code and in letters, and what to do there.
        The link is the seat's, not a secret of the game: it shows no clan (R22)."""
        r = self.hold_rect
        canvas.box(r, CARD, radius=r.height // 8, border=SELECT)
        devices = self.app.devices
        url = devices.phone_url(self.seat) if devices is not None else None
        if url is None:
            return
        inner = r.inflate(-r.height // 8, -r.height // 8)
        code = qr_surface(url, inner.height)
        at = code.get_rect(midleft=(inner.left, inner.centery))
        canvas.surface.blit(code, at)
        canvas.region("qr", at)
        gap = self.px(12)
        text = pygame.Rect(at.right + gap, inner.top, inner.right - at.right - gap,
                           inner.height)
        # The link whole, for whoever cannot scan it (its lines at the bottom, up to half
        # the room); what to do above it.
        link = canvas.link(url.removeprefix("http://"),
                           pygame.Rect(text.left, text.centery, text.width, text.height // 2),
                           self.px(20), TEXT, valign="bottom")
        words = pygame.Rect(text.left, text.top, text.width, link.top - gap // 2 - text.top)
        say = (_("{name}'s phone is ready: hold the button there to see your clan, then "
                 "confirm there") if self.phone_ready else
               _("{name}: scan this with your phone's camera, then hold the button on the "
                 "page to see your clan")).format(name=name)
        canvas.paragraph(say, words, self.px(22), TEXT, align="left")

    def _draw_device(self, canvas: Canvas, name: str) -> None:
        if self.device == "phone":
            self._draw_phone(canvas, name)
            self.buttons[0].draw(canvas)
            return
        r = self.hold_rect
        canvas.box(r, CARD, radius=r.height // 8, border=SELECT)
        if self.device_down:
            text = _("Let go when you have seen it")
        elif self.device == "gpio":
            text = _("{name}: press and hold your seat's button to see your clan on "
                     "it").format(name=name)
        else:
            text = _("{name}: press and hold the button of your handheld to see your clan on "
                     "it").format(name=name)
        canvas.paragraph(text, r.inflate(-r.width // 8, -r.height // 4), self.px(26), TEXT,
                         align="center")
        self.buttons[0].draw(canvas)

    def swatch_rect(self) -> pygame.Rect:
        """Where the held peek shows the clan: a small square in the top part of the card,
        above the finger holding it (a hand comes from below)."""
        r = self.hold_rect
        side = max(56, min(round(84 * self.scale), r.height // 2))
        sw = pygame.Rect(0, 0, side, side)
        sw.midtop = (r.centerx, r.top + self.px(8))
        return sw

    def _draw_clan(self, canvas: Canvas, r: pygame.Rect) -> None:
        clan = self.app.table.private(self.seat).own_clan
        assert clan is not None
        look = self.app.look
        sw = self.swatch_rect()
        canvas.box(sw, look.color(clan), radius=sw.height // 6)
        canvas.region("swatch", sw)
        icon = centered(sw, round(sw.height * 0.62), round(sw.height * 0.62))
        canvas.surface.blit(hut_icon(clan, icon.width, look=look), icon)
        line = pygame.Rect(r.left + 8, sw.bottom + self.px(6), r.width - 16, self.px(30))
        canvas.text(_("Your clan: {clan}").format(clan=look.label(clan)), line, self.px(24),
                    TEXT_DIM)
