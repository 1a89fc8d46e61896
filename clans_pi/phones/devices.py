"""Phone seats as seat devices, beside the GPIO seats and the handhelds
(:class:`clans_pi.hardware.seats.SeatDevices`): the same calls (``set_clan`` at the deal,
``show_result`` at the end, ``available``) and events polled the same way. The server
listens only when some seat is a phone, on the settings' ``[phones] listen`` address."""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable, Iterable
from typing import Any

from ..i18n import _
from ..palette import CLAN_LABEL, mark_of
from .server import PhoneHub, PhoneSeat, PhoneServer
from .tokens import SeatTokens

log = logging.getLogger(__name__)


class PhoneDevice:
    """Seat ``seat``'s phone. Its clan (set at the deal from that seat's own view, R22) is
    what the server sends to that phone alone, while its button is held."""

    available = True  # the screen shows its code: a phone can always be joined

    def __init__(self, seat: int, phones: Phones) -> None:
        self.seat = seat
        self.phones = phones

    def set_clan(self, clan: str | None) -> None:
        self.phones.clans[self.seat] = clan

    def show_result(self, clan: str, won: bool, place: int) -> None:
        """The end (R20, R21): the phone shows the seat's clan, now revealed, and how it
        did."""
        self.phones.hub.over = True
        shown, label = self.phones.clan_label(clan)
        self.phones.server.tell_result(self.seat, {
            "clan": shown, "label": label, "mark": mark_of(shown), "won": won,
            "place": place, "players": self.phones.players})

    def show_hiding(self, hiding: dict[str, Any]) -> None:
        """After the result: this seat's own chart of how well it hid."""
        self.phones.server.tell_hiding(self.seat, hiding)

    def close(self) -> None:
        self.phones.clans.pop(self.seat, None)

    @property
    def url(self) -> str:
        return self.phones.url(self.seat)


class Phones:
    """The phone seats of the table and their server."""

    def __init__(self, seats: Iterable[int], listen: tuple[str, int], *,
                 fifth: str = "black") -> None:
        self.seats = sorted(seats)
        self.fifth = fifth  # how the fifth clan is shown (display.fifth_clan)
        self.players = 0  # how many play (for "place 2 of 4")
        self.clans: dict[int, str | None] = {}
        self.hub = PhoneHub(SeatTokens.new(self.seats),
                            {k: PhoneSeat(f"Seat {k + 1}", "") for k in self.seats},
                            self._clan_of)
        # Until keep_links places this game's links (a resumed game's come from its save),
        # a phone asking for one waits for them rather than being told its link is wrong.
        self.hub.unsettled()
        self.server = PhoneServer(self.hub, *listen)
        self.host = reachable_host(listen[0])
        self.port = self.server.start()  # OSError if the address is taken
        log.info("phones: serving %d seat(s) on %s:%d", len(self.seats), listen[0], self.port)

    def _clan_of(self, seat: int) -> tuple[str, str] | None:
        clan = self.clans.get(seat)
        return self.clan_label(clan) if clan else None

    def clan_label(self, clan: str) -> tuple[str, str]:
        """A clan as its players see it: the fifth clan white when the settings say so
        (display.fifth_clan), its name in the players' language."""
        shown = "white" if clan == "black" and self.fifth == "white" else clan
        return shown, _(CLAN_LABEL[shown])

    def url(self, seat: int) -> str:
        return f"http://{self.host}:{self.port}/p/{self.hub.tokens.tokens[seat]}"

    def name_seats(self, names: dict[int, tuple[str, str]],
                   picture: Callable[[int, str], bytes | None] | None = None) -> None:
        """The players' names and pictures, for the phones' pages (public). ``picture``
        draws a seat's picture as a PNG from its seat number and avatar key ("": the one the
        screen picks for the seat): the screen's UI has it; without it, as in the headless
        game, the pages show the names alone. Drawn here, on the game's thread, so the
        server's thread only hands out bytes."""
        self.players = len(names)
        for seat, (name, avatar) in names.items():
            if seat in self.hub.seats:
                self.hub.seats[seat] = PhoneSeat(name, avatar)
                png = picture(seat, avatar) if picture is not None else None
                if png is not None:
                    self.hub.pictures[seat] = png
                else:
                    self.hub.pictures.pop(seat, None)

    def keep_links(self, kept: dict[str, Any]) -> dict[str, Any]:
        """The links for the game being dealt or resumed: those ``kept`` with its save
        when they cover every phone seat (the same QR codes after a restart), else this
        table's own; returned to be kept with the save."""
        saved = SeatTokens.from_json(kept)
        if kept and set(self.seats) <= set(saved.tokens):
            self.hub.tokens = SeatTokens({k: saved.tokens[k] for k in self.seats},
                                         (*saved.retired, *self.hub.tokens.retired))
        self.hub.settle()
        return self.hub.tokens.to_json()

    def use_seats(self, seats: Iterable[int]) -> None:
        """Serve ``seats`` from now on (the start screen changed which seats are phones):
        a seat that stays keeps its link, a new one gets its own, a seat that is no longer
        a phone is refused as any wrong link."""
        self.seats = sorted(seats)
        tokens = self.hub.tokens
        fresh = SeatTokens.new([k for k in self.seats if k not in tokens.tokens])
        self.hub.tokens = SeatTokens({**{k: tokens.tokens[k] for k in self.seats
                                         if k in tokens.tokens}, **fresh.tokens},
                                     tokens.retired)
        self.hub.seats = {k: self.hub.seats.get(k, PhoneSeat(f"Seat {k + 1}", ""))
                          for k in self.seats}
        for seat in list(self.clans):
            if seat not in self.seats:
                del self.clans[seat]

    def links(self) -> tuple[str, ...]:
        """This game's links (one a seat)."""
        return tuple(self.hub.tokens.tokens.values())

    def remember_over(self, links: Iterable[str]) -> None:
        """``links`` are of games over (kept from before): they say so, never "wrong"."""
        self.hub.tokens = SeatTokens(self.hub.tokens.tokens,
                                     (*links, *self.hub.tokens.retired))

    def new_game(self) -> None:
        """New links for a new game; the old ones now say the game is over."""
        self.hub.tokens = self.hub.tokens.renew(self.seats)
        self.hub.over = False
        self.hub.results.clear()

    def poll(self) -> list[tuple[int, str]]:
        return self.hub.poll()

    def close(self) -> None:
        self.server.stop()


#: Where the probe for the Pi's own address "sends" (nothing is sent: a UDP socket is only
#: connected, which picks the interface the system would use): the home network by the
#: default route, then the Pi's own hotspot (NetworkManager's shared mode uses 10.42.0.0/24)
#: when there is no default route.
PROBES = ("10.255.255.255", "10.42.0.255", "192.168.255.255", "172.31.255.255")


def _probe(target: str) -> str:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect((target, 1))
        return str(probe.getsockname()[0])


def reachable_host(listen_host: str, probe: Callable[[str], str] = _probe) -> str:
    """The address a phone on the same network reaches the server at: the listening
    address itself, or for 0.0.0.0 the address of the interface that leads to the home
    network or to the Pi's own hotspot (see :data:`PROBES`); else the Pi's name on the
    local network (``NAME.local``, mDNS)."""
    if listen_host not in ("0.0.0.0", "", "::"):
        return listen_host
    for target in PROBES:
        try:
            address = probe(target)
        except OSError:
            continue
        if not address.startswith(("127.", "0.")):
            return address
    return socket.gethostname() + ".local"
