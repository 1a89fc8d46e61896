"""How the play screen looks: where its parts are and how each is drawn, from the session's
public view (R22) and the interaction state (:mod:`.play_states`), which drawing only reads.

:class:`PlayPicture` is the drawing half of :class:`~.play.PlayScreen`; the other half turns
input into state changes and carries out their effects.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pygame

from ...i18n import _, ngettext
from ...rules.constants import CLANS
from ..canvas import Canvas, numeral, rendered
from ..icons import chip_icon, draw_arrow, draw_spinner, hut_icon
from ..layout import split_h, split_v
from ..panel import (
    draw_avatar,
    draw_chips,
    draw_epoch_chart,
    draw_score_track,
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
from .base import Pos, Screen
from .play_states import Dragging, PlayState

if TYPE_CHECKING:
    from ...session import Session
    from ..board_view import BoardView
    from ..layout import Layout

SPIN_MS = 125  # the thinking indicator's frame time (8 frames a second, a small redraw)


class PlayPicture(Screen):
    """The play screen's geometry and drawing. It reads ``state`` and ``toast`` and never
    changes them."""

    session: Session
    state: PlayState
    lay: Layout | None
    bv: BoardView | None

    toast: tuple[str, int] | None

    # ------------------------------------------------------------ where things are

    def chart_rect(self) -> pygame.Rect:
        """Where the epoch chart is drawn."""
        return self._strip_parts()[0]

    def seat_spot(self, seat: int) -> pygame.Rect:
        """Where seat ``seat``'s peek button (or, for a computer, its thinking indicator)
        is."""
        return self._eye_rect(self._seat_rows()[seat])

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
        lay, bv, state = self.lay, self.bv, self.state
        assert lay is not None and bv is not None
        obs = self.session.public()
        canvas.fill(BG)
        canvas.fill(PANEL, lay.panel)
        canvas.region("panel", lay.panel)
        order = state.order
        marked = order.chosen if order is not None else ()
        targets = order.founds if order is not None else self._targets()
        bv.draw(canvas, obs, selected=state.selected, targets=targets, marked=marked,
                show_last_move=state.anim is None)
        if isinstance(state.mode, Dragging):
            draw_arrow(canvas.surface, bv.anchors[state.mode.src], state.mode.pos, SELECT,
                       max(3, bv.hut // 5))
        clip = canvas.surface.get_clip()  # a partial redraw skips what it cannot touch
        if clip.colliderect(lay.strip):
            self._draw_strip(canvas)
        if order is not None:
            self._draw_order(canvas)
        else:
            self._draw_panel(canvas, clip)
        for b in self.buttons:
            if clip.colliderect(b.rect):
                b.draw(canvas)
        if state.anim is not None:
            self._draw_anim(canvas)
        if state.info is not None:
            self._draw_info(canvas, state.info)
        if self.toast is not None:
            self._draw_toast(canvas, self.toast[0])
        if state.dialog is not None:
            self._draw_dialog(canvas)

    def _targets(self) -> tuple[int, ...]:
        src = self.state.selected
        return () if src is None else self.session.legal_targets(src)

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
        thinking = self.app.table.thinking_seat()
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
        return _("Tap where to move") if self.state.selected is not None else _(
            "Tap huts to move them")

    def _draw_order(self, canvas: Canvas) -> None:
        """The order choice (R11, R18): each slot's chip, epoch and bonus, and the village
        the mover has put in it."""
        lay, order = self.lay, self.state.order
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
        anim = self.state.anim
        assert bv is not None and anim is not None
        now = self.app.clock()
        cur = anim.at(now)
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

    def notice_area(self) -> pygame.Rect:
        """The app's notices go over the chart strip too (under the toast), off the board."""
        assert self.lay is not None
        return self.lay.strip

    def _draw_toast(self, canvas: Canvas, text: str) -> None:
        lay = self.lay
        assert lay is not None
        # Over the chart strip under the board, never over the board: a refusal must not
        # hide a territory the player is about to tap (a village during the order choice).
        area = lay.strip
        w = min(area.width - 2 * lay.pad, round(420 * lay.scale))
        r = pygame.Rect(0, 0, w, min(round(lay.unit * 0.85), area.height - 2 * lay.pad))
        r.midtop = (area.centerx, area.top + lay.pad)
        canvas.box(r, (20, 20, 24), radius=r.height // 2, border=BAD)
        canvas.region("toast", r)
        canvas.text(text, r.inflate(-lay.pad * 3, -4), lay.px(19), TEXT)

    def _draw_dialog(self, canvas: Canvas) -> None:
        lay, dialog = self.lay, self.state.dialog
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

