"""Pins and options for one Clans handheld. Edit to match your wiring, then copy to the Pico.

Pin numbers are GPIO numbers (GP14 is 14), not the physical pin numbers on the board.
See README.md beside this file for the wiring.
"""

# The button: a push button between BUTTON_PIN and GND, read with the internal pull-up,
# so the pin reads 0 while pressed. Set BUTTON_ACTIVE_LOW = False for a button to 3V3
# (the internal pull-down is used then).
BUTTON_PIN = 14
BUTTON_ACTIVE_LOW = True
DEBOUNCE_MS = 30  # a change must hold this long to count

# The light: "rgb" for a 4-leg RGB LED on three PWM pins (each leg through its own
# resistor), or "neopixel" for one WS2812/SK6812 pixel on NEOPIXEL_PIN.
LED = "rgb"
RGB_PINS = (16, 17, 18)  # red, green, blue
COMMON_ANODE = False  # True when the LED's common leg goes to 3V3 instead of GND
PWM_FREQ = 1000  # Hz
NEOPIXEL_PIN = 16
BRIGHTNESS = 0.6  # 0.0 .. 1.0, applied to every colour

# What each clan lights, as (red, green, blue) 0..255, in clan-id order:
# red, blue, green, yellow, black. An LED cannot show black, so the black clan is white.
COLOURS = (
    (255, 0, 0),
    (0, 0, 255),
    (0, 255, 0),
    (255, 140, 0),
    (255, 255, 255),
)

BLINK_MS = 500  # half-period of the "you did not win" blink

# Optional SSD1306 128x64 OLED on I2C, showing the clan's name and a pattern for
# colour-blind players. Needs the micropython-lib ssd1306 module (mpremote mip install
# ssd1306). Without the module or the display the handheld works with the LED alone.
DISPLAY = True
I2C_ID = 0
I2C_SDA = 4
I2C_SCL = 5
I2C_FREQ = 400000
I2C_ADDR = 0x3C
DISPLAY_WIDTH = 128
DISPLAY_HEIGHT = 64

# The Pico's own LED lights while the host is connected (welcomed and heard from).
STATUS_LED = True

WATCHDOG_MS = 8000  # the Pico resets if the program stops feeding the watchdog this long
POLL_MS = 5  # how long one loop waits for input from the host
