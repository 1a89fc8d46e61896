"""The real handheld hardware on a Raspberry Pi Pico: the button, the light (an RGB LED
on three PWM pins or one WS2812 pixel), the Pico's own LED, and an optional SSD1306.

Hardware(cfg) takes the config module. The Handheld uses only these methods:
uid(), button(), led(rgb or None), screen(ops), status(on).
"""

from machine import PWM, Pin, unique_id


def open_display(cfg):
    """The SSD1306 if it is wanted, its driver is installed and it answers on I2C; else None."""
    if not cfg.DISPLAY:
        return None
    try:
        import ssd1306
    except ImportError:
        return None
    try:
        from machine import I2C

        i2c = I2C(cfg.I2C_ID, sda=Pin(cfg.I2C_SDA), scl=Pin(cfg.I2C_SCL), freq=cfg.I2C_FREQ)
        if cfg.I2C_ADDR not in i2c.scan():
            return None
        return ssd1306.SSD1306_I2C(cfg.DISPLAY_WIDTH, cfg.DISPLAY_HEIGHT, i2c, addr=cfg.I2C_ADDR)
    except (OSError, ValueError):
        return None


class Hardware:
    def __init__(self, cfg):
        self._cfg = cfg
        pull = Pin.PULL_UP if cfg.BUTTON_ACTIVE_LOW else Pin.PULL_DOWN
        self._button = Pin(cfg.BUTTON_PIN, Pin.IN, pull)
        self._pressed_level = 0 if cfg.BUTTON_ACTIVE_LOW else 1
        self._brightness = max(0.0, min(1.0, cfg.BRIGHTNESS))
        self._pixel = None
        self._pwms = []
        if cfg.LED == "neopixel":
            import neopixel

            self._pixel = neopixel.NeoPixel(Pin(cfg.NEOPIXEL_PIN, Pin.OUT), 1)
        else:
            for n in cfg.RGB_PINS:
                pwm = PWM(Pin(n))
                pwm.freq(cfg.PWM_FREQ)
                self._pwms.append(pwm)
        self._status = None
        if cfg.STATUS_LED:
            try:
                self._status = Pin("LED", Pin.OUT)
            except (TypeError, ValueError):
                self._status = None  # a board without a named LED
        self.oled = open_display(cfg)
        self.led(None)
        self.screen([])
        self.status(False)

    def uid(self):
        """The RP2040 flash chip's unique id: 8 bytes."""
        return bytes(unique_id())

    def button(self):
        """True while the button is pressed (not debounced)."""
        return self._button.value() == self._pressed_level

    def led(self, rgb):
        """Light (red, green, blue) 0..255, scaled by BRIGHTNESS; None is off."""
        if rgb is None:
            rgb = (0, 0, 0)
        scale = self._brightness
        if self._pixel is not None:
            self._pixel[0] = (int(rgb[0] * scale), int(rgb[1] * scale), int(rgb[2] * scale))
            self._pixel.write()
            return
        for i in range(len(self._pwms)):
            duty = int(rgb[i] * 257 * scale)
            if self._cfg.COMMON_ANODE:
                duty = 65535 - duty
            self._pwms[i].duty_u16(duty)

    def screen(self, ops):
        """Clear the display and draw [(method, args)] in white; [] leaves it blank."""
        oled = self.oled
        if oled is None:
            return
        try:
            oled.fill(0)
            for name, args in ops:
                args = list(args)
                args.append(1)  # white
                getattr(oled, name)(*args)
            oled.show()
        except OSError:
            self.oled = None  # the display went away: carry on with the LED

    def status(self, on):
        """The Pico's own LED: on while the host is connected."""
        if self._status is not None:
            self._status.value(1 if on else 0)
