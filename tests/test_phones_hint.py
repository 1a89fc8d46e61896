"""The hint on a phone: the person to move holds their phone's hint button and
sees the board with the suggested move there, nowhere else (R22: the advice follows their
clan). The protocol through aiohttp's test client, then the table with a real server, real
phones (WebSocket clients on loopback) and a real search."""

from __future__ import annotations

import asyncio
import io
import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pygame
from aiohttp import ClientSession, WSMsgType
from aiohttp.test_utils import TestClient, TestServer

from clans_pi.hardware.seats import SeatDevices
from clans_pi.phones.server import PhoneHub, PhoneSeat, make_app, tell_hint, tell_turn
from clans_pi.phones.tokens import SeatTokens
from clans_pi.rules.moves import Move
from clans_pi.session import Seat
from clans_pi.settings.config import Config
from clans_pi.table import Table
from clans_pi.table.players import ComputerPlayers
from clans_pi.ui.phone_pictures import hint_png
from tests.rules_helpers import BOARD, CHART

PICTURE = b"\x89PNG-not-really"


def _hub() -> PhoneHub:
    return PhoneHub(SeatTokens.new([0, 1]), {0: PhoneSeat("Anna", "fox"),
                                            1: PhoneSeat("Ben", "owl")},
                    {0: ("red", "Red"), 1: ("blue", "Blue")}.get)


def test_only_the_seat_to_move_gets_the_hint_button_and_only_its_phone_the_picture():
    hub = _hub()

    async def main() -> tuple[list, list, list]:
        async with TestClient(TestServer(make_app(hub))) as client:
            anna = await client.ws_connect(f"/p/{hub.tokens.tokens[0]}/live")
            ben = await client.ws_connect(f"/p/{hub.tokens.tokens[1]}/live")
            got: dict[str, list] = {"anna": [], "ben": []}
            for name, ws in (("anna", anna), ("ben", ben)):
                got[name].append(await ws.receive_json())  # hello: no hint yet
            await tell_turn(hub, {0})
            got["anna"].append(await anna.receive_json())
            await anna.send_json({"type": "hint"})
            await ben.send_json({"type": "hint"})  # not Ben's turn: the table says none
            await anna.send_json({"type": "hint_off"})
            events: list[tuple[int, str]] = []
            for _ in range(200):
                events += [e for e in hub.poll() if e[1].startswith("hint")]
                if len(events) >= 3:
                    break
                await asyncio.sleep(0.01)
            got["events"] = events
            await tell_hint(hub, 0, "ready", PICTURE)
            got["anna"].append(await anna.receive_json())
            got["anna"].append(await anna.receive_bytes())
            await tell_hint(hub, 1, "ready", PICTURE)  # Ben may not hint now: nothing
            await tell_turn(hub, set())
            got["anna"].append(await anna.receive_json())
            await ben.close()
            await anna.close()
            got["ben"] += [m async for m in ben]  # nothing more came to Ben
            return got["anna"], got["ben"], got["events"]

    anna, ben, events = asyncio.run(main())
    assert anna[0]["hint"] is False and anna[1] == {"type": "turn", "hint": True}
    assert anna[2] == {"type": "hint", "state": "ready"} and anna[3] == PICTURE
    assert anna[4] == {"type": "turn", "hint": False}
    assert ben[0]["hint"] is False and len(ben) == 1
    assert sorted(events) == [(0, "hint"), (0, "hint_off"), (1, "hint")]
    assert "hint" in anna[0]["texts"] and "no_hint" in anna[0]["texts"]


@contextmanager
def _table(*, hints: bool = True) -> Iterator[Table]:
    """A table with hints (a short search), both seats on phones served on loopback, and a
    new game of two people dealt."""
    config = Config()
    config.listen = ("127.0.0.1", 0)
    devices = SeatDevices.open(config)
    table = Table(BOARD, CHART, rng=random.Random(4), devices=devices, hints=hints,
                  bots=ComputerPlayers(BOARD, CHART, 0.15, seed=7, workers=1), pause_ms=0)
    drawn: list[Move] = []

    def picture(obs, move: Move) -> bytes:
        drawn.append(move)
        return hint_png(BOARD, obs, move)

    table.hint_picture = picture
    table.pictures_drawn = drawn  # type: ignore[attr-defined]
    try:
        devices.use_phones([0, 1])
        table.new_game([Seat("Anna", "fox"), Seat("Ben", "owl")])
        yield table
    finally:
        table.shutdown()
        devices.close()


class Phone:
    """A phone on its own thread: connects, and records every message it gets."""

    def __init__(self, url: str) -> None:
        self.url = url + "/live"
        self.got: list[object] = []
        self.out: asyncio.Queue[dict] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.ready = threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
        self.thread.start()
        assert self.ready.wait(10)

    async def _run(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.out = asyncio.Queue()
        async with ClientSession() as http, http.ws_connect(self.url) as ws:
            self.ready.set()

            async def sender() -> None:
                while True:
                    msg = await self.out.get()
                    if msg is None:
                        await ws.close()
                        return
                    await ws.send_json(msg)

            task = asyncio.create_task(sender())
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    self.got.append(msg.json())
                elif msg.type == WSMsgType.BINARY:
                    self.got.append(msg.data)
            await task

    def send(self, kind: str | None) -> None:
        assert self.loop is not None and self.out is not None
        self.loop.call_soon_threadsafe(self.out.put_nowait,
                                       None if kind is None else {"type": kind})

    def close(self) -> None:
        self.send(None)
        self.thread.join(10)


def _until(table: Table, done, seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    now = 0
    while time.monotonic() < end:
        now += 20
        table.poll_devices(now)
        table.poll_computers(now)
        if done():
            return
        time.sleep(0.01)
    raise AssertionError("timed out")


def test_the_person_to_move_sees_the_hint_on_their_phone_and_no_one_else_does():
    with _table() as table:
        devices = table.devices
        mover = table.session.current_seat
        other = 1 - mover
        phones = {k: Phone(devices.phone_url(k)) for k in (0, 1)}
        _until(table, lambda: all(p.got for p in phones.values()))
        # The seat to move has its hint button; the other has not.
        assert phones[mover].got[0]["hint"] is True
        assert phones[other].got[0]["hint"] is False
        phones[other].send("hint")  # not their turn: told "none", no search starts
        _until(table, lambda: {"type": "hint", "state": "none"} in phones[other].got)
        assert table.hint() == ("none", None)
        phones[mover].send("hint")
        _until(table, lambda: any(isinstance(m, bytes) for m in phones[mover].got))
        state, move = table.hint()
        assert state == "ready" and isinstance(move, Move)
        for now in range(10**6, 10**6 + 200, 20):  # still held: drawn and sent once
            table.poll_devices(now)
            table.poll_computers(now)
        assert table.pictures_drawn == [move]
        assert sum(isinstance(m, bytes) for m in phones[mover].got) == 1
        picture = next(m for m in phones[mover].got if isinstance(m, bytes))
        drawn = pygame.image.load(io.BytesIO(picture), "hint.png")
        assert drawn.get_width() == 600 and drawn.get_height() == round(600 * BOARD.aspect)
        assert picture == hint_png(BOARD, table.public(), move)  # the table's own hint
        texts = [m for m in phones[mover].got if isinstance(m, dict) and m["type"] == "hint"]
        assert texts[-1] == {"type": "hint", "state": "ready"}
        # The other phone got nothing of it.
        assert not any(isinstance(m, bytes) for m in phones[other].got)
        assert [m for m in phones[other].got if isinstance(m, dict) and m["type"] == "hint"] \
            == [{"type": "hint", "state": "none"}]
        # The move is played: the hint button moves to the other seat.
        phones[mover].send("hint_off")
        table.play(move.src, move.dst, move.order)
        # (Two phones, two connections: either may hear of the turn first.)
        _until(table, lambda: {"type": "turn", "hint": True} in phones[other].got
               and phones[mover].got[-1] == {"type": "turn", "hint": False})
        for p in phones.values():
            p.close()


def test_with_hints_off_no_phone_is_offered_one():
    with _table(hints=False) as table:
        phone = Phone(table.devices.phone_url(table.session.current_seat))
        _until(table, lambda: phone.got)
        assert phone.got[0]["type"] == "hello" and phone.got[0]["hint"] is False
        phone.send("hint")
        _until(table, lambda: {"type": "hint", "state": "none"} in phone.got)
        assert {"type": "turn", "hint": True} not in phone.got
        assert not any(isinstance(m, bytes) for m in phone.got)
        phone.close()
