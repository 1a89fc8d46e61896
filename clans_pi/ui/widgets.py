"""Buttons: tap buttons and press-and-hold buttons, drawn through a Canvas."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from .canvas import Canvas
from .theme import BUTTON, BUTTON_DOWN, BUTTON_OFF, DANGER, PRIMARY, TEXT, TEXT_DIM, Color

STYLES: dict[str, Color] = {"normal": BUTTON, "primary": PRIMARY, "danger": DANGER}


@dataclass(eq=False)
class Button:
    """A rectangle that does ``action`` when tapped (pressed and released on it).

    A ``hold`` button calls ``action(True)`` when pressed and ``action(False)`` when let go
    (wherever the finger is then): the press-and-hold peek.
    """

    name: str
    rect: pygame.Rect
    label: str = ""
    action: Callable[..., None] | None = None
    enabled: bool = True
    style: str = "normal"
    hold: bool = False
    px: int = 20
    draw_icon: Callable[[pygame.Surface, pygame.Rect, Color], None] | None = None
    pressed: bool = field(default=False, init=False)

    def hit(self, pos: tuple[float, float]) -> bool:
        return self.enabled and self.rect.collidepoint(pos)

    def draw(self, canvas: Canvas, *, color: Color | None = None) -> None:
        if not self.enabled:
            fill = BUTTON_OFF
        elif self.pressed:
            fill = BUTTON_DOWN
        else:
            fill = color or STYLES[self.style]
        radius = max(4, self.rect.height // 5)
        canvas.box(self.rect, fill, radius=radius)
        canvas.target(self.name, self.rect)
        ink = TEXT if self.enabled else TEXT_DIM
        inner = _inner(self.rect)
        if self.draw_icon is not None and self.label:
            icon = pygame.Rect(inner.left, inner.top, inner.height, inner.height)
            self.draw_icon(canvas.surface, icon, ink)
            canvas.text(self.label, label_box(self.rect, icon=True), self.px, ink,
                        align="left")
        elif self.draw_icon is not None:
            side = min(inner.width, inner.height)
            icon = pygame.Rect(0, 0, side, side)
            icon.center = inner.center
            self.draw_icon(canvas.surface, icon, ink)
        else:
            canvas.text(self.label, inner, self.px, ink)


def _inner(rect: pygame.Rect) -> pygame.Rect:
    """A button's inside, within its margins."""
    short = min(rect.size)
    return rect.inflate(-max(6, short // 4), -max(4, short // 6))


def label_box(rect: pygame.Rect, *, icon: bool) -> pygame.Rect:
    """Where a button at ``rect`` writes its label: its inside, or with a symbol (``icon``)
    the part of it right of the symbol."""
    inner = _inner(rect)
    if not icon:
        return inner
    return pygame.Rect(inner.left + inner.height + 4, inner.top, inner.width - inner.height - 4,
                       inner.height)
