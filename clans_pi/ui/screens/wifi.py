"""The phones' Wi-Fi, from the start screen: a QR code that joins it, its name and password
in letters, and what to do next (then scan the seat's own code at the deal).

The network is the Pi's own hotspot (``install-pi.sh --hotspot``) or whatever the settings
name (``[phones] wifi_name``): on a shared home Wi-Fi anyone on it could watch the phones'
unencrypted traffic, which the table's own network avoids. Its password is not a secret
from the people at the table, who are the ones meant to join.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from ...i18n import _
from ..canvas import Canvas
from ..layout import split_v
from ..qr import qr_surface
from ..theme import ACCENT, BG, CARD, TEXT, TEXT_DIM
from ..widgets import Button
from .base import Screen

if TYPE_CHECKING:
    from ...settings.wifi import Hotspot
    from .base import Host


class WifiScreen(Screen):
    """``wifi``'s QR code, name and password; Back (and Escape) go ``back``."""

    name = "wifi"

    def __init__(self, app: Host, wifi: Hotspot, back: Callable[[], None]) -> None:
        super().__init__(app)
        self.wifi = wifi
        self._back = back

    def layout(self) -> None:
        w, h = self.size
        u, pad = self.unit, self.px(10)
        self.title = pygame.Rect(pad, pad, w - 2 * pad, round(u * 1.1))
        bottom = pygame.Rect(pad, h - u - pad, w - 2 * pad, u)
        back = pygame.Rect(bottom.left, bottom.top, max(u * 3, bottom.width // 3), u)
        self.buttons = [Button("back", back, _("Back"), self._back, style="primary",
                               px=self.px(22))]
        self.card = pygame.Rect(pad, self.title.bottom + pad, w - 2 * pad,
                                bottom.top - pad - self.title.bottom - pad)
        inner = self.card.inflate(-2 * pad, -2 * pad)
        if w >= h:  # the code at the left, the words beside it
            side = min(inner.height, inner.width * 9 // 20)
            self.qr = pygame.Rect(inner.left, inner.centery - side // 2, side, side)
            self.words = pygame.Rect(self.qr.right + 2 * pad, inner.top,
                                     inner.right - self.qr.right - 2 * pad, inner.height)
        else:  # upright: the code on top, the words under it
            side = min(inner.width, inner.height * 3 // 5)
            self.qr = pygame.Rect(inner.centerx - side // 2, inner.top, side, side)
            self.words = pygame.Rect(inner.left, self.qr.bottom + 2 * pad, inner.width,
                                     inner.bottom - self.qr.bottom - 2 * pad)

    def back(self) -> None:
        self._back()

    def draw(self, canvas: Canvas) -> None:
        canvas.fill(BG)
        canvas.text(_("Wi-Fi for phones"), self.title, self.px(34), ACCENT)
        canvas.box(self.card, CARD, radius=10)
        code = qr_surface(self.wifi.qr_payload, self.qr.height)
        at = code.get_rect(center=self.qr.center)
        canvas.surface.blit(code, at)
        canvas.region("qr", at)
        name_label, name, password_label, password, _gap, hint = split_v(
            self.words, 0.7, 1.2, 0.7, 1.2, 0.3, 2.2)
        align = "left" if self.size[0] >= self.size[1] else "center"
        canvas.text(_("Network"), name_label, self.px(18), TEXT_DIM, align=align,
                    valign="bottom")
        canvas.text(self.wifi.name, name, self.px(34), TEXT, align=align)
        canvas.text(_("Password"), password_label, self.px(18), TEXT_DIM, align=align,
                    valign="bottom")
        canvas.text(self.wifi.password or _("none (an open network)"), password,
                    self.px(34), TEXT, align=align)
        canvas.paragraph(_("Join this Wi-Fi first: scan the code with your phone's camera, "
                           "or type the name and password. Then scan your seat's own code "
                           "when the game deals."), hint, self.px(22), TEXT, align=align)
        self.draw_buttons(canvas)
