"""Every seat's private device in one place: the app's only door to the hardware.

Each seat is set in the config to "screen" (the on-screen peek), "gpio" (a button and RGB LED
on the Pi) or "handheld" (a Pico on USB). :class:`SeatDevices` opens what is configured,
polls it from the app's loop, and turns trouble into short notices; a device that is missing
or fails leaves its seat on the on-screen peek, never a crash.

Secrecy (R22): a device only ever gets its own seat's clan, taken from that seat's private
view (:meth:`Session.private`), never from the full state; nothing here logs a clan.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..i18n import N_, _
from ..rules.errors import ClansError
from ..settings.config import Config

if TYPE_CHECKING:
    from ..history.hiding import Hiding
    from ..session import Session

log = logging.getLogger(__name__)


class SeatDevice(Protocol):
    """What the app needs of one seat's device (GPIO seat or handheld seat)."""

    def set_clan(self, clan: str | None) -> None: ...

    def show_result(self, clan: str, won: bool, place: int = 1) -> None: ...

    @property
    def available(self) -> bool: ...

    def close(self) -> None: ...


#: Shown on screen (translated with ``_()`` when shown).
NOTICES = {
    "stuck": N_("Seat {n}'s button seems stuck: its light stays off until it is let go"),
    "lost": N_("Seat {n}'s handheld is gone: peek with the eye on the screen"),
    "back": N_("Seat {n}'s handheld is back"),
    # Never a clan: only whose seat the second device claims.
    "duplicate": N_("A second handheld says it is seat {n}'s and gets nothing; seat {n}'s "
                    "own goes on working. To use the new one, pair it before the next game."),
}


class SeatDevices:
    """The configured seat devices. ``gpio`` and ``handheld`` map table seats (0-based) to
    devices; ``manager`` is the handheld manager (or None) whose events go to the seats."""

    def __init__(self, gpio: dict[int, Any] | None = None, handhelds: dict[int, Any] | None = None,
                 manager: Any = None, pairing: Any = None,
                 problems: list[str] | None = None,
                 listen: tuple[str, int] | None = None, fifth_clan: str = "black",
                 state_dir: Path | None = None) -> None:
        self.gpio: dict[int, Any] = dict(gpio or {})
        self.handhelds: dict[int, Any] = dict(handhelds or {})
        # The phone seats and their server (clans_pi.phones.devices.Phones, or None while
        # no seat is a phone): see use_phones.
        self.phones: Any = None
        self.phone_seats: dict[int, Any] = {}
        # Where phones connect when a seat is made a phone (None: phones are not offered).
        self.listen = listen
        # Where the links of games over are kept between games and restarts (None: only
        # this run's), so an old game's tab says "over" (clans_pi.phones.over).
        self.state_dir = state_dir
        self.fifth_clan = fifth_clan
        self.manager = manager
        self.pairing = pairing
        self._notices: list[str] = list(problems or [])
        self._pairing_seat: int | None = None
        self._closed = False

    # ------------------------------------------------------------ opening

    @classmethod
    def open(cls, config: Config, *, pin_factory: Any = None,
             manager_factory: Callable[[], Any] | None = None) -> SeatDevices:
        """Open what ``config`` asks for. Problems become notices; their seats fall back to
        the on-screen peek."""
        problems: list[str] = []
        gpio: dict[int, Any] = {}
        handhelds: dict[int, Any] = {}
        manager = pairing = None
        gpio_seats = [s for s, kind in config.seats.items() if kind == "gpio"]
        if gpio_seats:
            from .gpio_seat import GpioUnavailable, make_gpio_seats
            from .pinmap import load_pinmap

            try:
                pinmap = load_pinmap(config.pinout)
                opened = make_gpio_seats(pinmap, gpio_seats, pin_factory=pin_factory,
                                         fifth_clan=config.fifth_clan)
                gpio = {seat - 1: dev for seat, dev in opened.items()}
            except GpioUnavailable as exc:
                problems.append(str(exc))  # it says the seats use the on-screen peek
            except ClansError as exc:
                problems.append(f"{exc}; GPIO seats use the on-screen peek")
        hand_seats = [s for s, kind in config.seats.items() if kind == "handheld"]
        if hand_seats:
            try:
                from .handhelds import HandheldManager, HandheldSeat, PairingStore

                manager = manager_factory() if manager_factory else HandheldManager()
                manager.fifth_clan = config.fifth_clan
                pairing = PairingStore(config.state_dir / "handhelds.json")
                handhelds = {s - 1: HandheldSeat(s - 1, manager, pairing) for s in hand_seats}
            except (ClansError, OSError) as exc:
                problems.append(f"handhelds are not available ({exc}); those seats use the "
                                "on-screen peek")
        devices = cls(gpio, handhelds, manager, pairing, listen=config.listen,
                      fifth_clan=config.fifth_clan, state_dir=config.state_dir)
        for text in problems:
            devices._unavailable(text)
        devices.use_phones(s - 1 for s, kind in config.seats.items() if kind == "phone")
        return devices

    def _unavailable(self, problem: str) -> None:
        """A device that could not be opened: the details in the log, a notice on the screen
        (the sentence in the players' language); its seats use the on-screen peek."""
        log.warning("%s", problem)
        self._notices.append(_("A seat device is not available: {problem}").format(
            problem=problem))

    # ------------------------------------------------------------ the loop

    def poll(self, now: int) -> list[tuple[int, str]]:
        """Advance every device; return (seat, event) for the app: "press", "release",
        "stuck", "lost", "back", "paired", "duplicate" (a second handheld says it is this
        seat's: it gets nothing)."""
        out: list[tuple[int, str]] = []
        for seat, dev in self.gpio.items():
            for kind in dev.poll(now):
                out.append((seat, kind))
        if self.manager is not None:
            for event in self.manager.poll():
                out += self._handheld_event(event)
        if self.phones is not None:
            out += self.phones.poll()  # "ready", "seen", "again"
        for seat, kind in out:
            if kind in NOTICES:
                self._notices.append(_(NOTICES[kind]).format(n=seat + 1))
        return out

    def _handheld_event(self, event: tuple[Any, ...]) -> list[tuple[int, str]]:
        out: list[tuple[int, str]] = []
        if event[0] == "foreign":
            self._notices.append(_("{port} looks like a Pico but is not a Clans handheld "
                                   "(flash it: firmware/README.md)").format(port=event[1]))
            return out
        if (self._pairing_seat is not None and event[0] in ("button", "stray") and event[2]
                and self.pairing is not None):
            seat = self._pairing_seat
            if len(event) > 3:  # this very handheld holds its uid from now on
                self.manager.bind(event[1], event[3])
            self.handhelds[seat].pair(event[1])
            self._pairing_seat = None
            log.info("seat %d: paired with handheld %s", seat + 1, event[1])
            return [(seat, "paired")]
        if event[0] == "duplicate":
            seat = self.pairing.seat_of(event[1]) if self.pairing is not None else None
            return [(seat, "duplicate")] if seat in self.handhelds else []
        for seat, dev in self.handhelds.items():
            for kind in dev.handle(event):
                out.append((seat, kind))
        return out

    def take_notices(self) -> list[str]:
        out, self._notices = self._notices, []
        return out

    # ------------------------------------------------------------ the game

    def kind(self, seat: int) -> str:
        if seat in self.phone_seats:  # chosen on the start screen for this game
            return "phone"
        if seat in self.gpio:
            return "gpio"
        return "handheld" if seat in self.handhelds else "screen"

    def peek_kind(self, seat: int) -> str | None:
        """The device a seat should look at now, or None for the on-screen peek."""
        dev = self.phone_seats.get(seat) or self.gpio.get(seat) or self.handhelds.get(seat)
        return self.kind(seat) if dev is not None and dev.available else None

    # ------------------------------------------------------------ phones

    @property
    def phones_offered(self) -> bool:
        """Whether a seat may be made a phone (the start screen's choice)."""
        return self.listen is not None

    def phone_choice(self) -> set[int]:
        """The seats that are phones now: the settings' at first, then the last game's."""
        return set(self.phone_seats)

    def use_phones(self, seats: Iterable[int]) -> None:
        """Make ``seats`` (0-based) the phone seats of the next deal: their devices replace
        the seats' others for that game. The server starts with the first phone seat and
        stops when none is left (it listens only when some seat is a phone). An address
        that cannot be served is a notice; those seats use the on-screen peek."""
        wanted = sorted(set(seats))
        if wanted == sorted(self.phone_seats):
            return
        from ..phones.devices import PhoneDevice, Phones

        if not wanted:
            if self.phones is not None:
                self.phones.close()
            self.phones, self.phone_seats = None, {}
            return
        if self.phones is None:
            if self.listen is None:
                return
            try:
                self.phones = Phones(wanted, self.listen, fifth=self.fifth_clan)
            except OSError as exc:
                host, port = self.listen
                self._unavailable(f"phones cannot be served on {host}:{port} ({exc}); those "
                                  "seats use the on-screen peek")
                return
            self.phones.remember_over(self._over().load())
        else:
            self.phones.use_seats(wanted)
        self.phone_seats = {seat: PhoneDevice(seat, self.phones) for seat in wanted}

    def _over(self):  # -> clans_pi.phones.over.OverLinks
        from ..phones.over import OverLinks

        return OverLinks(self.state_dir)

    # ------------------------------------------------------------ the game

    def deal(self, session: Session, *,
             picture: Callable[[int, str], bytes | None] | None = None) -> None:
        """Give each device its own seat's clan (from that seat's private view only). A
        computer player's seat gets none: nobody may see its clan (R22). A resumed game
        whose save keeps phone links has those seats on phones again, with the same links
        (the same QR codes after a power cut)."""
        from ..phones.tokens import SeatTokens  # pure Python: no server unless a phone

        kept = SeatTokens.from_json(session.phone_links).tokens
        if kept:
            self.use_phones(kept)
        if self.phones is not None:
            self.phones.name_seats({k: (s.name, s.avatar) for k, s in enumerate(session.seats)},
                                   picture)
            session.phone_links = self.phones.keep_links(session.phone_links)
        for seat, dev in self._all():
            human = seat < session.num_seats and session.seats[seat].is_human
            dev.set_clan(session.private(seat).own_clan if human else None)

    def phone_hints(self, may: set[int]) -> None:
        """The seat whose phone may ask for a hint now (the person to move, hints on)."""
        if self.phones is not None:
            self.phones.server.tell_turn({k for k in may if k in self.phone_seats})

    def show_hint(self, seat: int, state: str, picture: bytes | None = None) -> None:
        """Seat ``seat``'s hint on its own phone: "thinking", "none", or "ready" with its
        picture (R22: the advice follows that seat's clan; no other device gets it)."""
        if seat in self.phone_seats and self.phones is not None:
            self.phones.server.tell_hint(seat, state, picture)

    def clear(self) -> None:
        for _seat, dev in self._all():
            dev.set_clan(None)
        if self.phones is not None:
            self._over().add(self.phones.links())
            self.phones.new_game()  # the old links now say the game is over

    def results(self, session: Session) -> None:
        """At the end (R20, R21): each seat's device shows its own result. The game's phone
        links are kept as over from now on (a restart before the next game included)."""
        if self.phones is not None:
            self._over().add(self.phones.links())
        for seat, dev in self._all():
            result = seat_result(session, seat)
            if result is not None:
                dev.show_result(*result)

    def hiding(self, session: Session, hiding: Hiding) -> None:
        """After the game: each phone seat gets its own chart of how well it hid (its own
        numbers only; other devices have no screen for it)."""
        for seat, dev in self._all():
            show = getattr(dev, "show_hiding", None)
            player = hiding.of(session.seats[seat].name)
            if show is not None and player is not None:
                show(player.for_phone())

    # ------------------------------------------------------------ handheld pairing

    def handheld_seats(self) -> list[int]:
        return sorted(self.handhelds)

    def start_pairing(self, seat: int) -> None:
        """The next button press on any connected handheld pairs it with ``seat``."""
        assert seat in self.handhelds, seat
        self._pairing_seat = seat

    def stop_pairing(self) -> None:
        self._pairing_seat = None

    def paired_handheld(self, seat: int) -> str | None:
        return self.pairing.uid_of(seat) if self.pairing is not None else None

    def handhelds_connected(self) -> dict[str, str]:
        return self.manager.connected() if self.manager is not None else {}

    # ------------------------------------------------------------ closing

    def _all(self) -> list[tuple[int, Any]]:
        return [*self.gpio.items(), *self.handhelds.items(), *self.phone_seats.items()]

    def phone_url(self, seat: int) -> str | None:
        """The link seat ``seat``'s phone opens (its QR code on the deal's screen)."""
        dev = self.phone_seats.get(seat)
        return dev.url if dev is not None else None

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for _seat, dev in self._all():
            try:
                dev.set_clan(None)
            finally:
                dev.close()
        if self.manager is not None:
            self.manager.close()
        if self.phones is not None:
            self.phones.close()

    def __enter__(self) -> SeatDevices:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def seat_result(session: Session, seat: int) -> tuple[str, bool, int] | None:
    """Seat ``seat``'s result once the game is over (R20, R21): its clan, now revealed,
    whether it won, and its place (1 + how many scored more); None before the end or for a
    seat beyond the game's."""
    obs = session.public()
    if obs.revealed_clans is None or obs.scores is None or seat >= session.num_seats:
        return None
    p = session.player_of(seat)
    place = 1 + sum(score > obs.scores[p] for score in obs.scores)
    return obs.revealed_clans[p], p in obs.winners, place
