"""Seat hardware: GPIO buttons and LEDs, Pico handhelds, and the protocol they speak."""
