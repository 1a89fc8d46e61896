"""Runs at power-up on the Pico: the Clans handheld.

Hold the button while plugging the Pico in to skip the program and keep the REPL
(mpremote can then reach the board). Otherwise Ctrl-C is switched off (a 0x03 byte
from the host is data), the watchdog resets the Pico if the loop ever stops, and
the handheld talks the Clans protocol over USB serial (stdin/stdout).
"""

import sys
import time

import config
from machine import Pin

try:
    from time import ticks_ms
except ImportError:  # CPython, for the tests

    def ticks_ms():
        return int(time.monotonic() * 1000)


def button_held():
    """Whether the button is held right now (read before anything else is set up)."""
    pull = Pin.PULL_UP if config.BUTTON_ACTIVE_LOW else Pin.PULL_DOWN
    pin = Pin(config.BUTTON_PIN, Pin.IN, pull)
    time.sleep(0.005)  # let the pull settle
    return pin.value() == (0 if config.BUTTON_ACTIVE_LOW else 1)


def stdio(stdin, stdout, poll_ms):
    """(read_byte, write) over the USB serial: read_byte() waits up to poll_ms for one
    byte and returns it (bytes of length 1) or None."""
    import select

    poller = select.poll()
    poller.register(stdin, select.POLLIN)
    reader = stdin.buffer
    writer = stdout.buffer
    flush = getattr(writer, "flush", None)

    def read_byte():
        if poller.poll(poll_ms):
            return reader.read(1)
        return None

    def write(data):
        writer.write(data)
        if flush is not None:
            flush()

    return read_byte, write


def main():
    """Returns False at once when the button is held at power-up; otherwise never
    returns (the loop runs until power-off)."""
    if button_held():
        print("Clans handheld: button held at power-up, program skipped: the REPL is yours.")
        return False
    import micropython

    micropython.kbd_intr(-1)
    from machine import WDT

    wdt = WDT(timeout=config.WATCHDOG_MS)

    import handheld
    import hw

    board = hw.Hardware(config)
    read_byte, write = stdio(sys.stdin, sys.stdout, config.POLL_MS)
    handheld.run(board, read_byte, write, ticks_ms, wdt)
    return True


if __name__ == "__main__":
    main()
