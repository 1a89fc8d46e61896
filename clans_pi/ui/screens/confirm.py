"""A question with two answers on a screen of its own (switching the table off)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from ..canvas import Canvas
from ..layout import split_h
from ..theme import BG, CARD, SELECT, TEXT
from ..widgets import Button
from .base import Screen

if TYPE_CHECKING:
    from .base import Host


class ConfirmScreen(Screen):
    """``title`` and ``text`` over two buttons: ``yes`` (a danger button that does
    ``act``) and ``no`` (the primary one, and Escape, which go ``back``)."""

    name = "confirm"

    def __init__(self, app: Host, *, title: str, text: str, yes: str, no: str,
                 act: Callable[[], None], back: Callable[[], None]) -> None:
        super().__init__(app)
        self.title, self.text, self.yes, self.no = title, text, yes, no
        self._act, self._back = act, back

    def layout(self) -> None:
        w, h = self.size
        u, pad = self.unit, self.px(12)
        cw, ch = min(w - 2 * pad, self.px(600)), min(h - 2 * pad, self.px(260))
        self.card = pygame.Rect(0, 0, cw, ch)
        self.card.center = self.rect.center
        inner = self.card.inflate(-2 * pad, -2 * pad)
        row = pygame.Rect(inner.left, inner.bottom - u, inner.width, u)
        yes, no = split_h(row, 1, 1, gap=pad)
        self.head = pygame.Rect(inner.left, inner.top, inner.width, round(u * 0.9))
        self.body = pygame.Rect(inner.left, self.head.bottom, inner.width,
                                row.top - pad - self.head.bottom)
        self.buttons = [
            Button("confirm_yes", yes, self.yes, self._act, style="danger", px=self.px(22)),
            Button("confirm_no", no, self.no, self._back, style="primary", px=self.px(22)),
        ]

    def back(self) -> None:
        self._back()

    def draw(self, canvas: Canvas) -> None:
        canvas.fill(BG)
        canvas.box(self.card, CARD, radius=12, border=SELECT)
        canvas.region("dialog", self.card)
        canvas.text(self.title, self.head, self.px(32), TEXT)
        canvas.paragraph(self.text, self.body, self.px(27), TEXT, align="center")
        self.draw_buttons(canvas)
