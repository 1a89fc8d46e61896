#!/usr/bin/env python3
"""Press-to-colour on a phone seat, over loopback: the time from the phone sending "hold"
to its clan arriving, through the real server on its own thread (as beside the game's
loop), with two phones connected; then the CPU the server and both phones' connections
cost while nothing is held (an upper bound of what phones add to the game's idle CPU).
Prints JSON (medians and 95th percentiles, ms; idle CPU in percent of one core).

    .venv/bin/python scripts/bench/phones.py [--rounds 200] [--idle-seconds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from aiohttp import ClientSession  # noqa: E402

from clans_pi.phones.server import PhoneHub, PhoneSeat, PhoneServer  # noqa: E402
from clans_pi.phones.tokens import SeatTokens  # noqa: E402

idle: list[float] = []


async def _measure(base: str, tokens: dict[int, str], rounds: int,
                   idle_s: float) -> list[float]:
    async with ClientSession() as http:
        phones = {seat: await http.ws_connect(f"{base}/p/{t}/live") for seat, t in tokens.items()}
        for ws in phones.values():
            await ws.receive_json()  # hello
        times = []
        for k in range(rounds):
            ws = phones[k % 2]
            start = time.perf_counter()
            await ws.send_json({"type": "hold"})
            msg = await ws.receive_json()
            times.append((time.perf_counter() - start) * 1000)
            assert msg["type"] == "clan"
            await ws.send_json({"type": "release"})
            await ws.receive_json()
        # Idle: both phones connected, nothing held, for idle_s seconds; the CPU this
        # process spends (the server's thread and these two clients) over that time.
        cpu0, wall0 = time.process_time(), time.perf_counter()
        await asyncio.sleep(idle_s)
        idle.append(100 * (time.process_time() - cpu0) / (time.perf_counter() - wall0))
        for ws in phones.values():
            await ws.close()
        return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--idle-seconds", type=float, default=5.0)
    args = parser.parse_args()
    hub = PhoneHub(SeatTokens.new([0, 1]), {0: PhoneSeat("Anna", "fox"),
                                             1: PhoneSeat("Ben", "owl")},
                   lambda seat: ("red", "Red") if seat == 0 else ("blue", "Blue"))
    server = PhoneServer(hub, "127.0.0.1", 0)
    port = server.start()
    try:
        times = asyncio.run(_measure(f"http://127.0.0.1:{port}", hub.tokens.tokens,
                                     args.rounds, args.idle_seconds))
    finally:
        server.stop()
    times.sort()
    print(json.dumps({"press_to_colour_ms": {
        "median": round(statistics.median(times), 2),
        "p95": round(times[int(len(times) * 0.95) - 1], 2),
        "max": round(times[-1], 2)},
        "idle_cpu_percent_two_phones": round(idle[0], 2), "idle_seconds": args.idle_seconds,
        "phones": 2, "rounds": args.rounds,
        "transport": "loopback WebSocket"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
