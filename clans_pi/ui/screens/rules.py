"""A short summary of the rules, in our own words, a page at a time."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from ...i18n import N_, _
from ..canvas import Canvas
from ..layout import split_h, split_v
from ..rules_pictures import draw_picture
from ..theme import ACCENT, BG, CARD, TEXT
from ..widgets import Button
from .base import Screen

if TYPE_CHECKING:
    from .base import Host

#: Each page's title and text, marked for translation (shown with ``_()``).
PAGES: tuple[tuple[str, str], ...] = (
    (
        N_("Your secret clan"),
        N_("Five clans share the island: red, blue, green, yellow and black. Each player is "
        "dealt one clan in secret; the clans nobody got still play along. Peek at yours "
        "whenever you like (the eye next to your name), but keep it to yourself: the others "
        "will try to guess it from your moves, and you can try to guess theirs."),
    ),
    (
        N_("A move"),
        N_("On your turn, take all the huts of one territory and move them into a neighbouring "
        "territory that is not empty. Huts of every clan move together. The territory you "
        "leave stays empty for the rest of the game.\n"
        "A group of 7 or more huts may only move onto a neighbouring group that is at least "
        "as big. Any smaller group may join a big one."),
    ),
    (
        N_("Villages"),
        N_("When a group of huts has no more non-empty neighbours, it becomes a village. The "
        "player who made it takes the next chip from the epoch chart (one point at the end). "
        "If all five clans are in the village, every clan with a single hut there loses it "
        "(strife). Then every clan still in the village scores its value: the number of huts "
        "in it. If one move makes several villages, the mover chooses their order."),
    ),
    (
        N_("Epochs"),
        N_("The chips are split into five epochs. A village founded on the epoch's favourable "
        "terrain is worth its bonus more. On hostile terrain it is worth nothing and its huts "
        "leave the board. The bonus grows every epoch; the last village always gets +5."),
    ),
    (
        N_("The end"),
        N_("The game ends when the twelfth village is scored, or when no move is left. Then the "
        "clans are revealed. Your score is your clan's points plus your chips; the highest "
        "score wins, and equal scores share the win."),
    ),
)


#: The first page's text when the settings show the fifth clan white (R3, display.fifth_clan).
WHITE_FIFTH_CLAN = N_(
    "Five clans share the island: red, blue, green, yellow and white. Each player is "
    "dealt one clan in secret; the clans nobody got still play along. Peek at yours "
    "whenever you like (the eye next to your name), but keep it to yourself: the others "
    "will try to guess it from your moves, and you can try to guess theirs."
)


class RulesScreen(Screen):
    name = "rules"

    def __init__(self, app: Host, back: Callable[[], None], *, from_game: bool = True) -> None:
        super().__init__(app)
        self._back = back
        self.from_game = from_game  # the button says where it goes back to
        self.page = 0

    def layout(self) -> None:
        w, h = self.size
        u, pad = self.unit, self.px(10)
        bottom = pygame.Rect(pad, h - u - pad, w - 2 * pad, u)
        prev, back, nxt = split_h(bottom, 1, 1.2, 1, gap=pad)
        self.buttons = [
            Button("prev", prev, _("Previous"), self._turn(-1), enabled=self.page > 0,
                   px=self.px(20)),
            Button("back", back, _("Back to the game") if self.from_game else _("Back"),
                   self._back, style="primary", px=self.px(20)),
            Button("next", nxt, _("Next"), self._turn(1), enabled=self.page < len(PAGES) - 1,
                   px=self.px(20)),
        ]
        self.title = pygame.Rect(pad, pad, w - 2 * pad, round(u * 1.1))
        area = pygame.Rect(pad, self.title.bottom + pad, w - 2 * pad,
                           bottom.top - 2 * pad - self.title.bottom)
        # The picture beside the text (landscape) or above it (portrait).
        if w >= h:
            self.picture, self.body = split_h(area, 0.9, 1.1, gap=pad)
        else:
            self.picture, self.body = split_v(area, 0.8, 1.2, gap=pad)

    def _turn(self, step: int):
        def act() -> None:
            self.page = max(0, min(len(PAGES) - 1, self.page + step))
            self.layout()

        return act

    def back(self) -> None:
        self._back()

    def draw(self, canvas: Canvas) -> None:
        canvas.fill(BG)
        title, text = (_(part) for part in PAGES[self.page])
        if self.page == 0 and self.app.look.fifth == "white":
            text = _(WHITE_FIFTH_CLAN)
        canvas.text(_("{title}  ({page}/{pages})").format(title=title, page=self.page + 1,
                                                          pages=len(PAGES)),
                    self.title, self.px(32), ACCENT)
        draw_picture(canvas, self.picture, self.page, self.app.look, self.app.chart)
        canvas.box(self.body, CARD, radius=10)
        canvas.paragraph(text, self.body.inflate(-self.px(20), -self.px(16)), self.px(22), TEXT)
        self.draw_buttons(canvas)
