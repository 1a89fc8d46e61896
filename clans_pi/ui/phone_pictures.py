"""Pictures the screen draws for a phone seat's page: the player's picture (their avatar's
badge, as the screen shows it for the seat) beside their name, and the hint (the board and
the suggested move, as the private hint screen shows it), as a PNG the table sends to that
phone alone.

Drawn upright for a phone held in the hand: the board a quarter turn, as on an upright
touchscreen, so it gets the phone's height.
"""

from __future__ import annotations

import io

import pygame

from ..rules.board import Board
from ..rules.moves import Move
from ..rules.observation import Observation
from .avatars import AVATARS, avatar_surface
from .board_view import BoardView
from .canvas import Canvas
from .clan_look import DEFAULT_LOOK, ClanLook
from .screens.hint import draw_hint
from .theme import BG

#: The side of a player's picture in pixels (shown at most 81 CSS pixels across: sharp at
#: two device pixels per CSS pixel; about 10 kB).
PICTURE_SIDE = 192
#: The hint picture's width in pixels: sharp on a phone's screen (about 360 CSS pixels at two
#: device pixels or so each), small to send (about 60 kB) and quick to make (PNG encoding
#: takes most of it: about 40 ms here, so some 160 ms on a Pi, once per hint).
HINT_WIDTH = 600

#: The board's view per (board, width, look): its background is drawn once, not per hint.
_views: dict[tuple[int, int, ClanLook], BoardView] = {}


def hint_png(board: Board, obs: Observation, move: Move, look: ClanLook = DEFAULT_LOOK,
             width: int = HINT_WIDTH) -> bytes:
    """The board at ``obs`` (a public view) with ``move`` drawn as the hint screen draws it:
    its two territories outlined, an arrow between, its villages' order marked."""
    height = round(width * board.aspect)
    surface = pygame.Surface((width, height))
    surface.fill(BG)
    canvas = Canvas(surface)
    key = (id(board), width, look)
    bv = _views.get(key)
    if bv is None or bv.board is not board:
        _views.clear()  # one board and look at a time: no more than one view kept
        bv = _views[key] = BoardView(board, surface.get_rect(), look, turned=True)
    bv.draw(canvas, obs, marked=move.order or (), show_last_move=False)
    draw_hint(canvas, bv, move, bold=1.8)
    out = io.BytesIO()
    pygame.image.save(surface, out, "hint.png")
    return out.getvalue()


def seat_picture_png(seat: int, key: str, side: int = PICTURE_SIDE) -> bytes | None:
    """Seat ``seat``'s badge as a PNG: avatar ``key``, or for "" the one the screen shows
    for that seat; None for a key the game does not know (a hand-edited save)."""
    key = key or AVATARS[seat % len(AVATARS)].key
    if key not in {a.key for a in AVATARS}:
        return None
    out = io.BytesIO()
    pygame.image.save(avatar_surface(key, side), out, "picture.png")
    return out.getvalue()
