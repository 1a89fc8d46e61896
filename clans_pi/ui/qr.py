"""QR codes for the phones' links (segno makes the code; pygame draws its modules)."""

from __future__ import annotations

import functools

import pygame
import segno

QUIET = 4  # modules of white round the code, as the standard asks


@functools.lru_cache(maxsize=8)
def qr_surface(text: str, side: int) -> pygame.Surface:
    """``text`` as a QR code, black on white, at most ``side`` pixels square, each module a
    whole number of pixels (a blurred module does not scan)."""
    matrix = segno.make(text, error="m", micro=False).matrix
    n = len(matrix) + 2 * QUIET
    module = max(1, side // n)
    surf = pygame.Surface((n * module, n * module))
    surf.fill((255, 255, 255))
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                surf.fill((0, 0, 0), ((x + QUIET) * module, (y + QUIET) * module,
                                      module, module))
    return surf
