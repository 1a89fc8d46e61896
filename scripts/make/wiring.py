#!/usr/bin/env python3
"""Draw the seats' wiring, hardware/wiring.svg, from the pin map hardware/pinout.toml.

    python scripts/make/wiring.py            write hardware/wiring.svg
    python scripts/make/wiring.py --check    exit 1 if hardware/wiring.svg differs
    python scripts/make/wiring.py --pinout /etc/clans-pi/pinout.toml --out my-wiring.svg

The drawing: the Pi's 40-pin header (physical pin numbers, BCM names, each seat's pins
tagged) and, per seat, the button (to GND on the internal pull-up, or to 3V3 on the
pull-down) and the RGB LED (each colour through its resistor; common cathode to GND, or
common anode to 3V3), every wire labelled with its GPIO and header pin. Plain SVG text,
the same bytes for the same pin map.
"""

from __future__ import annotations

import argparse
import sys
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from clans_pi.hardware.pinmap import (  # noqa: E402
    DEFAULT_PATH,
    ROLES,
    PinMap,
    PinMapError,
    load_pinmap,
)

OUT = ROOT / "hardware" / "wiring.svg"

#: The 40-pin header (J8) of every Pi since the B+ (Pi 5 included), by physical pin.
HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14",
    9: "GND", 10: "GPIO15", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND",
    15: "GPIO22", 16: "GPIO23", 17: "3V3", 18: "GPIO24", 19: "GPIO10", 20: "GND",
    21: "GPIO9", 22: "GPIO25", 23: "GPIO11", 24: "GPIO8", 25: "GND", 26: "GPIO7",
    27: "GPIO0", 28: "GPIO1", 29: "GPIO5", 30: "GND", 31: "GPIO6", 32: "GPIO12",
    33: "GPIO13", 34: "GND", 35: "GPIO19", 36: "GPIO16", 37: "GPIO26", 38: "GPIO20",
    39: "GND", 40: "GPIO21",
}
#: What the Pi or a bus uses a GPIO for (shown next to its name).
FUNCTION = {
    0: "ID_SD", 1: "ID_SC", 2: "I2C SDA", 3: "I2C SCL", 14: "UART TXD", 15: "UART RXD",
    7: "SPI CE1", 8: "SPI CE0", 9: "SPI MISO", 10: "SPI MOSI", 11: "SPI SCLK",
}
PHYSICAL = {int(name[4:]): pin for pin, name in HEADER.items() if name.startswith("GPIO")}
GROUNDS = [pin for pin, name in HEADER.items() if name == "GND"]

#: Resistors for 3.3 V GPIO and a common RGB LED's forward voltages (hardware/README.md).
SUPPLY_V = 3.3
FORWARD_V = {"red": 2.0, "green": 3.0, "blue": 3.0}
OHMS = {"red": 150, "green": 68, "blue": 68}

SEAT_COLOURS = {1: "#00796b", 2: "#6a1b9a", 3: "#a0522d", 4: "#37474f"}
LED_FILL = {"red": "#e53935", "green": "#43a047", "blue": "#1e88e5"}
PIN_FILL = {"GND": "#212121", "3V3": "#ef6c00", "5V": "#c62828"}
RESERVED_FILL = "#9e9e9e"
FREE_FILL = "#e0e0e0"
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"

WIDTH, HEIGHT = 1240, 900
ROW0, PITCH = 120, 29  # header rows
ODD_X, EVEN_X = 200, 232  # header pin columns
TAG_GAP, TAG_W = 78, 88  # seat tags beside the header
BLOCK_W, BLOCK_H = 380, 310
BLOCKS = {1: (430, 84), 2: (840, 84), 3: (430, 412), 4: (840, 412)}
NOTES_Y = 750


def milliamps(colour: str) -> str:
    return f"{(SUPPLY_V - FORWARD_V[colour]) / OHMS[colour] * 1000:.1f}"


class Svg:
    """A list of SVG elements written by hand (integer coordinates only)."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, element: str) -> None:
        self.parts.append("  " + element)

    def text(self, x: int, y: int, text: str, size: int = 12, anchor: str = "start",
             fill: str = "#212121", weight: str = "normal") -> None:
        bold = ' font-weight="bold"' if weight == "bold" else ""
        self.add(f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" '
                 f'fill="{fill}"{bold}>{escape(text)}</text>')

    def line(self, *points: tuple[int, int], stroke: str = "#212121", width: int = 2,
             dash: str = "") -> None:
        coords = " ".join(f"{x},{y}" for x, y in points)
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<polyline points="{coords}" fill="none" stroke="{stroke}" '
                 f'stroke-width="{width}"{dashed}/>')

    def rect(self, x: int, y: int, w: int, h: int, fill: str, stroke: str = "none",
             radius: int = 0, width: int = 1, dash: str = "") -> None:
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{radius}" '
                 f'fill="{fill}" stroke="{stroke}" stroke-width="{width}"{dashed}/>')

    def circle(self, x: int, y: int, r: int, fill: str, stroke: str = "none") -> None:
        self.add(f'<circle cx="{x}" cy="{y}" r="{r}" fill="{fill}" stroke="{stroke}"/>')

    def polygon(self, points: list[tuple[int, int]], fill: str) -> None:
        coords = " ".join(f"{x},{y}" for x, y in points)
        self.add(f'<polygon points="{coords}" fill="{fill}" stroke="#212121" '
                 'stroke-width="1.5"/>')

    def ground(self, x: int, y: int) -> None:
        """The ground symbol hanging from (x, y)."""
        self.line((x, y - 8), (x, y))
        for half, dy in ((11, 0), (7, 4), (3, 8)):
            self.line((x - half, y + dy), (x + half, y + dy))
        self.text(x + 15, y + 8, "GND", 9, fill="#616161")

    def rail(self, x: int, y: int) -> None:
        """A 3V3 supply mark at (x, y)."""
        self.line((x - 10, y), (x + 10, y))
        self.text(x, y - 6, "3V3", 11, "middle", PIN_FILL["3V3"], "bold")

    def render(self) -> str:
        head = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT}">\n'
        )
        return head + "\n".join(self.parts) + "\n</svg>\n"


def wire_label(gpio: int) -> str:
    return f"GPIO{gpio} · pin {PHYSICAL[gpio]}"


def draw_header(svg: Svg, pinmap: PinMap) -> None:
    uses = {gpio: use.replace("seat ", "S") for gpio, use in pinmap.uses().items()}
    owner = {getattr(pins, role): seat for seat, pins in pinmap.seats.items() for role in ROLES}
    mid = (ODD_X + EVEN_X) // 2
    svg.text(mid, 84, "Raspberry Pi 40-pin header", 14, "middle", weight="bold")
    svg.text(mid, 100, "from above: pin 1 (square) at the top, board edge on the right", 10,
             "middle", "#616161")
    svg.rect(ODD_X - 18, ROW0 - 18, EVEN_X - ODD_X + 36, 19 * PITCH + 36, "#1b5e20", radius=6)
    for pin, name in HEADER.items():
        row, even = (pin - 1) // 2, pin % 2 == 0
        x, y = (EVEN_X if even else ODD_X), ROW0 + row * PITCH
        gpio = int(name[4:]) if name.startswith("GPIO") else None
        if gpio is None:
            fill = PIN_FILL[name]
        elif gpio in owner:
            fill = SEAT_COLOURS[owner[gpio]]
        elif gpio in FUNCTION:
            fill = RESERVED_FILL
        else:
            fill = FREE_FILL
        if pin == 1:
            svg.rect(x - 11, y - 11, 22, 22, fill, "#fafafa", width=2)
        else:
            svg.circle(x, y, 11, fill, "#fafafa")
        dark = fill in (FREE_FILL, RESERVED_FILL)
        svg.text(x, y + 4, str(pin), 10, "middle", "#212121" if dark else "#ffffff", "bold")
        label = name if gpio is None or gpio not in FUNCTION else f"{name} {FUNCTION[gpio]}"
        side = 1 if even else -1
        svg.text(x + side * 22, y + 4, label, 11, "start" if even else "end",
                 "#9e9e9e" if gpio is not None and gpio in FUNCTION else "#212121")
        if gpio is not None and gpio in uses:
            tag_x = x + TAG_GAP if even else x - TAG_GAP - TAG_W
            svg.rect(tag_x, y - 10, TAG_W, 20, SEAT_COLOURS[owner[gpio]], radius=10)
            svg.text(tag_x + TAG_W // 2, y + 4, uses[gpio], 11, "middle", "#ffffff", "bold")
    legend_y = ROW0 + 19 * PITCH + 38
    items = [("GND", PIN_FILL["GND"]), ("3V3", PIN_FILL["3V3"]), ("5V", PIN_FILL["5V"]),
             ("bus / reserved", RESERVED_FILL), ("free", FREE_FILL)]
    x = 40
    for label, fill in items:
        svg.circle(x, legend_y, 7, fill, "#616161")
        svg.text(x + 12, legend_y + 4, label, 11)
        x += 12 + len(label) * 6 + 22
    svg.text(33, legend_y + 24, "S1 to S4: the seat using that pin (its button or an LED "
             "colour)", 11, fill="#616161")


def draw_seat(svg: Svg, seat: int, pinmap: PinMap) -> None:
    ox, oy = BLOCKS[seat]
    colour = SEAT_COLOURS[seat]
    svg.rect(ox, oy, BLOCK_W, BLOCK_H, "#fafafa", colour, radius=10, width=2)
    svg.text(ox + 16, oy + 26, f"Seat {seat}", 16, fill=colour, weight="bold")
    pins = pinmap.seats.get(seat)
    if pins is None:
        svg.text(ox + 16, oy + 56, f"Not wired: pinout.toml has no [seat.{seat}].", 12,
                 fill="#616161")
        return
    # The button: GPIO -> switch -> GND (pull-up) or 3V3 (pull-down).
    y = oy + 60
    pin_tag(svg, ox, y, pins.button, colour)
    svg.line((ox + 126, y), (ox + 170, y))
    svg.circle(ox + 173, y, 3, "#ffffff", "#212121")
    svg.circle(ox + 209, y, 3, "#ffffff", "#212121")
    svg.line((ox + 166, y - 11), (ox + 216, y - 11))
    svg.line((ox + 191, y - 11), (ox + 191, y - 19))
    svg.line((ox + 183, y - 19), (ox + 199, y - 19))
    svg.line((ox + 212, y), (ox + 252, y))
    if pinmap.button_pull_up:
        svg.line((ox + 252, y), (ox + 252, y + 14))
        svg.ground(ox + 252, y + 22)
        svg.text(ox + 191, y + 22, "button to GND", 10, "middle", "#616161")
        svg.text(ox + 191, y + 34, "(internal pull-up)", 10, "middle", "#616161")
    else:
        svg.line((ox + 252, y), (ox + 252, y - 16))
        svg.rail(ox + 252, y - 16)
        svg.text(ox + 191, y + 22, "button to 3V3", 10, "middle", "#616161")
        svg.text(ox + 191, y + 34, "(internal pull-down)", 10, "middle", "#616161")
    # The LED: GPIO -> resistor -> one colour's die -> the common leg.
    rows = {"red": oy + 144, "green": oy + 186, "blue": oy + 228}
    bus = ox + 296
    cathode = pinmap.led_active_high
    svg.rect(ox + 224, oy + 122, 96, 132, "none", "#757575", radius=8, dash="4 3")
    svg.text(ox + 272, oy + 116, "RGB LED, common " + ("cathode" if cathode else "anode"), 10,
             "middle", "#616161")
    for name, y in rows.items():
        gpio = getattr(pins, name)
        pin_tag(svg, ox, y, gpio, colour)
        svg.line((ox + 126, y), (ox + 150, y))
        svg.rect(ox + 150, y - 6, 46, 12, "#fff8e1", "#212121", width=2)
        svg.text(ox + 173, y - 11, f"{OHMS[name]} Ω", 11, "middle", weight="bold")
        svg.line((ox + 196, y), (ox + 234, y))
        if cathode:  # anode on the GPIO side, pointing at the common cathode
            svg.polygon([(ox + 234, y - 9), (ox + 234, y + 9), (ox + 252, y)], LED_FILL[name])
            svg.line((ox + 252, y - 9), (ox + 252, y + 9))
        else:  # the GPIO sinks: cathode on the GPIO side, the common anode on the bus
            svg.polygon([(ox + 252, y - 9), (ox + 252, y + 9), (ox + 234, y)], LED_FILL[name])
            svg.line((ox + 234, y - 9), (ox + 234, y + 9))
        for dx in (0, 6):  # light
            svg.line((ox + 242 + dx, y - 11), (ox + 248 + dx, y - 17), width=1)
        svg.text(ox + 243, y + 21, name, 9, "middle", "#616161")
        svg.line((ox + 252, y), (bus, y))
    if cathode:
        svg.line((bus, rows["red"]), (bus, rows["blue"] + 32))
        svg.ground(bus, rows["blue"] + 40)
        common = "longest LED leg: the common cathode, to GND"
    else:
        svg.line((bus, rows["blue"]), (bus, rows["red"] - 12), (ox + 350, rows["red"] - 12),
                 (ox + 350, rows["red"] - 30))
        svg.rail(ox + 350, rows["red"] - 30)
        common = "longest LED leg: the common anode, to 3V3"
    svg.text(ox + 16, oy + BLOCK_H - 28, common, 11, fill="#424242")
    svg.text(ox + 16, oy + BLOCK_H - 12, "5 mm RGB LED legs: usually R, common, G, B "
             "(check yours)", 11, fill="#424242")


def pin_tag(svg: Svg, ox: int, y: int, gpio: int, colour: str) -> None:
    """The box where a wire from the header lands: its GPIO and header pin."""
    svg.rect(ox + 12, y - 11, 114, 22, "#ffffff", colour, radius=4, width=2)
    svg.text(ox + 69, y + 4, wire_label(gpio), 11, "middle", weight="bold")


def draw_notes(svg: Svg, pinmap: PinMap) -> None:
    used = set(pinmap.uses())
    free = [g for g in sorted(PHYSICAL) if g not in used and g not in FUNCTION]
    grounds = ", ".join(str(pin) for pin in GROUNDS)
    currents = ", ".join(f"{name} {OHMS[name]} Ω ≈ {milliamps(name)} mA"
                         for name in ("red", "green", "blue"))
    lines = [
        f"Resistors (3.3 V GPIO; Vf red {FORWARD_V['red']} V, green and blue "
        f"{FORWARD_V['green']} V): {currents}. Keep each pin under 16 mA and all of them "
        "under 50 mA.",
        f"GND is on header pins {grounds}: all the same ground, use the nearest. "
        "3V3 is on pins 1 and 17. Never wire anything to 5V (pins 2, 4).",
        "Left alone: GPIO0-1 (HAT ID EEPROM), GPIO2-3 (I2C), GPIO14-15 (UART), GPIO7-11 (SPI0). "
        "Free for other uses: " + (", ".join(f"GPIO{g}" for g in free) or "none") + ".",
        "In each seat, a white box is the header pin its wire starts from. To move a seat: "
        "edit hardware/pinout.toml, then run  python scripts/make/wiring.py",
    ]
    svg.rect(20, NOTES_Y, WIDTH - 40, 130, "#f5f5f5", "#bdbdbd", radius=8)
    svg.text(36, NOTES_Y + 24, "Notes", 13, weight="bold")
    for i, text in enumerate(lines):
        svg.text(36, NOTES_Y + 48 + i * 22, text, 12)


def generate(pinmap: PinMap) -> str:
    """The whole SVG for ``pinmap``, as text."""
    svg = Svg()
    svg.rect(0, 0, WIDTH, HEIGHT, "#ffffff")
    svg.text(20, 36, "Clans Pi: wiring each seat's button and RGB LED", 22, weight="bold")
    svg.text(20, 58, "Generated by scripts/make/wiring.py from hardware/pinout.toml. "
             "GPIO numbers are BCM numbers; header pins are physical positions.", 12,
             fill="#616161")
    draw_header(svg, pinmap)
    for seat in sorted(BLOCKS):
        draw_seat(svg, seat, pinmap)
    draw_notes(svg, pinmap)
    return svg.render()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if the file differs from what the pin map gives")
    parser.add_argument("--pinout", type=Path, default=DEFAULT_PATH,
                        help="the pin map (default: hardware/pinout.toml)")
    parser.add_argument("--out", type=Path, default=OUT,
                        help="the SVG to write or check (default: hardware/wiring.svg)")
    args = parser.parse_args(argv)
    try:
        text = generate(load_pinmap(args.pinout))
    except PinMapError as exc:
        print(f"make_wiring: {exc}", file=sys.stderr)
        return 2
    if args.check:
        try:
            current = args.out.read_text(encoding="utf-8")
        except OSError:
            current = None
        if current != text:
            print(f"make_wiring: {args.out} is out of date with {args.pinout}: "
                  "run python scripts/make/wiring.py", file=sys.stderr)
            return 1
        return 0
    args.out.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
