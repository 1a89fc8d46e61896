"""The first-game guide's card over a screen: the rest of the screen shaded, what the tip
is about (a territory, an epoch of the chart) left bright, ringed and pointed at, and two
buttons: "Got it" and "Skip the guide". While it is up it takes every tap."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pygame

from ..i18n import _
from ..table.guide import Tip
from .canvas import Canvas, line_size, wrap
from .guide_texts import tip_text
from .icons import draw_arrow
from .layout import split_h, split_v
from .theme import ACCENT, CARD, TEXT, TEXT_DIM
from .widgets import Button

if TYPE_CHECKING:
    from .screens.base import Host, Pos, Screen, Spot

SHADE = (0, 0, 0, 150)


class GuideOverlay:
    """The card of ``tip`` over ``screen``; built again whenever either changes."""

    def __init__(self, app: Host, screen: Screen, tip: Tip) -> None:
        self.app = app
        self.screen = screen
        self.tip = tip
        self.buttons: list[Button] = []
        self.pressed: Button | None = None
        self.body_px = screen.px(26)  # the text's size, unless it must shrink to fit
        self.text_px = 0  # the body's font size after fitting (tests: still readable)
        self._veil: pygame.Surface | None = None
        self._layout()

    def _layout(self) -> None:
        screen = self.screen
        s, u = screen.scale, screen.unit
        pad = screen.px(10)
        area = screen.guide_area()
        self.spots = screen.guide_spots(self.tip)
        self.text = tip_text(self.tip, self.app.board, self.app.chart)
        side_by_side = area.width - 2 * pad >= round(380 * s)
        rows = 1 if side_by_side else 2
        buttons_h = rows * u + (rows - 1) * pad
        head_h = round(u * 0.45) + round(u * 0.8) + pad // 2
        # As tall as the text needs at its full size, at most the area (it shrinks then).
        lines = wrap(self.text[1], self.body_px, area.width - 2 * pad)
        body_h = line_size(self.body_px) * len(lines) + pad  # as paragraph() spaces them
        self.card = pygame.Rect(area.left, area.top, area.width,
                                min(area.height, head_h + body_h + buttons_h + 3 * pad))
        self.card.centery = area.centery
        inner = self.card.inflate(-2 * pad, -2 * pad)
        self.label = pygame.Rect(inner.left, inner.top, inner.width, round(u * 0.45))
        self.title = pygame.Rect(inner.left, self.label.bottom, inner.width, round(u * 0.8))
        buttons = pygame.Rect(inner.left, inner.bottom - buttons_h, inner.width, buttons_h)
        if side_by_side:
            skip, ok = split_h(buttons, 1.3, 1, gap=pad)
        else:
            skip, ok = split_v(buttons, 1, 1, gap=pad)
        self.buttons = [
            Button("guide_skip", skip, _("Skip the guide"), self.app.skip_guide,
                   px=screen.px(18)),
            Button("guide_ok", ok, _("Got it"), self.app.close_tip, style="primary",
                   px=screen.px(22)),
        ]
        self.body = pygame.Rect(inner.left, self.title.bottom + pad // 2, inner.width,
                                buttons.top - pad - self.title.bottom - pad // 2)

    # ------------------------------------------------------------ drawing

    def _shade(self, size: tuple[int, int]) -> pygame.Surface:
        """The dark veil over the screen, with holes where the tip points (made once)."""
        if self._veil is None or self._veil.get_size() != size:
            veil = pygame.Surface(size, pygame.SRCALPHA)
            veil.fill(SHADE)
            for kind, r in self.spots:  # what the tip is about stays bright
                if kind == "circle":
                    pygame.draw.circle(veil, (0, 0, 0, 0), r.center, r.width // 2)
                else:
                    pygame.draw.rect(veil, (0, 0, 0, 0), r, border_radius=6)
            self._veil = veil
        return self._veil

    def draw(self, canvas: Canvas) -> None:
        screen = self.screen
        surf = canvas.surface
        surf.blit(self._shade(surf.get_size()), (0, 0))
        ring = max(3, round(4 * screen.scale))
        for kind, r in self.spots:
            canvas.region("guide_spot", r)
            if kind == "circle":
                pygame.draw.circle(surf, ACCENT, r.center, r.width // 2 + ring, ring)
            else:
                pygame.draw.rect(surf, ACCENT, r.inflate(2 * ring, 2 * ring), ring,
                                 border_radius=8)
        card = self.card
        canvas.box(card, CARD, radius=max(8, round(12 * screen.scale)), border=ACCENT)
        canvas.region("guide", card)
        for k, (_kind, r) in enumerate(self.spots):
            self._arrow(surf, r, ring, [o for j, (_k, o) in enumerate(self.spots) if j != k])
        title, body = self.text
        canvas.text(_("First-game guide"), self.label, screen.px(15), TEXT_DIM, align="left")
        canvas.text(title, self.title, screen.px(26), ACCENT, align="left")
        self.text_px = canvas.paragraph(body, self.body, self.body_px, TEXT)
        for b in self.buttons:
            b.draw(canvas)

    def _arrow(self, surf: pygame.Surface, spot: pygame.Rect, ring: int,
               others: list[pygame.Rect]) -> None:
        """From the card's edge nearest the spot to the spot's ring; none where it would
        cross another spot (the ring alone shows it then)."""
        card = self.card
        cx, cy = spot.center
        sx = min(max(cx, card.left), card.right - 1)
        sy = min(max(cy, card.top), card.bottom - 1)
        dx, dy = sx - cx, sy - cy
        d = math.hypot(dx, dy)
        reach = max(spot.width, spot.height) / 2 + 2 * ring
        if d <= reach + ring:
            return  # the spot touches the card: nothing to point across
        end = (cx + dx / d * reach, cy + dy / d * reach)
        if any(o.clipline((sx, sy), end) for o in others):
            return
        draw_arrow(surf, (sx, sy), end, ACCENT, ring)

    # ------------------------------------------------------------ input

    def pointer_down(self, pos: Pos) -> None:
        for b in self.buttons:
            if b.hit(pos):
                b.pressed = True
                self.pressed = b
                return

    def pointer_up(self, pos: Pos) -> None:
        b, self.pressed = self.pressed, None
        if b is None:
            return  # a tap beside the card: nothing happens under it
        b.pressed = False
        if b.rect.collidepoint(pos) and b.action is not None:
            b.action()

    def button(self, name: str) -> Button:
        for b in self.buttons:
            if b.name == name:
                return b
        raise KeyError(f"the guide has no button {name!r}")


def spot_circle(center: tuple[float, float], radius: float) -> Spot:
    """A round spot (a territory) of ``radius`` around ``center``."""
    r = round(radius)
    return ("circle", pygame.Rect(round(center[0]) - r, round(center[1]) - r, 2 * r, 2 * r))
