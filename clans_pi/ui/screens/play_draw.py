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
from ...rules import END_TWELFTH_VILLAGE
from ...rules.constants import CLANS
from ..board_view import ORDER_PLATE
from ..canvas import Canvas, line_size, numeral, rendered, shortened, shortened_in, text_width
from ..icons import count_badge, draw_arrow, draw_eye, draw_spinner, hut_icon
from ..layout import split_h, split_v
from ..panel import (
    BAD_MARK,
    GOOD,
    draw_avatar,
    draw_chips,
    draw_epoch_table,
    draw_good_bad,
    draw_score_track,
    terrain_tile,
)
from ..theme import (
    ACCENT,
    BAD,
    BG,
    BUTTON_DOWN,
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
        return self._panel_parts()["chart"]

    def seat_spot(self, seat: int) -> pygame.Rect:
        """Seat ``seat``'s card in the players' row: a person's opens their peek; a
        computer's shows its thinking indicator."""
        return self._seat_rows()[seat]

    def _panel_parts(self) -> dict[str, pygame.Rect]:
        """The panel's parts, one above the other: "header" (whose turn), "scores",
        "chart" and "buttons" (the buttons' area, two rows)."""
        lay = self.lay
        assert lay is not None
        u, pad = lay.unit, lay.pad
        panel = lay.panel.inflate(-2 * pad, -2 * pad)
        rows = self._button_count() - 1  # see PlayScreen._build_buttons
        buttons_h = rows * u + (rows - 1) * pad
        header = pygame.Rect(panel.left, panel.top, panel.width, round(u * 1.45))
        buttons = pygame.Rect(panel.left, panel.bottom - buttons_h, panel.width, buttons_h)
        middle = pygame.Rect(panel.left, header.bottom + pad, panel.width,
                             buttons.top - pad - header.bottom - pad)
        if middle.height > 10 * u:  # a tall column: the table keeps its natural rows
            middle.height = 10 * u
        scores, chart = split_v(middle, 1, 1.2, gap=pad)
        return {"header": header, "scores": scores, "chart": chart, "buttons": buttons}

    def _button_count(self) -> int:
        return 4 if self.app.hints and self.app.bots is not None else 3

    def _header_rect(self) -> pygame.Rect:
        return self._panel_parts()["header"]

    def _seat_rows(self) -> list[pygame.Rect]:
        """Each seat's card under the board, in table order: side by side, or one above
        the other where the room under the board is tall (a turned board)."""
        lay = self.lay
        assert lay is not None
        area = lay.strip.inflate(-2 * lay.pad, -2 * lay.pad)
        n = self.session.num_seats
        if area.height >= n * round(lay.unit * 1.4):
            h = min(round(lay.unit * 1.8), (area.height - (n - 1) * lay.pad) // n)
            return [pygame.Rect(area.left, area.top + k * (h + lay.pad), area.width, h)
                    for k in range(n)]
        return split_h(area, *([1] * n), gap=lay.pad)

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
        elif clip.colliderect(lay.panel):
            self._draw_panel(canvas, clip)
        for b in self.buttons:
            if b.name.startswith("peek"):
                canvas.target(b.name, b.rect)  # drawn as its seat's card
            elif clip.colliderect(b.rect):
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

    def _draw_strip(self, canvas: Canvas) -> None:
        """The players' row: each seat's picture, name and chips; a person's card is the
        button that opens their peek (the eye says so), a computer's shows it thinking."""
        lay = self.lay
        assert lay is not None
        session = self.session
        obs = session.public()
        cur = session.current_seat
        thinking = self.app.table.thinking_seat()
        canvas.region("players", lay.strip)
        for k, card in enumerate(self._seat_rows()):
            s = session.seats[k]
            active = k == cur
            button = next((b for b in self.buttons if b.name == f"peek{k}"), None)
            fill = BUTTON_DOWN if button is not None and button.pressed else (
                PANEL_HI if active else CARD)
            canvas.box(card, fill, radius=8, border=ACCENT if active else None)
            inner = card.inflate(-8, -8)
            held = obs.chips[session.player_of(k)]
            line = round(line_size(max(lay.px(22), canvas.least_px)) * 1.25)
            side = min(inner.height, round(lay.unit * 1.1))
            room = inner.width - side - lay.pad  # for the name beside the picture
            wide = room >= 4 * canvas.least_px
            if inner.height >= 3 * line and (
                    not wide or text_width(s.name, canvas.least_px) > room):
                # A narrow, tall card (1024x768): the picture, then the name and chips
                # under it across the card.
                side = min(inner.width, inner.height - 2 * line - lay.pad,
                           round(lay.unit * 1.4))
                a = pygame.Rect(inner.left, inner.top, side, side)
                name = pygame.Rect(inner.left, inner.bottom - 2 * line, inner.width, line)
                chips = pygame.Rect(inner.left, inner.bottom - line, inner.width, line)
            else:
                a = pygame.Rect(inner.left, inner.centery - side // 2, side, side)
                body = pygame.Rect(a.right + lay.pad, inner.top, inner.right - a.right
                                   - lay.pad, inner.height)
                name, chips = split_v(body, 1.1, 1)
            draw_avatar(canvas, s, k, a)
            # The peek's eye (a computer's thinking wheel) on the picture's corner.
            mark = max(16, round(a.height * 0.42))
            corner = pygame.Rect(a.right - mark + 2, a.bottom - mark + 2, mark, mark)
            if k == thinking:
                pygame.draw.ellipse(canvas.surface, (20, 20, 24), corner)
                draw_spinner(canvas.surface, corner, self.app.clock() // SPIN_MS, ACCENT)
            elif button is not None:
                pygame.draw.ellipse(canvas.surface, (20, 20, 24), corner)
                draw_eye(canvas.surface, corner.inflate(-2, -2), TEXT)
            if not wide and inner.height < 3 * line:  # no room for a name (480x320): the
                body = pygame.Rect(a.right + lay.pad, inner.top, inner.right - a.right
                                   - lay.pad, inner.height)  # picture says who
                draw_chips(canvas, body, held, lay.px(18), count_only=True)
                continue
            canvas.text(shortened(s.name, canvas.least_px, name.width), name, lay.px(22),
                        ACCENT if active else TEXT, align="left",
                        min_px=canvas.least_px)
            draw_chips(canvas, chips, held, lay.px(18))

    def _draw_panel(self, canvas: Canvas, clip: pygame.Rect) -> None:
        lay = self.lay
        assert lay is not None
        parts = self._panel_parts()
        session = self.session
        obs = session.public()
        seat = session.seats[session.current_seat]
        header = parts["header"]
        top, sub = split_v(header, 1, 1.5)
        if obs.end is not None:  # the last move is shown before the reveal: nobody's turn
            canvas.text(_("Game over"), top, lay.px(24), TEXT, align="left",
                        min_px=canvas.least_px)
            why = _("12th village") if obs.end == END_TWELFTH_VILLAGE else _("no move left")
            canvas.paragraph(_("Move {n} · {doing}").format(n=obs.ply, doing=why), sub,
                             lay.px(18), TEXT_DIM, align="left")
        else:
            turn = shortened_in(lambda n: _("{name}'s turn").format(name=n[0]), [seat.name],
                                canvas.least_px, top.width, lay.px(4))
            canvas.text(turn, top, lay.px(24), TEXT, align="left", min_px=canvas.least_px)
            canvas.paragraph(_("Move {n} · {doing}").format(n=obs.ply + 1,
                                                           doing=self._doing(seat.is_human)),
                             sub, lay.px(18), TEXT_DIM, align="left")
        draw_score_track(canvas, parts["scores"], obs, lay.px(22), self.app.look)
        draw_epoch_table(canvas, parts["chart"], self.session.chart, obs.chips_taken,
                         obs.epoch if obs.end is None else 0, lay.px(18))

    def _doing(self, human: bool) -> str:
        """The header's second line: what the player to move does now."""
        if not human:
            return _("thinking about its move")
        return _("Tap where to move") if self.state.selected is not None else _(
            "Tap huts to move them")

    def _draw_order(self, canvas: Canvas) -> None:
        """The order choice (R11): a slot per new village in founding order, each with its
        epoch and bonus (R15) and, once a village is put in it, that village's terrain told
        apart by colour, mark and word (favourable, neutral, hostile: R14) and what it is
        worth there."""
        lay, order = self.lay, self.state.order
        assert lay is not None and order is not None
        parts = self._panel_parts()
        header = parts["header"]
        area = parts["scores"].union(parts["chart"])
        seat = self.session.seats[self.session.current_seat]
        top, sub = split_v(header, 1, 1.5)
        n = len(order.founds)
        canvas.text(ngettext("{n} new village", "{n} new villages", n).format(n=n), top,
                    lay.px(22), TEXT, align="left", min_px=canvas.least_px)
        canvas.paragraph(_("{name}: tap them in the order to found them").format(
            name=seat.name), sub, lay.px(18), TEXT_DIM, align="left")
        slot_h = min((area.height - (n - 1) * lay.pad) // n, round(lay.unit * 1.75))
        for k in range(n):
            row = pygame.Rect(area.left, area.top + k * (slot_h + lay.pad), area.width, slot_h)
            t = order.chosen[k] if k < len(order.chosen) else None
            self._draw_slot(canvas, row, k, t, order.src, order.dst)

    def _draw_slot(self, canvas: Canvas, row: pygame.Rect, k: int, t: int | None, src: int,
                   dst: int) -> None:
        lay = self.lay
        assert lay is not None
        slot = self.session.slot_preview(k)
        terrain = self.session.board.terrain(t) if t is not None else None
        effect = None
        if terrain is not None and slot.chip is not None:
            effect = ("favourable" if terrain in slot.favourable else
                      "hostile" if terrain in slot.hostile else "neutral")
        edge = {"favourable": GOOD, "hostile": BAD_MARK}.get(effect or "")
        canvas.box(row, CARD, radius=6, border=edge)
        inner = row.inflate(-6, -4)
        lines = split_v(inner, 1, 1, 1)
        # The slot's number on the same purple plate as the village's on the board.
        ink = max(8, min(lines[0].height - 8, round(12 * lay.scale)))
        plate = count_badge(k + 1, ink, ORDER_PLATE, (255, 255, 255), (20, 20, 24))
        badge = plate.get_rect(midleft=(inner.left, lines[0].centery))
        canvas.surface.blit(plate, badge)
        line1 = pygame.Rect(badge.right + lay.pad, lines[0].top,
                            inner.right - badge.right - lay.pad, lines[0].height)
        if slot.chip is None:
            canvas.text(_("No chip left"), line1, lay.px(18), BAD, align="left")
        else:
            canvas.text(_("Epoch {epoch} · +{bonus}").format(epoch=roman(slot.epoch or 0),
                                                            bonus=slot.bonus),
                        line1, lay.px(18), TEXT, align="left")
        if t is None or terrain is None:
            canvas.text(_("tap a village"), lines[1], lay.px(18), TEXT_DIM, align="left")
            return
        tile = pygame.Rect(lines[1].left, lines[1].top + 1, lines[1].height - 2,
                           lines[1].height - 2)
        terrain_tile(canvas, terrain, tile)
        word = pygame.Rect(tile.right + 4, lines[1].top, inner.right - tile.right - 4,
                           lines[1].height)
        if effect is None:
            canvas.text(_(TERRAIN_LABEL[terrain]), word, lay.px(18), TEXT_DIM, align="left")
        else:
            mark = pygame.Rect(word.left, word.top + 2, word.height - 4, word.height - 4)
            if effect != "neutral":
                draw_good_bad(canvas.surface, mark, effect == "favourable")
                word = pygame.Rect(mark.right + 3, word.top, word.right - mark.right - 3,
                                   word.height)
            label = {"favourable": _("favourable"), "hostile": _("hostile"),
                     "neutral": _("neutral")}[effect]
            canvas.text(label, word, lay.px(18), edge or TEXT_DIM, align="left")
        value = self.session.village_worth(src, dst, t, k)
        if effect == "hostile":
            worth = _("0: huts lost")
        elif slot.chip is None:
            worth = _("not scored")
        else:
            worth = _("worth {value}").format(value=value)
        canvas.text(worth, lines[2], lay.px(20), TEXT if value else TEXT_DIM, align="left")

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

    notice_from_top = True

    def notice_area(self) -> pygame.Rect:
        """The app's notices hang in the panel under the score track, over the epoch chart
        (and the buttons, when their words need the room): off the board, away from the
        toast over the players' row, and never over whose turn it is or the scores (a
        notice of the settings stays a minute)."""
        lay = self.lay
        assert lay is not None
        top = self._panel_parts()["scores"].bottom
        return pygame.Rect(lay.panel.left, top, lay.panel.width, lay.panel.bottom - top)

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

