"""Choosing the language on the start screen: each language in its own name and script.

A language that cannot be shown here is greyed out with the reason: Japanese without a
font that draws it ("needs a Japanese font: sudo apt install fonts-noto-cjk"), or any
language whose compiled catalogue is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from ...i18n import LANGUAGES, _, language
from ..canvas import Canvas, using_face
from ..fonts import INSTALL_HINT, face_for
from ..languages import unavailable
from ..layout import centered, split_v
from ..theme import ACCENT, BG
from ..widgets import Button
from .base import Screen

if TYPE_CHECKING:
    from .base import Host


class LanguageScreen(Screen):
    name = "language"

    def __init__(self, app: Host, chosen: Callable[[str], None],
                 cancel: Callable[[], None]) -> None:
        super().__init__(app)
        self.chosen = chosen
        self.cancel = cancel
        self.why = {code: unavailable(code) for code in LANGUAGES}

    def layout(self) -> None:
        w, h = self.size
        u, pad = self.unit, self.px(10)
        self.title = pygame.Rect(pad, pad, w - 2 * pad, round(u * 1.1))
        bottom = centered(pygame.Rect(0, h - u - pad, w, u), round(min(w - 2 * pad,
                                                                       300 * self.scale)), u)
        self.buttons = [Button("back", bottom, _("Back"), self.cancel, px=self.px(20))]
        col = centered(pygame.Rect(0, self.title.bottom + pad, w,
                                   bottom.top - 2 * pad - self.title.bottom),
                       round(min(w - 2 * pad, 520 * self.scale)), h)
        rows = split_v(col, *[1] * len(LANGUAGES), gap=pad)
        for code, r in zip(LANGUAGES, rows, strict=True):
            r = centered(r, r.width, min(r.height, round(u * 1.2)))
            offered = self.why[code] is None
            # Not offered: the reason instead of the name (which might need a missing font).
            self.buttons.append(Button(f"lang_{code}", r,
                                       LANGUAGES[code] if offered else self._note(code),
                                       self._pick(code), enabled=offered,
                                       style="primary" if code == language() else "normal",
                                       px=self.px(24 if offered else 16)))

    def _pick(self, code: str):
        def act() -> None:
            self.chosen(code)

        return act

    def back(self) -> None:
        self.cancel()

    def _note(self, code: str) -> str:
        if self.why[code] == "font":
            return _("Japanese needs a Japanese font: {command}").format(command=INSTALL_HINT)
        return _("{language}: not installed (run ./scripts/play or the installer)").format(
            language=code)

    def draw(self, canvas: Canvas) -> None:
        canvas.fill(BG)
        canvas.text(_("Language"), self.title, self.px(34), ACCENT)
        self.buttons[0].draw(canvas)
        for b in self.buttons[1:]:
            code = b.name.removeprefix("lang_")
            if self.why[code] is None:
                with using_face(face_for(code)[0]):  # each name in its own script
                    b.draw(canvas)
            else:
                b.draw(canvas)  # its note, in the language in use
