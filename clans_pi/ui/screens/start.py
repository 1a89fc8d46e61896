"""The start screen: how many players, each seat's name and picture, who plays it (a person
or, when the app has computer players, a computer at Easy, Normal or Hard), then Start.

A table of computer players only is allowed: it is a demonstration that plays itself (and
shows nothing secret, as no seat peeks); Menu stops it like any game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame

from ...i18n import LANGUAGES, _, language, ngettext
from ...rules.constants import MAX_PLAYERS, MIN_PLAYERS
from ...session import HUMAN, Seat
from ..avatars import AVATARS
from ..canvas import Canvas, fit_size, least_px, text_height, text_width
from ..icons import draw_globe, draw_past, draw_power, draw_wifi
from ..layout import split_h, split_v
from ..panel import draw_avatar
from ..seat_kinds import default_name, kind_label, next_kind, with_kind
from ..theme import ACCENT, BG, CARD, PANEL_HI, TEXT, TEXT_DIM
from ..widgets import Button, label_box
from .base import Screen
from .language import LanguageScreen
from .names import NameScreen
from .pair import PairScreen
from .wifi import WifiScreen

if TYPE_CHECKING:
    from .base import Host

#: The sizes of a seat card's lines (at scale 1): the name, whose seat, the hint.
CARD_PX = (26, 16, 15)


def default_seats() -> list[Seat]:
    return [Seat(a.label, a.key) for a in AVATARS[:MAX_PLAYERS]]


class StartScreen(Screen):
    name = "start"

    def __init__(self, app: Host, seats: Sequence[Seat] = ()) -> None:
        super().__init__(app)
        base = default_seats()
        self.all_seats: list[Seat] = list(seats) + base[len(seats):]
        if app.bots is None:  # no computer players to offer: every seat is a person
            self.all_seats = [with_kind(s, HUMAN, k) for k, s in enumerate(self.all_seats)]
        self.count = len(seats) if MIN_PLAYERS <= len(seats) <= MAX_PLAYERS else 3
        devices = app.devices
        # Seats whose player sees their clan on a phone (the settings' at first, then the
        # last game's); a person's seat only.
        self.phones_offered = devices is not None and devices.phones_offered
        self.phones: set[int] = devices.phone_choice() if devices is not None else set()
        self._fix_duplicates()

    def _fix_duplicates(self) -> None:
        """Unused seats past ``count`` keep defaults; make sure no two names or pictures
        clash among the seats in play (a rematch list may be shorter than 4)."""
        used_names = set()
        used_pics = set()
        spare = [a for a in AVATARS]
        for i, s in enumerate(self.all_seats):
            if s.name in used_names or s.avatar in used_pics:
                a = next(a for a in spare if a.label not in used_names and a.key not in used_pics)
                self.all_seats[i] = with_kind(Seat(a.label, a.key), s.kind, i)
            used_names.add(self.all_seats[i].name)
            used_pics.add(self.all_seats[i].avatar)

    @property
    def seats(self) -> list[Seat]:
        return self.all_seats[: self.count]

    def layout(self) -> None:
        w, h = self.size
        u, pad = self.unit, self.px(10)
        top = pygame.Rect(pad, pad, w - 2 * pad, round(u * 1.2))
        lang_w = min(round(u * 3.6), top.width // 3)
        # The title stays centred on the screen, clear of the language button.
        self.title = top.inflate(-2 * (lang_w + pad), 0)
        lang = pygame.Rect(top.right - lang_w, top.top + (top.height - u) // 2, lang_w, u)
        counts = pygame.Rect(pad, self.title.bottom + pad, w - 2 * pad, u)
        label, *cells = split_h(counts, 2.2, 1, 1, 1, gap=pad)
        self.count_label = label
        self.buttons = [Button("language", lang, LANGUAGES[language()], self._language,
                               px=self.px(20), draw_icon=draw_globe)]
        if self.app.kiosk:  # the appliance: switching the table off is a family's job
            off = lang.copy()
            off.left = top.left
            self.buttons.append(Button("switch_off", off, _("Switch off"), self._switch_off,
                                       px=self.px(20), draw_icon=draw_power))
        for n, r in zip(range(MIN_PLAYERS, MAX_PLAYERS + 1), cells, strict=True):
            label = ngettext("{n} player", "{n} players", n).format(n=n)
            self.buttons.append(Button(f"players{n}", r, label, self._set_count(n),
                                       style="primary" if n == self.count else "normal",
                                       px=self.px(20)))
        bottom = pygame.Rect(pad, h - u - pad, w - 2 * pad, u)
        devices = self.app.devices
        pairing = devices is not None and bool(devices.handheld_seats())
        guide = self.app.guide.available
        # The phones' Wi-Fi, on a screen of its own: in the bottom row (only its icon where
        # that is crowded), or in a row of its own above it on an upright screen.
        wifi = self.app.wifi is not None
        wifi_row = wifi and h > w
        wifi_icon = wifi and not wifi_row and bottom.width < (17 if pairing else 12) * u
        wifi_weight = [] if not wifi or wifi_row else [0.6] if wifi_icon else [1.6]
        # Its room comes from Rules and Start, whose words are short.
        narrow = wifi and not wifi_row
        # The past games (when the table keeps them): their symbol and words, or only the
        # symbol where the words would not fit.
        past = self.app.history is not None
        least = least_px(self.size)  # as the canvas draws

        def row(past_weight: float) -> list[pygame.Rect]:
            weights = [0.85 if narrow else 1.0, *([past_weight] if past else []),
                       *([1.2] if pairing else []), *wifi_weight, *([1.5] if guide else []),
                       1.75 if narrow else 2.0]
            return split_h(bottom, *weights, gap=pad)

        def labels_fit(cells: list[pygame.Rect]) -> bool:
            """Whether the past games' words fit and leave the others room for theirs
            (the guide's may be its short form)."""
            middle = cells[1:-1]
            if not _fits_with_icon(_("Past games"), middle.pop(0), self.px(20), least):
                return False
            if pairing:
                middle.pop(0)
            if wifi and not wifi_row and not wifi_icon and not _fits_with_icon(
                    _("Wi-Fi for phones"), middle.pop(0), self.px(18), least):
                return False
            elif wifi and not wifi_row and wifi_icon:
                middle.pop(0)
            return not guide or _fits_with_icon(_("Guide: off"), middle.pop(0), self.px(18),
                                                least, icon=False)

        cells = row(1.5)
        past_label = past and labels_fit(cells) and (not guide or bottom.width >= 12 * u)
        if past and not past_label:
            cells = row(0.6)
        rules, *middle, start = cells
        if past:
            self.buttons.append(Button("past_games", middle.pop(0),
                                       _("Past games") if past_label else "",
                                       self._past_games, px=self.px(20), draw_icon=draw_past))
        if pairing:
            self.buttons.append(Button("pair", middle.pop(0), _("Handhelds"), self._pair,
                                       px=self.px(20)))
        if wifi:
            at = bottom.move(0, -u - pad) if wifi_row else middle.pop(0)
            self.buttons.append(Button("wifi", at, "" if wifi_icon else _("Wi-Fi for phones"),
                                       self._wifi, px=self.px(18), draw_icon=draw_wifi))
            if wifi_row:
                bottom = bottom.union(at)  # the cards end above it
        if guide:
            on = self.app.guide.on
            cell = middle.pop(0)
            label = _("First-game guide: on") if on else _("First-game guide: off")
            if not _fits_with_icon(label, cell, self.px(18), least, icon=False):
                # TRANSLATORS: the start screen's first-game guide button where
                # "First-game guide: on" does not fit (a narrow screen).
                label = _("Guide: on") if on else _("Guide: off")
            self.buttons.append(Button("guide", cell, label, self._switch_guide,
                                       px=self.px(18)))
        self.buttons.append(Button("rules", rules, _("Rules"), self._rules, px=self.px(20)))
        self.buttons.append(Button("start", start, _("Start the game"), self._start,
                                   style="primary", px=self.px(24)))
        area = pygame.Rect(pad, counts.bottom + pad, w - 2 * pad,
                           bottom.top - pad - counts.bottom - pad)
        self.cards = self._deal_cards(area, pad)
        for k, r in enumerate(self.cards):
            self.buttons.append(Button(f"seat{k}", r, "", self._edit(k)))
        if self.has_kinds:  # after the cards: a tap on it is not the card's
            for k, r in enumerate(self.cards):
                self.buttons.append(Button(f"kind{k}", self._kind_rect(r), self._kind_label(k),
                                           self._toggle(k), px=self.px(18)))

    @property
    def has_kinds(self) -> bool:
        """Whether each card has its "who plays" button: computers or phones to choose."""
        return self.app.bots is not None or self.phones_offered

    def is_phone(self, k: int) -> bool:
        """Whether seat ``k``'s player will see their clan on a phone."""
        return k in self.phones and self.all_seats[k].is_human

    def _kind_label(self, k: int) -> str:
        # TRANSLATORS: the start screen's seat button: a person who sees their clan on
        # their own phone (after "Person", before "Computer: Easy").
        return _("Person: phone") if self.is_phone(k) else kind_label(self.all_seats[k].kind)

    def _who(self, k: int) -> str:
        seat = self.all_seats[k]
        return (_("Seat {n} · phone") if self.is_phone(k) else _("Seat {n} · person")
                if seat.is_human else _("Seat {n} · computer")).format(n=k + 1)

    def _deal_cards(self, area: pygame.Rect, pad: int) -> list[pygame.Rect]:
        """The seats' cards: side by side (one above the other on an upright screen), or,
        where a card would be too narrow (or too low) for its texts, the other way round
        (two players) or two by two (three and four)."""
        n = self.count
        ways = [split_h(area, *[1] * n, gap=pad), split_v(area, *[1] * n, gap=pad)]
        if area.width < area.height:
            ways.reverse()
        if n > 2:
            ways[1] = [cell for row in split_v(area, 1, 1, gap=pad)
                       for cell in split_h(row, 1, 1, gap=pad)][:n]
        for cards in ways:
            if all(self._card_fits(k, r) for k, r in enumerate(cards)):
                return cards
        return ways[0]

    def _card_texts(self, k: int) -> list[tuple[str, int]]:
        """A card's lines and their sizes: name, whose seat, the hint."""
        name_px, who_px, hint_px = CARD_PX
        return [(self.all_seats[k].name, self.px(name_px)), (self._who(k), self.px(who_px)),
                (_("tap to change"), self.px(hint_px))]

    def _card_parts(self, k: int, card: pygame.Rect) -> tuple[pygame.Rect, ...]:
        """Where a card draws its picture and its three lines: the picture left of the
        lines when the card is wide enough for both (shrunk, down to 70 % of the card's
        height, to leave the lines their width), else above them."""
        inner = card.inflate(-self.px(12), -self.px(12))
        if self.has_kinds:  # leave the kind button its place
            kr = self._kind_rect(card)
            if card.width >= 2.5 * card.height:
                inner.width = kr.left - self.px(12) - inner.left
            else:
                inner.height = kr.top - self.px(8) - inner.top
        gap = self.px(12)
        least = least_px(self.size)  # as the canvas draws: never smaller
        need = max(text_width(text, max(px, least)) for text, px in self._card_texts(k))
        side = min(inner.height, inner.width - gap - need)
        if side >= 0.7 * inner.height and card.width >= card.height:
            pic = pygame.Rect(inner.left, inner.centery - side // 2, side, side)
            text = pygame.Rect(pic.right + gap, inner.top, inner.right - pic.right - gap,
                               inner.height)
            return (pic, *split_v(text, 1.4, 1, 1))
        side = max(0, min(inner.width, round(inner.height * 0.55)))
        pic = pygame.Rect(inner.centerx - side // 2, inner.top, side, side)
        return (pic, *split_v(pygame.Rect(inner.left, pic.bottom + 4, inner.width,
                                          inner.bottom - pic.bottom - 4), 1.4, 1, 1))

    def _card_fits(self, k: int, card: pygame.Rect) -> bool:
        """Whether the card's lines and its kind button's label fit, at the least size the
        canvas would shrink them to."""
        least = least_px(self.size)
        _pic, *boxes = self._card_parts(k, card)
        lines = [(text, box) for (text, _px), box in
                 zip(self._card_texts(k), boxes, strict=True)]
        if self.has_kinds:
            lines.append((self._kind_label(k), label_box(self._kind_rect(card), icon=False)))
        return all(text_width(text, least) <= box.width and text_height(least) <= box.height + 2
                   for text, box in lines)

    def _switch_off(self) -> None:
        self.app.ask_switch_off(back=lambda: self.app.show(self))  # "Go on": this screen

    def _kind_rect(self, card: pygame.Rect) -> pygame.Rect:
        """The seat's person / computer button: along the bottom of a card, or at the right
        of a long row (portrait screens)."""
        inner = card.inflate(-self.px(12), -self.px(12))
        u = self.unit
        if card.width >= 2.5 * card.height:
            w = min(round(inner.width * 0.4), round(u * 4.5))
            return pygame.Rect(inner.right - w, inner.centery - u // 2, w, u)
        return pygame.Rect(inner.left, inner.bottom - u, inner.width, u)
    def draw(self, canvas: Canvas) -> None:
        canvas.fill(BG)
        canvas.text(_("Clans"), self.title, self.px(48), ACCENT)
        canvas.text(_("How many players?"), self.count_label, self.px(22), TEXT, align="left")
        for b in self.buttons:
            if not b.name.startswith(("seat", "kind")):
                b.draw(canvas)
        kinds = self.has_kinds
        for k, (seat, r) in enumerate(zip(self.seats, self.cards, strict=True)):
            pressed = self.button(f"seat{k}").pressed
            canvas.box(r, PANEL_HI if pressed else CARD, radius=10)
            canvas.target(f"seat{k}", r)
            pic, name, kind, hint = self._card_parts(k, r)
            draw_avatar(canvas, seat, k, pic)
            name_px, who_px, hint_px = CARD_PX
            canvas.text(seat.name, name, self.px(name_px), TEXT)
            canvas.text(self._who(k), kind, self.px(who_px), TEXT_DIM)
            canvas.text(_("tap to change"), hint, self.px(hint_px), TEXT_DIM)
            if kinds:
                self.button(f"kind{k}").draw(canvas)

    # ------------------------------------------------------------ actions

    def _set_count(self, n: int):
        def act() -> None:
            self.count = n
            self.layout()

        return act

    def _toggle(self, k: int):
        """Person, person with a phone (when phones are offered), then each computer level
        (when there are computers), then person again."""
        def act() -> None:
            seat = self.all_seats[k]
            if seat.is_human and self.phones_offered and k not in self.phones:
                self.phones.add(k)
                self.layout()
                return
            self.phones.discard(k)
            kind = next_kind(seat.kind) if self.app.bots is not None else HUMAN
            self.all_seats[k] = with_kind(seat, kind, k)
            self._fix_duplicates()
            self.layout()

        return act

    def _edit(self, k: int):
        def act() -> None:
            def chosen(seat: Seat) -> None:
                self.all_seats[k] = seat
                self.app.show(self)

            others = [s for i, s in enumerate(self.seats) if i != k]
            self.app.show(NameScreen(self.app, self.all_seats[k], others, k, chosen,
                                     lambda: self.app.show(self)))

        return act

    def _pair(self) -> None:
        devices = self.app.devices
        assert devices is not None
        seats = [k for k in devices.handheld_seats() if k < len(self.all_seats)]
        self.app.show(PairScreen(self.app, seats, [s.name for s in self.all_seats],
                                 lambda: self.app.show(self)))

    def _wifi(self) -> None:
        assert self.app.wifi is not None
        self.app.show(WifiScreen(self.app, self.app.wifi, lambda: self.app.show(self)))

    def _switch_guide(self) -> None:
        """The first-game guide for the next game: on again after it was finished or
        skipped, or off (remembered on this device)."""
        self.app.guide.switch(not self.app.guide.on)
        self.layout()

    def _language(self) -> None:
        self.app.show(LanguageScreen(self.app, self._language_chosen,
                                     lambda: self.app.show(self)))

    def _language_chosen(self, code: str) -> None:
        """Switch to ``code``; seats still named after their pictures take the new names."""
        defaults = [s.name == default_name(s) for s in self.all_seats]
        self.app.set_language(code)
        self.all_seats = [Seat(default_name(s), s.avatar, s.kind) if d else s
                          for s, d in zip(self.all_seats, defaults, strict=True)]
        self._fix_duplicates()
        self.app.show(self)

    def _rules(self) -> None:
        self.app.rules(lambda: self.app.show(self), from_game=False)

    def _past_games(self) -> None:
        self.app.past_games(lambda: self.app.show(self))

    def _start(self) -> None:
        self.app.new_game(self.seats, phones={k for k in range(self.count) if self.is_phone(k)})


def _fits_with_icon(label: str, cell: pygame.Rect, px: int, least: int, *,
                    icon: bool = True) -> bool:
    """Whether a button ``cell`` holds its symbol (unless ``icon`` is False) and ``label``
    (shrunk at most to 80 %, and never under ``least``, the screen's least size), as
    :class:`~clans_pi.ui.widgets.Button` would draw it."""
    room = label_box(cell, icon=icon).width
    least = max(round(px * 0.8), least)
    return room > 0 and text_width(label, fit_size(label, px, room, least)) <= room
