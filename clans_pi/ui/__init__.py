"""The touchscreen game (pygame): screens, board drawing, input."""

import os

# pygame prints a banner on import unless told not to; the game's output is for players.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
