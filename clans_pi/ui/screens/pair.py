"""Pairing handhelds with seats: "Seat 2: press the button on your handheld".

The first button press from a connected handheld after the question pairs it with that
seat (remembered across restarts). A handheld moved to another seat is cleared first, so
it never carries one seat's clan to another.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import pygame

from ...i18n import _, ngettext
from ..canvas import Canvas
from ..layout import split_h
from ..theme import ACCENT, BG, CARD, GOOD, TEXT, TEXT_DIM
from ..widgets import Button
from .base import Screen

if TYPE_CHECKING:
    from .base import Host


class PairScreen(Screen):
    name = "pair"

    def __init__(self, app: Host, seats: Sequence[int], names: Sequence[str],
                 done: Callable[[], None]) -> None:
        super().__init__(app)
        assert app.devices is not None
        self.devices = app.devices
        self.seats = list(seats)
        self.names = list(names)
        self.done = done
        self.index = 0
        self.paired: dict[int, str] = {}
        self._ask()

    def _ask(self) -> None:
        if self.index < len(self.seats):
            self.devices.start_pairing(self.seats[self.index])
        else:
            self.devices.stop_pairing()

    def layout(self) -> None:
        w, h = self.size
        u, pad = self.unit, self.px(10)
        self.title = pygame.Rect(pad, pad, w - 2 * pad, round(u * 1.1))
        bottom = pygame.Rect(pad, h - u - pad, w - 2 * pad, u)
        skip, finish = split_h(bottom, 1, 1, gap=pad)
        self.buttons = [
            Button("skip", skip, _("Skip this seat"), self._skip,
                   enabled=self.index < len(self.seats), px=self.px(20)),
            Button("finish", finish, _("Done"), self._finish, style="primary", px=self.px(22)),
        ]
        self.body = pygame.Rect(pad, self.title.bottom + pad, w - 2 * pad,
                                bottom.top - 2 * pad - self.title.bottom)

    def device_event(self, seat: int, kind: str) -> None:
        if kind == "paired" and self.index < len(self.seats) and seat == self.seats[self.index]:
            self.paired[seat] = "paired"
            self.index += 1
            self._ask()
            self.layout()

    def _skip(self) -> None:
        self.index += 1
        self._ask()
        self.layout()

    def _finish(self) -> None:
        self.devices.stop_pairing()
        self.done()

    def back(self) -> None:
        self._finish()

    def draw(self, canvas: Canvas) -> None:
        canvas.fill(BG)
        canvas.text(_("Pair the handhelds"), self.title, self.px(34), ACCENT)
        canvas.box(self.body, CARD, radius=10)
        inner = self.body.inflate(-self.px(24), -self.px(20))
        line = min(round(self.unit * 0.9), inner.height // (len(self.seats) + 3))
        y = inner.top
        if self.index < len(self.seats):
            seat = self.seats[self.index]
            ask = _("Seat {n} ({name}): press the button on your handheld").format(
                n=seat + 1, name=self.names[seat])
            canvas.paragraph(ask, pygame.Rect(inner.left, y, inner.width, line * 2),
                             self.px(26), TEXT)
        else:
            canvas.text(_("Every handheld seat is done."), pygame.Rect(inner.left, y, inner.width,
                        line * 2), self.px(26), GOOD)
        y += line * 2
        for seat in self.seats:
            waiting = self.index < len(self.seats) and seat == self.seats[self.index]
            known = self.devices.paired_handheld(seat)
            if seat in self.paired:
                text = _("Seat {n} ({name}): handheld {id} · paired now")
            elif known and waiting:
                text = _("Seat {n} ({name}): handheld {id} · waiting")
            elif known:
                text = _("Seat {n} ({name}): handheld {id}")
            elif waiting:
                text = _("Seat {n} ({name}): no handheld yet · waiting")
            else:
                text = _("Seat {n} ({name}): no handheld yet")
            text = text.format(n=seat + 1, name=self.names[seat], id=known)
            canvas.text(text, pygame.Rect(inner.left, y, inner.width, line), self.px(18),
                        TEXT if known else TEXT_DIM, align="left")
            y += line
        connected = self.devices.handhelds_connected()
        canvas.text(ngettext("{n} handheld plugged in", "{n} handhelds plugged in",
                             len(connected)).format(n=len(connected)),
                    pygame.Rect(inner.left, y, inner.width, line), self.px(16), TEXT_DIM,
                    align="left")
        self.draw_buttons(canvas)
