"""Merging a renamed person's old games under their new name, from the scoreboard: pick the
old name, then the name it becomes, then say yes (:class:`ConfirmScreen`). Games in which
both names played keep both: they were two people. Computers are never merged (they are
not in the list: :meth:`History.names` holds people only).

The steps: ``old`` is None while the old name is being picked, then the new name is picked;
the question is a screen of its own, whose "no" comes back here.
"""

from __future__ import annotations

import errno
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from ...history import History
from ...i18n import _, ngettext
from ...session import Seat
from ..canvas import Canvas, shortened
from ..panel import draw_avatar
from ..scrolling import Scroll, draw_scrollbar
from ..theme import ACCENT, BG, BUTTON, BUTTON_DOWN, TEXT, TEXT_DIM
from ..widgets import Button
from .base import Pos, Screen
from .confirm import ConfirmScreen

if TYPE_CHECKING:
    from .base import Host

#: The list's buttons are called this and the name: "person_Anna".
PERSON = "person_"


def cannot_merge(exc: OSError, directory: Path) -> str:
    """The one sentence the family sees when the card refused to rewrite the records."""
    if exc.errno == errno.EROFS:
        return _("The names could not be merged: the SD card is read-only. No game was "
                 "lost.")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return _("The names could not be merged: the game may not write to {directory} "
                 "(check who owns it). No game was lost.").format(directory=directory)
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return _("The names could not be merged: the SD card is full. No game was lost.")
    return _("The names could not be merged ({error}). No game was lost.").format(
        error=exc.strerror or exc)


def merged_notice(old: str, new: str, changed: int, skipped: int) -> str:
    """What a merge did, in a sentence or two."""
    if changed:
        text = ngettext("{n} game of {old}'s now counts as {new}'s.",
                        "{n} games of {old}'s now count as {new}'s.",
                        changed).format(n=changed, old=old, new=new)
    else:
        text = _("No game of {old}'s changed.").format(old=old)
    if skipped:
        text += " " + ngettext("{n} game in which both played stays as it was.",
                               "{n} games in which both played stay as they were.",
                               skipped).format(n=skipped)
    return text


class MergeNamesScreen(Screen):
    """Pick two people's names of ``history`` and merge the first into the second; ``done``
    gets what happened (a sentence), ``back`` leaves without merging."""

    name = "merge_names"

    def __init__(self, app: Host, history: History, back: Callable[[], None],
                 done: Callable[[str], None]) -> None:
        super().__init__(app)
        self.history = history
        self._back = back
        self._done = done
        self.old: str | None = None  # picked in the first step
        self.scroll = Scroll()
        self.area = pygame.Rect(0, 0, 0, 0)
        self._rows: list[tuple[str, pygame.Rect]] = []  # each name and its place in the list
        self._fixed: list[Button] = []
        games = history.games
        self.counts = {n: sum(any(p.is_human and p.name == n for p in g.players)
                              for g in games) for n in history.names()}
        self.pictures = {n: next((p.avatar for g in games for p in g.players
                                  if p.is_human and p.name == n), "") for n in self.counts}

    @property
    def choices(self) -> list[str]:
        """The names offered in this step."""
        return [n for n in self.counts if n != self.old]

    # ------------------------------------------------------------ layout

    def layout(self) -> None:
        w, h = self.size
        u, pad = self.unit, self.px(8)
        self.title = pygame.Rect(pad, pad, w - 2 * pad, u)
        self.hint = pygame.Rect(pad, self.title.bottom, w - 2 * pad, round(u * 0.7))
        bottom = pygame.Rect(pad, h - pad - u, w - 2 * pad, u)
        back = pygame.Rect(bottom.left, bottom.top, min(bottom.width, self.px(220)), u)
        self._fixed = [Button("back", back, _("Back"), self.back, px=self.px(20))]
        self.area = pygame.Rect(pad, self.hint.bottom + pad, w - 2 * pad,
                                bottom.top - pad - self.hint.bottom - pad)
        bar_w = max(4, self.px(6))
        self.bar = pygame.Rect(self.area.right - bar_w, self.area.top, bar_w,
                               self.area.height)
        cols = max(1, (self.area.width - bar_w) // round(300 * self.scale))
        self.cols = cols
        self.pitch = round(u * 1.25) + pad
        count = len(self.choices)
        self.scroll.resize(-(-count // cols) * self.pitch - pad, self.area.height)
        self._place_rows()

    def _place_rows(self) -> None:
        """The list's buttons where the scroll puts them (those in view only)."""
        pad = self.px(8)
        width = (self.area.width - self.bar.width - pad - (self.cols - 1) * pad) // self.cols
        self._rows = []
        buttons: list[Button] = []
        for k, n in enumerate(self.choices):
            top = self.area.top + (k // self.cols) * self.pitch - self.scroll.offset
            r = pygame.Rect(self.area.left + (k % self.cols) * (width + pad), top, width,
                            self.pitch - pad)
            if r.colliderect(self.area):
                self._rows.append((n, r))
                buttons.append(Button(PERSON + n, r, n, self._pick(n), px=self.px(26)))
        self.buttons = buttons + self._fixed  # the fixed ones are hit first

    # ------------------------------------------------------------ drawing

    def draw(self, canvas: Canvas) -> None:
        canvas.fill(BG)
        if self.old is None:
            title, hint = _("Merge names"), _("Whose old name was it? Pick the old name.")
        else:
            title = _("Count {old}'s games as whose?").format(old=self.old)
            hint = _("Pick the name {old} goes by now.").format(old=self.old)
        canvas.text(title, self.title, self.px(32), TEXT, align="left")
        canvas.text(hint, self.hint, self.px(22), TEXT_DIM, align="left")
        canvas.region("names", self.area)
        clip = canvas.surface.get_clip()
        canvas.surface.set_clip(self.area)
        try:
            for b in self.buttons:
                if b.name.startswith(PERSON):
                    self._draw_name(canvas, b)
        finally:
            canvas.surface.set_clip(clip)
        draw_scrollbar(canvas, self.bar, self.scroll)
        for b in self._fixed:
            b.draw(canvas)

    def _draw_name(self, canvas: Canvas, b: Button) -> None:
        """A name's button: its picture, the name, and how many games it played."""
        name = b.name.removeprefix(PERSON)
        r = b.rect
        canvas.box(r, BUTTON_DOWN if b.pressed else BUTTON, radius=max(4, r.height // 5))
        if self.area.contains(r):
            canvas.target(b.name, r)
        pad = max(4, r.height // 8)
        pic = pygame.Rect(r.left + pad, r.top + pad, r.height - 2 * pad, r.height - 2 * pad)
        draw_avatar(canvas, Seat(name, self.pictures.get(name, "")),
                    list(self.counts).index(name), pic)
        games = self.counts[name]
        count = ngettext("{n} game", "{n} games", games).format(n=games)
        text = pygame.Rect(pic.right + pad, r.top + pad, r.right - pic.right - 3 * pad,
                           r.height - 2 * pad)
        px = max(self.px(26), canvas.least_px)
        small = max(self.px(18), canvas.least_px)
        top, low = text.copy(), text.copy()
        top.height = round(text.height * 0.58)
        low.top, low.height = top.bottom, text.bottom - top.bottom
        canvas.text(shortened(name, px, top.width), top, px, TEXT, align="left")
        canvas.text(shortened(count, small, low.width), low, small,
                    ACCENT if self.old is None else TEXT_DIM, align="left")

    # ------------------------------------------------------------ the steps

    def _pick(self, name: str) -> Callable[[], None]:
        def act() -> None:
            if self.old is None:
                self.old = name
                self.scroll.to(0)
                self.layout()
            else:
                self._ask(self.old, name)

        return act

    def _ask(self, old: str, new: str) -> None:
        both = sum(1 for g in self.history.games
                   if {old, new} <= {p.name for p in g.players if p.is_human})
        moving = self.counts[old] - both
        if not moving:  # every game of the old name had the new one at the table too
            self.app.notify(_("{old} and {new} played every game together: there is nothing "
                              "to merge.").format(old=old, new=new))
            return
        text = ngettext("Count {old}'s {n} game as {new}'s?",
                        "Count {old}'s {n} games as {new}'s?", moving).format(
                            old=old, n=moving, new=new)
        if both:
            text += " " + ngettext("{n} game in which both played stays as it is.",
                                   "The {n} games in which both played stay as they are.",
                                   both).format(n=both)
        # Merging back would take the new name's own games along: say so before.
        text += " " + _("This cannot be undone.")
        self.app.show(ConfirmScreen(self.app, title=_("Merge names?"), text=text,
                                    yes=_("Merge"), no=_("Back"),
                                    act=lambda: self._merge(old, new),
                                    back=lambda: self.app.show(self)))

    def _merge(self, old: str, new: str) -> None:
        try:
            merged = self.history.merge(old, new)
        except OSError as exc:
            self._done(cannot_merge(exc, self.history.dir))
            return
        self._done(merged_notice(old, new, merged.changed, merged.skipped))

    def back(self) -> None:
        """Back a step: from the new name to the old, from the old out."""
        if self.old is not None:
            self.old = None
            self.scroll.to(0)
            self.layout()
        else:
            self._back()

    # ------------------------------------------------------------ dragging the list

    def pointer_down(self, pos: Pos) -> None:
        inside = self.area.collidepoint(pos)
        if inside:
            self.scroll.press(pos[1])
        hit = next((b for b in reversed(self.buttons) if b.hit(pos)), None)
        if hit is not None and hit.name.startswith(PERSON) and not inside:
            return  # a name scrolled out from under the title or the buttons
        super().pointer_down(pos)

    def pointer_move(self, pos: Pos) -> None:
        if self.scroll.drag(pos[1], self.px(10)):
            pressed = self._pressed
            if pressed is not None and pressed.name.startswith(PERSON):
                pressed.pressed = False  # a drag, not a tap on that name
                self._pressed = None
            if self._pressed is None:
                self._place_rows()
            return
        super().pointer_move(pos)

    def pointer_up(self, pos: Pos, *, after_long: bool = False) -> None:
        self.scroll.release()
        super().pointer_up(pos, after_long=after_long)
