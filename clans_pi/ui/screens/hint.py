"""A private hint: "Only Anna looks now", press and hold to see the move the table suggests,
let go to hide it.

The hint is a computer's search from the person's own view, so it follows their clan: it is
shown only to the person to move, like the peek (:mod:`.peek`), and only while they hold the
card. When nothing is held the picture is the same whatever the clan and the advice (R22).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pygame

from ...i18n import _
from ...rules.moves import Move
from ...session import Session
from ..board_view import BoardView
from ..canvas import Canvas
from ..icons import draw_arrow
from ..layout import centered
from ..theme import BG, CARD, TEXT
from ..widgets import Button
from .base import Screen
from .peek import draw_closed_card, draw_only_you

if TYPE_CHECKING:
    from .base import Host

HINT = (236, 112, 222)  # the hint's arrow and outline: no clan's colour


def draw_hint(canvas: Canvas, bv: BoardView, move: Move, bold: float = 1.0) -> None:
    """The suggested move on the board: its two territories outlined, an arrow between;
    ``bold`` times as thick (a phone shows the picture smaller than it is drawn)."""
    width = max(3, round(bv.hut / 5 * bold))
    bv.highlight(canvas.surface, move.src, HINT, width)
    bv.highlight(canvas.surface, move.dst, HINT, width)
    (x1, y1), (x2, y2) = bv.anchors[move.src], bv.anchors[move.dst]
    d = math.hypot(x2 - x1, y2 - y1) or 1
    back = min(bv.hut * 0.9, d * 0.3)
    draw_arrow(canvas.surface, (x1, y1), (x2 - (x2 - x1) / d * back,
                                          y2 - (y2 - y1) / d * back), HINT, width)


class HintScreen(Screen):
    name = "hint"

    def __init__(self, app: Host, session: Session, seat: int) -> None:
        super().__init__(app)
        self.session = session
        self.seat = seat  # the person to move, who asked
        self.holding = False
        self.bv: BoardView | None = None

    @property
    def shown_hint(self) -> Move | None:
        """The suggested move drawn now: only while held, once the search is done."""
        return self.app.table.hint()[1] if self.holding else None

    def layout(self) -> None:
        w, h = self.size
        u, pad = self.unit, self.px(10)
        self.title = pygame.Rect(pad, pad, w - 2 * pad, round(u * 1.1))
        self.sub = pygame.Rect(pad, self.title.bottom, w - 2 * pad, round(u * 0.7))
        top = self.sub.bottom + pad
        bottom = h - u - 2 * pad
        self.hold_rect = pygame.Rect(pad, top, w - 2 * pad, bottom - top)
        aspect = self.session.board.aspect
        inner = self.hold_rect.inflate(-2 * pad, -2 * pad)
        bw = min(inner.width, round(inner.height * aspect))
        board = centered(inner, bw, round(bw / aspect))
        if self.bv is None or self.bv.rect != board:
            self.bv = BoardView(self.session.board, board, self.app.look)
        done = centered(pygame.Rect(0, bottom + pad, w, u),
                        round(min(w - 2 * pad, 340 * self.scale)), u)
        self.buttons = [
            Button("hold", self.hold_rect, "", self._hold, hold=True),
            Button("done", done, _("Back to the board"), self._done, style="primary",
                   px=self.px(22)),
        ]

    def _hold(self, down: bool) -> None:
        self.holding = down

    def _done(self) -> None:
        self.holding = False
        self.app.play()

    def back(self) -> None:
        self._done()

    def draw(self, canvas: Canvas) -> None:
        canvas.fill(BG)
        draw_only_you(self, canvas, self.session.seats[self.seat].name, self.title, self.sub)
        self.buttons[1].draw(canvas)
        r = self.hold_rect
        canvas.target("hold", r)
        if self.holding:
            self._draw_held(canvas, r)
            return
        draw_closed_card(self, canvas, r, _("Press and hold to see your hint"),
                         radius=min(r.height, r.width) // 10,
                         eye_side=min(r.height // 2, r.width // 3))

    def _draw_held(self, canvas: Canvas, r: pygame.Rect) -> None:
        """The board and, once found, the suggested move; while searching, a word."""
        bv = self.bv
        assert bv is not None
        canvas.box(r, CARD, radius=min(r.height, r.width) // 10, border=HINT)
        state, move = self.app.table.hint()
        bv.draw(canvas, self.session.public(), marked=move.order or () if move else (),
                show_last_move=False)
        if move is not None:
            draw_hint(canvas, bv, move)
            return
        # TRANSLATORS: on the private hint screen while the computer still searches.
        word = _("Looking for your hint…") if state == "thinking" else _("No hint this time")
        note = centered(bv.rect, min(bv.rect.width, round(360 * self.scale)), self.unit)
        canvas.box(note, (20, 20, 24), radius=note.height // 2, border=HINT)
        canvas.text(word, note.inflate(-16, -4), self.px(24), TEXT)
