"""Choosing a seat's name by tapping: a picture (which brings its name) or a typed name on
an on-screen keyboard. No physical keyboard is needed; one works too on a desktop. A
computer player only picks a picture: its name is the animal and its level."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import pygame

from ...i18n import _
from ...session import Seat
from ..avatars import AVATARS, avatar_surface
from ..canvas import Canvas, line_size, text_width
from ..layout import split_h
from ..panel import draw_avatar
from ..seat_kinds import computer_name
from ..theme import ACCENT, BAD, BG, CARD, PANEL_HI, TEXT, TEXT_DIM
from ..widgets import Button
from .base import Screen

if TYPE_CHECKING:
    from .base import Host

MAX_NAME = 12
KEY_ROWS = ("QWERTYUIOP", "ASDFGHJKL-", "ZXCVBNM'")
#: The second page of letters: those of German, French and Italian names (and a few of
#: their neighbours') that the first page lacks. Same shape as KEY_ROWS.
ACCENT_ROWS = ("ÄÖÜßÉÈÊËÀÂ", "ÇÎÏÔŒÙÛÌÒÍ", "ÓÚÑÆØÅÃ'")
#: Letters whose capital is not one letter ("ß".upper() is "SS"): typed as they are.
NO_CAPITAL = frozenset("ß")
#: The page key's label: letters of the page it switches to (letters, like the keys, are
#: the same in every language, so not translated). Key: the accented page is showing.
PAGE_KEY = {False: "ÀÉÜ", True: "ABC"}


def clean_name(text: str) -> str:
    """A typed name as it will be shown: spaces squeezed, at most MAX_NAME characters."""
    return " ".join(text.split())[:MAX_NAME]


class NameScreen(Screen):
    name = "names"

    def __init__(self, app: Host, seat: Seat, others: Sequence[Seat], index: int,
                 chosen: Callable[[Seat], None], cancel: Callable[[], None]) -> None:
        super().__init__(app)
        self.seat = seat
        self.index = index
        self.others = list(others)
        self.chosen = chosen
        self.cancel = cancel
        self.avatar = seat.avatar or AVATARS[index % len(AVATARS)].key
        self.computer = not seat.is_human
        self.text = seat.name
        self.typing = False
        self.accents = False  # the keyboard shows the accented letters
        self.problem = ""

    # ------------------------------------------------------------ layout

    def layout(self) -> None:
        w, h = self.size
        u, pad = self.unit, self.px(8)
        self.top = pygame.Rect(pad, pad, w - 2 * pad, round(u * 1.3))
        bottom = pygame.Rect(pad, h - u - pad, w - 2 * pad, u)
        cancel, mode, ok = split_h(bottom, 1, 1.3, 1.3, gap=pad)
        self.buttons = [
            Button("cancel", cancel, _("Cancel"), self.cancel, px=self.px(20)),
            Button("ok", ok, _("OK"), self._ok, style="primary", px=self.px(22)),
        ]
        if not self.computer:  # a computer player's name comes with its picture
            self.buttons.insert(1, Button("mode", mode, _("Pictures") if self.typing
                                          else _("Type a name"), self._toggle, px=self.px(20)))
        area = pygame.Rect(pad, self.top.bottom + pad, w - 2 * pad,
                           bottom.top - pad - self.top.bottom - pad)
        if self.typing:
            self._keyboard(area, pad)
        else:
            self._pictures(area, pad)

    def _pictures(self, area: pygame.Rect, pad: int) -> None:
        cols = 6 if area.width >= area.height else 4
        rows = -(-len(AVATARS) // cols)
        cw = (area.width - (cols - 1) * pad) // cols
        ch = (area.height - (rows - 1) * pad) // rows
        taken = {s.avatar for s in self.others}
        for k, a in enumerate(AVATARS):
            r = pygame.Rect(area.left + (k % cols) * (cw + pad),
                            area.top + (k // cols) * (ch + pad), cw, ch)
            self.buttons.append(Button(f"avatar_{a.key}", r, a.label, self._pick(a.key),
                                       enabled=a.key not in taken))

    def _keyboard(self, area: pygame.Rect, pad: int) -> None:
        gap = 3
        area = area.inflate(2 * pad - 8, 0)  # the keyboard uses the whole width
        rows = [*KEY_ROWS, ""]
        kh = min((area.height - (len(rows) - 1) * gap) // len(rows), round(self.unit * 1.6))
        kw = (area.width - 9 * gap) // 10
        area = pygame.Rect(area.left, area.bottom - len(rows) * kh - (len(rows) - 1) * gap,
                           area.width, len(rows) * kh + (len(rows) - 1) * gap)
        for r, keys in enumerate(ACCENT_ROWS if self.accents else KEY_ROWS):
            y = area.top + r * (kh + gap)
            for c, ch in enumerate(keys):
                rect = pygame.Rect(area.left + c * (kw + gap), y, kw, kh)
                self.buttons.append(Button(f"key_{ch}", rect, ch, self._key(ch),
                                           px=self.px(24)))
        last = area.top + 2 * (kh + gap)
        back = pygame.Rect(area.left + 8 * (kw + gap), last, 2 * kw + gap, kh)
        self.buttons.append(Button("key_back", back, _("Delete"), self._backspace,
                                   px=self.px(20)))
        y = area.top + 3 * (kh + gap)
        space = pygame.Rect(area.left + 2 * (kw + gap), y, 6 * kw + 5 * gap, kh)
        self.buttons.append(Button("key_space", space, _("Space"), self._key(" "),
                                   px=self.px(20)))
        clear = pygame.Rect(area.left, y, 2 * kw + gap, kh)
        self.buttons.append(Button("key_clear", clear, _("Clear"), self._clear,
                                   px=self.px(20)))
        more = pygame.Rect(area.left + 8 * (kw + gap), y, 2 * kw + gap, kh)
        # The key shows the page it switches to.
        self.buttons.append(Button("key_page", more, PAGE_KEY[self.accents], self._page,
                                   px=self.px(20)))

    # ------------------------------------------------------------ drawing

    def draw(self, canvas: Canvas) -> None:
        canvas.fill(BG)
        top = self.top
        pic = pygame.Rect(top.left, top.top, top.height, top.height)
        draw_avatar(canvas, Seat(self.text, self.avatar), self.index, pic)
        field = pygame.Rect(pic.right + self.px(10), top.top, top.width - top.height * 3,
                            top.height)
        canvas.box(field, CARD, radius=8, border=ACCENT if self.typing else None)
        shown = self.text + ("_" if self.typing else "")
        canvas.text(shown or " ", field.inflate(-self.px(16), -4), self.px(30), TEXT,
                    align="left")
        note = pygame.Rect(field.right + self.px(10), top.top, top.right - field.right
                           - self.px(10), top.height)
        if self.problem:
            canvas.paragraph(self.problem, note, self.px(16), BAD)
        else:
            what = (_("Seat {n}: pick the computer's picture") if self.computer
                    else _("Seat {n}: pick a picture or type a name"))
            canvas.paragraph(what.format(n=self.index + 1), note, self.px(16), TEXT_DIM)
        for b in self.buttons:
            if b.name.startswith("avatar_"):
                self._draw_avatar_button(canvas, b)
            else:
                b.draw(canvas)

    def _draw_avatar_button(self, canvas: Canvas, b: Button) -> None:
        key = b.name.removeprefix("avatar_")
        chosen = key == self.avatar
        canvas.box(b.rect, PANEL_HI if chosen or b.pressed else CARD, radius=8,
                   border=ACCENT if chosen else None)
        canvas.target(b.name, b.rect)
        label_h = max(self.px(22), b.rect.height // 5)
        side = min(b.rect.width - 8, b.rect.height - label_h - 8)
        pic = pygame.Rect(b.rect.centerx - side // 2, b.rect.top + 4, side, side)
        surf = avatar_surface(key, side)
        if not b.enabled:
            surf = surf.copy()
            surf.fill((255, 255, 255, 70), special_flags=pygame.BLEND_RGBA_MULT)
        canvas.surface.blit(surf, pic)
        label = pygame.Rect(b.rect.left, b.rect.bottom - label_h - 2, b.rect.width, label_h)
        text = b.label if b.enabled else _("{name} (taken)").format(name=b.label)
        size = max(self.px(18), canvas.least_px)
        if text_width(text, size) <= label.width and label.height >= line_size(size):
            canvas.text(text, label, self.px(18), TEXT if b.enabled else TEXT_DIM)
        else:  # a narrow cell (480x480): the name, and "taken" under it, over the picture
            label.top = max(b.rect.top + 2, label.bottom - 2 * line_size(canvas.least_px))
            label.height = b.rect.bottom - 2 - label.top
            canvas.paragraph(text, label, self.px(18), TEXT if b.enabled else TEXT_DIM,
                             align="center", line_gap=1.0)

    # ------------------------------------------------------------ actions

    def _pick(self, key: str):
        def act() -> None:
            self.avatar = key
            self.text = next(a.label for a in AVATARS if a.key == key)
            if self.computer:
                self.text = computer_name(key, self.seat.kind)
            self.problem = ""

        return act

    def _toggle(self) -> None:
        if self.computer:
            return
        self.typing = not self.typing
        if self.typing and self.text in {a.label for a in AVATARS}:
            self.text = ""  # typing a name starts afresh, not after "Fox"
        self.layout()

    def _page(self) -> None:
        """Switch between the plain letters and the accented ones."""
        self.accents = not self.accents
        self.layout()

    def _key(self, ch: str):
        def act() -> None:
            self.type_text(ch)

        return act

    def type_text(self, text: str) -> None:
        """Add typed characters: a word starts with a capital, the rest lower case."""
        for ch in text:
            if len(self.text) >= MAX_NAME:
                self.problem = _("At most {n} letters").format(n=MAX_NAME)
                return
            if ch == " " and (not self.text or self.text.endswith(" ")):
                continue
            word_start = not self.text or self.text.endswith((" ", "-"))
            if ch in NO_CAPITAL:
                self.text += ch
            else:
                self.text += ch.upper() if word_start else ch.lower()
        self.problem = ""

    def _backspace(self) -> None:
        self.text = self.text[:-1]
        self.problem = ""

    def _clear(self) -> None:
        self.text = ""
        self.problem = ""

    def _ok(self) -> None:
        name = computer_name(self.avatar, self.seat.kind) if self.computer else clean_name(
            self.text)
        if not name:
            self.problem = _("Type a name or pick a picture")
            return
        if any(s.name.casefold() == name.casefold() for s in self.others):
            self.problem = _("{name} is already playing").format(name=name)
            return
        self.chosen(Seat(name, self.avatar, self.seat.kind))

    def back(self) -> None:
        self.cancel()

    def key(self, ev: pygame.event.Event) -> None:
        """A physical keyboard, when there is one (desktop)."""
        if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self._ok()
        elif self.computer:
            return  # a computer player's name is not typed
        elif ev.key == pygame.K_BACKSPACE:
            self._backspace()
        elif ev.unicode and (ev.unicode.isalpha() or ev.unicode in " -'"):
            if not self.typing:
                self._toggle()
            self.type_text(ev.unicode)
