"""The play screen: the board, whose turn it is, the epoch chart and scores, and moves by
tap or drag, with the village order choice, undo, a territory's details and the peeks.

Everything drawn comes from the session's public view (R22); the only thing that ever shows
a clan is the peek screen this one opens for one seat. A computer player's turn shows a
thinking indicator on its row; its move comes through :meth:`PlayScreen.computer_move`, the
same path as a person's. A hint (when on) is drawn from the suggestion the app's computer
players made from the asking person's own view.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pygame

from ...i18n import _, ngettext
from ...rules.constants import CLANS
from ...rules.events import Event
from ...rules.moves import Move
from ...session import Session
from ..animation import Animation, steps_for
from ..board_view import BoardView
from ..canvas import Canvas, numeral, rendered
from ..guide_overlay import spot_circle
from ..icons import chip_icon, draw_arrow, draw_eye, draw_spinner, hut_icon
from ..layout import Layout, play_layout, split_h, split_v
from ..panel import (
    draw_avatar,
    draw_chips,
    draw_epoch_chart,
    draw_score_track,
    epoch_columns,
    terrain_tile,
)
from ..theme import (
    ACCENT,
    BAD,
    BG,
    CARD,
    PANEL,
    PANEL_HI,
    SELECT,
    TERRAIN_LABEL,
    TEXT,
    TEXT_DIM,
    roman,
)
from ..widgets import Button
from .base import Pos, Screen, Spot

if TYPE_CHECKING:
    from ...table.guide import Tip
    from .base import Host

TOAST_MS = 2200
SPIN_MS = 125  # the thinking indicator's frame time (8 frames a second, a small redraw)
HINT = (236, 112, 222)  # the hint's arrow and outline: no clan's colour


@dataclass
class OrderChoice:
    """A move that founds several villages, waiting for the mover's order (R11)."""

    src: int
    dst: int
    founds: tuple[int, ...]
    chosen: list[int] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return len(self.chosen) == len(self.founds)


@dataclass
class Dialog:
    """A question over the board with its answers as buttons."""

    title: str
    text: str
    answers: list[tuple[str, str, str]]  # (button name, label, style)


class PlayScreen(Screen):
    name = "play"

    def __init__(self, app: Host, session: Session) -> None:
        super().__init__(app)
        self.session = session
        self.selected: int | None = None
        self.drag_from: int | None = None
        self.drag_pos: Pos | None = None
        self.order: OrderChoice | None = None
        self.dialog: Dialog | None = None
        self.info: int | None = None
        self.toast: tuple[str, int] | None = None
        self.anim: Animation | None = None
        self.lay: Layout | None = None
        self.bv: BoardView | None = None
        self._spun: tuple[int | None, int] = (None, 0)  # (thinking seat, frame) drawn

    # ------------------------------------------------------------ layout

    def layout(self) -> None:
        lay = play_layout(self.size, self.session.board.aspect)
        if self.bv is None or self.bv.rect != lay.board:
            self.bv = BoardView(self.session.board, lay.board, self.app.look)
        self.lay = lay
        self._build_buttons()

    def _build_buttons(self) -> None:
        lay = self.lay
        assert lay is not None
        u, pad = lay.unit, lay.pad
        panel = lay.panel.inflate(-2 * pad, -2 * pad)
        self.buttons = []
        if self.dialog is not None:
            card = self._dialog_rect()
            row = pygame.Rect(card.left + pad, card.bottom - u - pad, card.width - 2 * pad, u)
            for (name, label, style), r in zip(
                self.dialog.answers, split_h(row, *[1] * len(self.dialog.answers), gap=pad),
                strict=True,
            ):
                self.buttons.append(Button(name, r, label, self._answer(name), style=style,
                                           px=lay.px(20)))
            return
        bottom = pygame.Rect(panel.left, panel.bottom - u, panel.width, u)
        if self.order is not None:
            found, reset, back = split_h(bottom, 1.3, 1, 1, gap=pad)
            self.buttons += [
                # TRANSLATORS: the button that founds the new villages in the chosen order.
                Button("found", found, _("Found"), self._found, enabled=self.order.complete,
                       style="primary", px=lay.px(20)),
                Button("order_reset", reset, _("Again"), self._order_reset,
                       enabled=bool(self.order.chosen), px=lay.px(18)),
                Button("order_cancel", back, _("Back"), self._order_cancel, px=lay.px(18)),
            ]
            return
        if self.app.hints and self.app.bots is not None:
            hint, undo, rules, menu = split_h(bottom, 1, 1, 1, 1, gap=pad)
            self.buttons.append(Button("hint", hint, _("Hint"), self.app.computers.ask_hint,
                                       enabled=self.app.computers.can_hint(), px=lay.px(18)))
        else:
            undo, rules, menu = split_h(bottom, 1, 1, 1, gap=pad)
        self.buttons += [
            Button("undo", undo, _("Undo"), self._ask_undo, enabled=self.session.can_undo,
                   px=lay.px(18)),
            Button("rules", rules, _("Rules"), lambda: self.app.rules(self.app.play),
                   px=lay.px(18)),
            Button("menu", menu, _("Menu"), self._ask_menu, px=lay.px(18)),
        ]
        for seat, row in enumerate(self._seat_rows()):
            if not self.session.seats[seat].is_human:
                continue  # a computer player has no peek: its clan is never shown (R22)
            self.buttons.append(Button(f"peek{seat}", self._eye_rect(row), "",
                                       self._peek(seat), draw_icon=draw_eye))

    def _eye_rect(self, row: pygame.Rect) -> pygame.Rect:
        """The peek button's place on a seat's row (a computer's thinking indicator's)."""
        u = self.lay.unit if self.lay is not None else 48
        return pygame.Rect(row.right - u, row.centery - u // 2, u, u)

    def _panel_parts(self) -> tuple[pygame.Rect, pygame.Rect]:
        """(header, seat list) inside the panel, above the bottom buttons."""
        lay = self.lay
        assert lay is not None
        u, pad = lay.unit, lay.pad
        panel = lay.panel.inflate(-2 * pad, -2 * pad)
        header = pygame.Rect(panel.left, panel.top, panel.width, round(u * 1.25))
        seats = pygame.Rect(panel.left, header.bottom + pad, panel.width,
                            panel.bottom - u - pad - header.bottom - pad)
        return header, seats

    def _header_rect(self) -> pygame.Rect:
        return self._panel_parts()[0]

    def _seat_rows(self) -> list[pygame.Rect]:
        lay = self.lay
        assert lay is not None
        area = self._panel_parts()[1]
        n = self.session.num_seats
        h = min(round(lay.unit * 1.2), (area.height - (n - 1) * lay.pad) // n)
        return [pygame.Rect(area.left, area.top + k * (h + lay.pad), area.width, h)
                for k in range(n)]

    def _dialog_rect(self) -> pygame.Rect:
        lay = self.lay
        assert lay is not None
        w = min(self.size[0] - 2 * lay.pad, round(420 * lay.scale))
        h = min(self.size[1] - 2 * lay.pad, round(220 * lay.scale))
        r = pygame.Rect(0, 0, w, h)
        r.center = self.rect.center
        return r

    # ------------------------------------------------------------ drawing

    def draw(self, canvas: Canvas) -> None:
        lay, bv = self.lay, self.bv
        assert lay is not None and bv is not None
        obs = self.session.public()
        canvas.fill(BG)
        canvas.fill(PANEL, lay.panel)
        canvas.region("panel", lay.panel)
        hint = self._hint()
        marked = self.order.chosen if self.order is not None else (
            hint.order or () if hint is not None else ())
        targets = self.order.founds if self.order is not None else self._targets()
        bv.draw(canvas, obs, selected=self.selected if self.order is None else None,
                targets=targets, marked=marked, show_last_move=self.anim is None)
        if hint is not None:
            self._draw_hint(canvas, hint)
        if self.drag_from is not None and self.drag_pos is not None:
            draw_arrow(canvas.surface, bv.anchors[self.drag_from], self.drag_pos, SELECT,
                       max(3, bv.hut // 5))
        clip = canvas.surface.get_clip()  # a partial redraw skips what it cannot touch
        if clip.colliderect(lay.strip):
            self._draw_strip(canvas)
        if self.order is not None:
            self._draw_order(canvas)
        else:
            self._draw_panel(canvas, clip)
        for b in self.buttons:
            if clip.colliderect(b.rect):
                b.draw(canvas)
        if self.anim is not None:
            self._draw_anim(canvas)
        if self.info is not None:
            self._draw_info(canvas, self.info)
        if self.toast is not None:
            self._draw_toast(canvas, self.toast[0])
        if self.dialog is not None:
            self._draw_dialog(canvas)

    def _hint(self) -> Move | None:
        """The suggested move to show, if the person to move asked for one."""
        if self.order is not None or self.anim is not None:
            return None
        return self.app.computers.hint_state()[1]

    def _draw_hint(self, canvas: Canvas, move: Move) -> None:
        bv = self.bv
        assert bv is not None
        width = max(3, round(bv.hut / 5))
        bv.highlight(canvas.surface, move.src, HINT, width)
        bv.highlight(canvas.surface, move.dst, HINT, width)
        (x1, y1), (x2, y2) = bv.anchors[move.src], bv.anchors[move.dst]
        d = math.hypot(x2 - x1, y2 - y1) or 1
        back = min(bv.hut * 0.9, d * 0.3)
        draw_arrow(canvas.surface, (x1, y1), (x2 - (x2 - x1) / d * back,
                                              y2 - (y2 - y1) / d * back), HINT, width)

    def _targets(self) -> tuple[int, ...]:
        return () if self.selected is None else self.session.legal_targets(self.selected)

    def _strip_parts(self) -> tuple[pygame.Rect, pygame.Rect]:
        """(epoch chart, score track) in the strip."""
        lay = self.lay
        assert lay is not None
        strip = lay.strip.inflate(-2 * lay.pad, -2 * lay.pad)
        chart, scores = split_h(strip, 1.45, 1, gap=lay.pad)
        return chart, scores

    def _draw_strip(self, canvas: Canvas) -> None:
        lay = self.lay
        assert lay is not None
        chart, scores = self._strip_parts()
        obs = self.session.public()
        draw_epoch_chart(canvas, chart, self.session.chart, obs, lay.px(15))
        draw_score_track(canvas, scores, obs, lay.px(16), self.app.look)

    def _draw_panel(self, canvas: Canvas, clip: pygame.Rect) -> None:
        lay = self.lay
        assert lay is not None
        header = self._panel_parts()[0]
        session = self.session
        obs = session.public()
        cur = session.current_seat
        seat = session.seats[cur]
        av = pygame.Rect(header.left, header.top, header.height, header.height)
        draw_avatar(canvas, seat, cur, av)
        text = pygame.Rect(av.right + lay.pad, header.top, header.right - av.right - lay.pad,
                           header.height)
        top, sub = split_v(text, 1.2, 1)
        canvas.text(_("{name}'s turn").format(name=seat.name), top, lay.px(24), TEXT,
                    align="left")
        canvas.text(_("Move {n} · {doing}").format(n=obs.ply + 1,
                                                   doing=self._doing(seat.is_human)),
                    sub, lay.px(15), TEXT_DIM, align="left")
        thinking = self.app.computers.thinking_seat()
        for k, row in enumerate(self._seat_rows()):
            if not clip.colliderect(row):
                continue
            s = session.seats[k]
            active = k == cur
            canvas.box(row, PANEL_HI if active else CARD, radius=6,
                       border=ACCENT if active else None)
            a = pygame.Rect(row.left + 4, row.top + 4, row.height - 8, row.height - 8)
            draw_avatar(canvas, s, k, a)
            body = pygame.Rect(a.right + lay.pad, row.top + 2,
                               row.width - a.width - lay.unit - 3 * lay.pad - 4, row.height - 4)
            name, chips = split_v(body, 1.1, 1)
            canvas.text(s.name, name, lay.px(19), TEXT, align="left")
            draw_chips(canvas, chips, obs.chips[session.player_of(k)], lay.px(14))
            if k == thinking:
                spot = self._eye_rect(row).inflate(-lay.pad, -lay.pad)
                draw_spinner(canvas.surface, spot, self.app.clock() // SPIN_MS, ACCENT)

    def _doing(self, human: bool) -> str:
        """The header's second line: what the player to move does now."""
        if not human:
            return _("thinking about its move")
        state, _move = self.app.computers.hint_state()
        if state == "thinking":
            return _("looking for a hint")
        if state == "ready":
            return _("Hint: the pink arrow")
        return _("Tap where to move") if self.selected is not None else _(
            "Tap huts to move them")

    def _draw_order(self, canvas: Canvas) -> None:
        """The order choice (R11, R18): each slot's chip, epoch and bonus, and the village
        the mover has put in it."""
        lay, order = self.lay, self.order
        assert lay is not None and order is not None
        header, area = self._panel_parts()
        seat = self.session.seats[self.session.current_seat]
        top, sub = split_v(header, 1.2, 1)
        n = len(order.founds)
        canvas.text(ngettext("{name}: {n} new village", "{name}: {n} new villages", n).format(
            name=seat.name, n=n), top, lay.px(22), TEXT, align="left")
        canvas.text(_("Tap them in the order to found them"), sub, lay.px(15), TEXT_DIM,
                    align="left")
        h = min(round(lay.unit * 1.15), (area.height - (n - 1) * 4) // n)
        board = self.session.board
        for k in range(n):
            row = pygame.Rect(area.left, area.top + k * (h + 4), area.width, h)
            canvas.box(row, CARD, radius=6)
            slot = self.session.slot_preview(k)
            badge = pygame.Rect(row.left + 4, row.centery - (h - 8) // 2, h - 8, h - 8)
            canvas.surface.blit(chip_icon(k + 1, badge.width, SELECT, (20, 20, 24)), badge)
            body = pygame.Rect(badge.right + lay.pad, row.top + 2,
                               row.right - badge.right - 2 * lay.pad, row.height - 4)
            line1, line2 = split_v(body, 1, 1)
            if slot.chip is None:
                canvas.text(_("No chip left: not scored"), line1, lay.px(15), BAD,
                            align="left")
            else:
                canvas.text(_("Chip {chip} · Epoch {epoch} · +{bonus}").format(
                    chip=slot.chip, epoch=roman(slot.epoch or 0), bonus=slot.bonus),
                    line1, lay.px(15), TEXT, align="left")
            if k < len(order.chosen):
                t = order.chosen[k]
                terrain = board.terrain(t)
                tile = pygame.Rect(line2.left, line2.top + 2, line2.height - 4,
                                   line2.height - 4)
                terrain_tile(canvas, terrain, tile)
                rest = pygame.Rect(tile.right + 4, line2.top, line2.right - tile.right - 4,
                                   line2.height)
                name = _(TERRAIN_LABEL[terrain])
                if slot.chip is None:
                    effect = name
                elif terrain in slot.favourable:
                    effect = _("{terrain} · favourable, +{bonus}").format(terrain=name,
                                                                         bonus=slot.bonus)
                elif terrain in slot.hostile:
                    effect = _("{terrain} · hostile, huts lost").format(terrain=name)
                else:
                    effect = _("{terrain} · neutral").format(terrain=name)
                canvas.text(effect, rest, lay.px(14), ACCENT, align="left")
            else:
                canvas.text(_("tap a village"), line2, lay.px(14), TEXT_DIM, align="left")

    def _draw_anim(self, canvas: Canvas) -> None:
        bv = self.bv
        assert bv is not None and self.anim is not None
        now = self.app.clock()
        cur = self.anim.at(now)
        if cur is None:
            return
        step, p = cur
        surf = canvas.surface
        s = bv.hut
        if step.kind == "moved":
            (x1, y1), (x2, y2) = bv.anchors[step.src], bv.anchors[step.territory]
            e = 1 - (1 - p) ** 3
            c = (x1 + (x2 - x1) * e, y1 + (y2 - y1) * e)
            r = max(6, round(s * 0.7))
            pygame.draw.circle(surf, (20, 20, 24), c, r + 2)
            pygame.draw.circle(surf, (235, 230, 215), c, r)
            label = numeral(str(step.huts), max(9, round(r * 1.2)), (20, 20, 24))
            surf.blit(label, label.get_rect(center=(round(c[0]), round(c[1]))))
        elif step.kind == "founded":
            c = bv.anchors[step.territory]
            pygame.draw.circle(surf, ACCENT, c, round(s * (0.8 + 1.6 * p)), max(2, s // 5))
            self._float_text(canvas, _("Village! chip {chip}").format(chip=step.chip), c, p,
                             ACCENT)
        elif step.kind == "strife":
            c = bv.anchors[step.territory]
            for k, clan in enumerate(step.clans):
                r = pygame.Rect(0, 0, s, s)
                r.center = (round(c[0] + (k - (len(step.clans) - 1) / 2) * s * 1.1),
                            round(c[1] - s * 1.4))
                surf.blit(hut_icon(clan, s, look=self.app.look), r)
                pygame.draw.line(surf, BAD, r.topleft, r.bottomright, max(2, s // 6))
                pygame.draw.line(surf, BAD, r.topright, r.bottomleft, max(2, s // 6))
            self._float_text(canvas, _("Strife!"), c, p, BAD)
        elif step.kind == "scored":
            c = bv.anchors[step.territory]
            if step.effect == "hostile":
                self._float_text(canvas, _("Hostile: 0"), c, p, BAD)
            else:
                self._float_text(canvas, f"+{step.value}", c, p, ACCENT, big=True)
        elif step.kind == "unscored":
            self._float_text(canvas, _("No chip left"), bv.anchors[step.territory], p,
                             TEXT_DIM)
        elif step.kind == "epoch":
            band = pygame.Rect(bv.rect.left, bv.rect.centery - s * 2, bv.rect.width, s * 4)
            shade = pygame.Surface(band.size, pygame.SRCALPHA)
            shade.fill((0, 0, 0, round(170 * math.sin(math.pi * min(1.0, p)) + 40)))
            surf.blit(shade, band)
            canvas.text(_("Epoch {epoch} begins").format(epoch=roman(step.epoch)), band,
                        round(s * 2), ACCENT)

    def _float_text(self, canvas: Canvas, text: str, at: Pos, p: float, color: tuple[int, ...],
                    *, big: bool = False) -> None:
        bv = self.bv
        assert bv is not None
        size = round(bv.hut * (1.6 if big else 1.1))
        label = rendered(text, max(10, size), color)  # type: ignore[arg-type]
        r = label.get_rect(center=(round(at[0]), round(at[1] - bv.hut * (1.2 + 1.5 * p))))
        r.clamp_ip(bv.rect)
        back = r.inflate(8, 4)
        pygame.draw.rect(canvas.surface, (20, 20, 24), back, border_radius=back.height // 2)
        canvas.surface.blit(label, r)

    def _draw_info(self, canvas: Canvas, t: int) -> None:
        """A territory's exact huts per clan (long press)."""
        lay, bv = self.lay, self.bv
        assert lay is not None and bv is not None
        obs = self.session.public()
        huts = obs.huts[t]
        present = [(CLANS[c], n) for c, n in enumerate(huts) if n]
        village = next((v for v in obs.villages if v.territory == t), None)
        terrain = self.session.board.terrain(t)
        line = round(lay.unit * 0.8)
        w = round(230 * lay.scale)
        h = line * (1 + max(1, len(present))) + (line if village else 0) + 2 * lay.pad
        card = pygame.Rect(0, 0, w, h)
        ax, ay = bv.anchors[t]
        card.midbottom = (round(ax), round(ay - bv.hut * 1.5))
        if card.top < bv.rect.top:
            card.midtop = (round(ax), round(ay + bv.hut * 1.5))
        card.clamp_ip(lay.board_area)
        canvas.box(card, CARD, radius=8, border=SELECT)
        canvas.region("info", card)
        inner = card.inflate(-2 * lay.pad, -2 * lay.pad)
        y = inner.top
        total = sum(huts)
        title = ngettext("{terrain} · {n} hut", "{terrain} · {n} huts", total).format(
            terrain=_(TERRAIN_LABEL[terrain]), n=total)
        tile = pygame.Rect(inner.left, y + 4, line - 8, line - 8)
        terrain_tile(canvas, terrain, tile)
        canvas.text(title, pygame.Rect(tile.right + 6, y, inner.right - tile.right - 6, line),
                    lay.px(18), TEXT, align="left")
        y += line
        if village is not None:
            worth = (_("Village, chip {chip}, huts removed (hostile)") if village.removed
                     else _("Village, chip {chip}, worth {value}"))
            canvas.text(worth.format(chip=village.chip, value=village.value),
                        pygame.Rect(inner.left, y, inner.width, line), lay.px(15), ACCENT,
                        align="left")
            y += line
        if not present:
            canvas.text(_("empty"), pygame.Rect(inner.left, y, inner.width, line), lay.px(16),
                        TEXT_DIM, align="left")
        for clan, n in present:
            icon = pygame.Rect(inner.left, y + 3, line - 6, line - 6)
            canvas.surface.blit(hut_icon(clan, icon.width, look=self.app.look), icon)
            text = _("{clan}: {count}").format(clan=self.app.look.label(clan), count=n)
            canvas.text(text, pygame.Rect(icon.right + 8, y, inner.right - icon.right - 8, line),
                        lay.px(17), TEXT, align="left")
            y += line

    def _draw_toast(self, canvas: Canvas, text: str) -> None:
        lay = self.lay
        assert lay is not None
        area = lay.board_area
        w = min(area.width - 2 * lay.pad, round(420 * lay.scale))
        r = pygame.Rect(0, 0, w, round(lay.unit * 0.85))
        r.midbottom = (area.centerx, area.bottom - lay.pad)
        canvas.box(r, (20, 20, 24), radius=r.height // 2, border=BAD)
        canvas.region("toast", r)
        canvas.text(text, r.inflate(-lay.pad * 3, -4), lay.px(19), TEXT)

    def _draw_dialog(self, canvas: Canvas) -> None:
        lay, dialog = self.lay, self.dialog
        assert lay is not None and dialog is not None
        shade = pygame.Surface(self.size, pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        canvas.surface.blit(shade, (0, 0))
        card = self._dialog_rect()
        canvas.box(card, CARD, radius=10, border=SELECT)
        canvas.region("dialog", card)
        inner = card.inflate(-2 * lay.pad, -2 * lay.pad)
        title = pygame.Rect(inner.left, inner.top, inner.width, round(lay.unit * 0.8))
        canvas.text(dialog.title, title, lay.px(24), TEXT)
        body = pygame.Rect(inner.left, title.bottom, inner.width,
                           inner.bottom - lay.unit - lay.pad - title.bottom)
        canvas.paragraph(dialog.text, body, lay.px(17), TEXT_DIM, align="center")
        self.draw_buttons(canvas)

    # ------------------------------------------------------------ time

    def wakeup(self) -> int | None:
        due = []
        now = self.app.clock()
        if self.anim is not None:
            due.append(now + 16)  # ~60 frames a second while animating
        if self.toast is not None:
            due.append(self.toast[1])
        if self.app.computers.thinking_seat() is not None:
            due.append((now // SPIN_MS + 1) * SPIN_MS)  # the indicator's next frame
        return min(due) if due else None

    def tick(self, now: int) -> bool:
        if self.session.is_over and self._reveal_when_told():
            return True
        changed = False
        if self.toast is not None and now >= self.toast[1]:
            self.toast = None
            changed = True
        if self.anim is not None:
            changed = True
            if self.anim.done(now):
                self._anim_finished()
        seat = self.app.computers.thinking_seat()
        spun = (seat, now // SPIN_MS if seat is not None else 0)
        if spun != self._spun:
            was, self._spun = self._spun[0], spun
            if not changed and seat is not None and was in (None, seat):
                # Only the indicator moved: redraw its row alone.
                self.partial = [self._seat_rows()[seat]]
            changed = True
        return changed

    def ready_for_computer(self) -> bool:
        """A computer player's move may be played and seen now: nothing else is going on
        (no animation, question or village order)."""
        return self.anim is None and self.dialog is None and self.order is None

    def computer_move(self, move: Move) -> None:
        """Play a computer player's move (the app checked it), as a person's is played."""
        self.selected = None
        self.drag_from = self.drag_pos = None
        self._commit(move.src, move.dst, None if move.order is None else list(move.order))

    def _anim_finished(self) -> None:
        self.anim = None
        self._reveal_when_told()

    def _reveal_when_told(self) -> bool:
        """Once the game is over and its last move is seen (and explained, if the guide had
        something to say about it), the reveal."""
        if self.session.is_over and self.anim is None and not self.app.guide.waiting("play"):
            self.app.reveal()
            return True
        return False

    # ------------------------------------------------------------ the first-game guide

    def guide_ready(self) -> bool:
        """After the move's animation, with no question or village order open."""
        return self.anim is None and self.dialog is None and self.order is None

    def guide_area(self) -> pygame.Rect:
        """The panel: the board and the chart stay in sight for the card to point at."""
        lay = self.lay
        assert lay is not None
        return lay.panel.inflate(-2 * lay.pad, -2 * lay.pad)

    def guide_spots(self, tip: Tip) -> list[Spot]:
        bv = self.bv
        assert bv is not None
        spots = []
        if tip.territory is not None:
            ax, ay = bv.anchors[tip.territory]
            far = max(math.hypot(x - ax, y - ay) for x, y in bv.polygons[tip.territory])
            spots.append(spot_circle((ax, ay), min(max(far, bv.hut * 1.3), bv.hut * 2.6)))
        if tip.epoch is not None:
            cols = epoch_columns(self._strip_parts()[0], self.session.chart)
            spots.append(("rect", cols[tip.epoch - 1]))
        return spots

    # ------------------------------------------------------------ input

    def down(self, pos: Pos) -> None:
        if self.anim is not None:  # tap to skip
            self._anim_finished()
            return
        if self.info is not None:
            self.info = None
            return
        if self.dialog is not None:
            return
        mover = self.session.seats[self.session.current_seat]
        if not mover.is_human:
            self.selected = None
            self.say(_("{name} is thinking: wait for its move").format(name=mover.name))
            return
        bv = self.bv
        assert bv is not None
        t = bv.territory_at(pos)
        if self.order is not None:
            self._order_tap(t)
            return
        if t is None:
            self.selected = None
            return
        if self.selected is not None and t in self._targets():
            self._move(self.selected, t)
            return
        reason = self.session.refusal(t)
        if reason is None:
            self.selected = t
            self.drag_from = t
            self.drag_pos = None
            if self.toast is None and self.info is None and self.lay is not None:
                self.partial = [self._header_rect(), self.lay.board_area]
            return
        if self.selected is not None and t != self.selected:
            reason = self.session.refusal(self.selected, t) or reason
        if t != self.selected:
            self.selected = None
        self.say(reason)

    def move(self, pos: Pos) -> None:
        if self.drag_from is not None:
            area = self.lay.board_area if self.lay is not None else self.rect
            # The drag arrow (head and outline included) stays on the board, so a partial
            # redraw of the board covers it.
            inner = area.inflate(-2 * (self.bv.hut if self.bv else 16), -2 * (
                self.bv.hut if self.bv else 16))
            self.drag_pos = (min(max(pos[0], inner.left), inner.right - 1),
                             min(max(pos[1], inner.top), inner.bottom - 1))
            if self.toast is None and self.info is None:
                self.partial = [area]

    def up(self, pos: Pos) -> None:
        src, self.drag_from = self.drag_from, None
        dragged, self.drag_pos = self.drag_pos, None
        if src is None or dragged is None or self.bv is None:
            self.partial = []  # the end of a tap: nothing to redraw
            return
        t = self.bv.territory_at(pos)
        if t is None or t == src:
            if self.toast is None and self.info is None and self.lay is not None:
                self.partial = [self.lay.board_area]  # only the drag arrow goes away
            return
        if t in self.session.legal_targets(src):
            self._move(src, t)
        else:
            self.say(self.session.refusal(src, t) or _("not there"))

    def long_press(self, pos: Pos) -> bool:
        if self.anim is not None or self.dialog is not None or self.bv is None:
            return False
        t = self.bv.territory_at(pos)
        if t is None:
            return False
        self.info = t
        self.drag_from = self.drag_pos = None
        return True

    def back(self) -> None:
        if self.dialog is not None:
            self._close_dialog()
        elif self.order is not None:
            self._order_cancel()
        elif self.info is not None:
            self.info = None
        else:
            self.selected = None

    def say(self, text: str) -> None:
        """A short message over the board (a refused tap, ...)."""
        self.toast = (text, self.app.clock() + TOAST_MS)

    # ------------------------------------------------------------ moves

    def _move(self, src: int, dst: int) -> None:
        founds = self.session.founds(src, dst)
        self.selected = None
        self.drag_from = self.drag_pos = None
        if len(founds) >= 2:
            self.order = OrderChoice(src, dst, founds)
            self._build_buttons()
            return
        self._commit(src, dst, None)

    def _commit(self, src: int, dst: int, order: list[int] | None) -> None:
        events = self.session.play(src, dst, order)
        self.order = None
        self.toast = None
        self.moved(events)

    def moved(self, events: list[Event]) -> None:
        """After a move: animate it and let the app know (it saves the game)."""
        self.anim = Animation(steps_for(events), self.app.clock())
        self.app.after_move(events)
        self._build_buttons()

    def _order_tap(self, t: int | None) -> None:
        order = self.order
        assert order is not None
        if t is None or t not in order.founds:
            self.say(_("Tap one of the new villages"))
            return
        if t in order.chosen:
            self.say(_("That one is already in the order"))
            return
        order.chosen.append(t)
        left = [v for v in order.founds if v not in order.chosen]
        if len(left) == 1:
            order.chosen.append(left[0])
        self._build_buttons()

    def _found(self) -> None:
        order = self.order
        assert order is not None and order.complete
        self._commit(order.src, order.dst, list(order.chosen))

    def _order_reset(self) -> None:
        assert self.order is not None
        self.order.chosen.clear()
        self._build_buttons()

    def _order_cancel(self) -> None:
        self.order = None
        self._build_buttons()

    # ------------------------------------------------------------ dialogs

    def _peek(self, seat: int):
        return lambda: self.app.peek(seat)

    def _ask_undo(self) -> None:
        obs = self.session.public()
        if not self.session.can_undo or not obs.moves:
            return
        back = self.session.undo_moves
        mover = self.session.seats[self.session.seat_of((obs.current_player - back)
                                                        % self.session.num_seats)]
        if back == 1:
            text = _("{name}'s move (the white arrow) is taken back and {name} moves "
                     "again.").format(name=mover.name)
        else:
            text = ngettext("{name}'s move and the {n} computer move after it are taken back; "
                            "{name} moves again.",
                            "{name}'s move and the {n} computer moves after it are taken "
                            "back; {name} moves again.", back - 1).format(name=mover.name,
                                                                          n=back - 1)
        self.dialog = Dialog(
            _("Take back the last move?"),
            text,
            [("undo_yes", _("Take back"), "danger"), ("undo_no", _("Keep it"), "normal")],
        )
        self._build_buttons()

    def _ask_menu(self) -> None:
        saving = self.app.saving
        if self.app.kiosk:  # the appliance: no desktop to quit to (clans_pi/kiosk.py)
            text = (_("New game ends this game for good. Switch off keeps it: it goes on "
                      "where it was left the next time the table is switched on.") if saving
                    else _("New game ends this game for good. The game cannot be saved now: "
                           "after Switch off it goes on from the last move that was saved."))
            leave = ("menu_off", _("Switch off"), "danger")
        else:
            text = (_("New game ends this game for good. Quit keeps it: it goes on where it "
                      "was left the next time the game is started.") if saving
                    else _("New game ends this game for good. The game cannot be saved now: "
                           "after Quit it goes on from the last move that was saved."))
            leave = ("menu_quit", _("Quit"), "danger")
        self.dialog = Dialog(
            _("Menu"), text,
            [("menu_new", _("New game"), "danger"), leave, ("menu_back", _("Go on"), "primary")],
        )
        self._build_buttons()

    def _answer(self, name: str):
        def act() -> None:
            self._close_dialog()
            if name == "undo_yes" and self.session.can_undo:
                self.session.undo()
                self.selected = None
                self.app.after_undo()
                self._build_buttons()
            elif name == "menu_new":
                self.app.start_menu()
            elif name == "menu_quit":
                self.app.quit()
            elif name == "menu_off":
                self.app.ask_switch_off(back=self.app.play, game_kept=True)

        return act

    def _close_dialog(self) -> None:
        self.dialog = None
        self._build_buttons()
