"""The window or full screen, the ``rotate`` setting, and touch/mouse coordinates.

On the Pi the app draws straight to the display (SDL's kmsdrm driver) and the console does
not rotate it, so rotation is ours: screens draw on a *logical* surface in the orientation
the family sees, and :meth:`Display.present` turns it onto the physical one.
:meth:`Display.to_logical` maps touch and mouse positions back. ``rotate`` is the clockwise
turn of the picture in degrees.
"""

from __future__ import annotations

import os

import pygame

from ..settings.options import ROTATIONS


class NoDisplayError(RuntimeError):
    """No screen to draw on (no desktop session, no usable video driver)."""


def logical_size(physical: tuple[int, int], rotate: int) -> tuple[int, int]:
    w, h = physical
    return (h, w) if rotate in (90, 270) else (w, h)


def to_logical(pos: tuple[float, float], logical: tuple[int, int],
               rotate: int) -> tuple[float, float]:
    """Map a physical screen point to the logical picture (inverse of the rotation)."""
    px, py = pos
    w, h = logical
    if rotate == 90:
        return (py, h - 1 - px)
    if rotate == 180:
        return (w - 1 - px, h - 1 - py)
    if rotate == 270:
        return (w - 1 - py, px)
    return (px, py)


def to_physical(pos: tuple[float, float], logical: tuple[int, int],
                rotate: int) -> tuple[float, float]:
    """Map a logical point to where it appears on the physical screen."""
    x, y = pos
    w, h = logical
    if rotate == 90:
        return (h - 1 - y, x)
    if rotate == 180:
        return (w - 1 - x, h - 1 - y)
    if rotate == 270:
        return (y, w - 1 - x)
    return (x, y)


def rotate_picture(surface: pygame.Surface, rotate: int) -> pygame.Surface:
    """``surface`` turned clockwise by ``rotate`` degrees (pygame turns anticlockwise)."""
    return pygame.transform.rotate(surface, -rotate) if rotate else surface


#: SDL drivers that draw nowhere a person can see.
INVISIBLE_DRIVERS = frozenset({"offscreen", "dummy"})


def choose_driver(env: dict[str, str] | os._Environ[str]) -> str | None:
    """The SDL video drivers to try, unless the user chose (``SDL_VIDEODRIVER``).

    A desktop session has ``WAYLAND_DISPLAY`` or ``DISPLAY``; without either we are on a
    console, where only kmsdrm can draw. Naming them keeps SDL from falling back to its
    invisible offscreen driver (a game nobody can see) and from printing Wayland's
    complaints on a console. SDL >= 2.0.22 takes a comma-separated list.
    """
    if env.get("SDL_VIDEODRIVER"):
        return None
    if env.get("WAYLAND_DISPLAY"):
        return "wayland,x11"
    if env.get("DISPLAY"):
        return "x11"
    return "kmsdrm"


def check_driver(actual: str, wanted: str, chosen_by_user: bool) -> None:
    """Refuse a driver that draws where nobody looks.

    ``wanted`` is SDL_VIDEODRIVER as SDL saw it (ours or the user's). The service sets
    kmsdrm: should SDL end up with another driver (an SDL build without kmsdrm, a newer SDL
    that falls back), the screen would stay blank with no word why; this says why instead.
    """
    # SDL matches SDL_VIDEODRIVER without regard to case and names some drivers in capitals
    # (pygame.display.get_driver() says "KMSDRM" for kmsdrm).
    actual = actual.lower()
    names = [n.strip().lower() for n in wanted.split(",") if n.strip()]
    if names and actual not in names:
        raise pygame.error(f"SDL_VIDEODRIVER={wanted} but SDL chose {actual!r}")
    if actual in INVISIBLE_DRIVERS and not chosen_by_user:
        raise pygame.error(f"only SDL's {actual} driver works")


def renderer_hints(driver: str, env: dict[str, str] | os._Environ[str]) -> None:
    """SDL hints for the driver SDL chose, set before the window is made.

    kmsdrm shows the window through one of SDL's renderers, over EGL. SDL tries its desktop
    OpenGL renderer first, and where Mesa's libGL.so.1 is missing (Raspberry Pi OS Lite has
    only EGL and GLES) it loads the GLES library in its place, "creates" the renderer and
    draws nothing: a black screen (seen booting the image in QEMU, scripts/test-image).
    GLES 2 is what the Pi's GPU drivers (vc4, v3d) speak; a choice made by the user stands.

    On x11 the picture goes through shared memory: without the hint SDL builds the
    window's surface on OpenGL, which loads Mesa (and LLVM with it on software GL): about
    90 MB more memory for nothing we use.
    """
    driver = driver.lower()
    if driver == "kmsdrm":
        env.setdefault("SDL_RENDER_DRIVER", "opengles2")
    elif driver == "x11":
        env.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")


def prepare_sdl() -> None:
    """SDL hints that must be set before the display starts.

    A touch on the Pi produces a finger event *and* a synthetic mouse event; we handle
    fingers ourselves, so the synthetic mouse events are switched off (the app also ignores
    any mouse event marked as coming from touch, for SDL builds that ignore the hint).
    """
    os.environ.setdefault("SDL_TOUCH_MOUSE_EVENTS", "0")
    os.environ.setdefault("SDL_MOUSE_TOUCH_EVENTS", "0")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


class Display:
    """The physical display plus the logical surface the screens draw on."""

    def __init__(self, size: tuple[int, int], *, rotate: int = 0,
                 fullscreen: bool = False) -> None:
        if rotate not in ROTATIONS:
            raise ValueError(f"rotate must be one of {ROTATIONS}, not {rotate}")
        prepare_sdl()
        chosen_by_user = bool(os.environ.get("SDL_VIDEODRIVER"))
        drivers = choose_driver(os.environ)
        if drivers is not None:
            os.environ["SDL_VIDEODRIVER"] = drivers
        wanted = os.environ.get("SDL_VIDEODRIVER", "")
        try:
            pygame.display.init()
            check_driver(pygame.display.get_driver(), wanted, chosen_by_user)
            renderer_hints(pygame.display.get_driver(), os.environ)
            pygame.font.init()
            if fullscreen:
                window = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            else:
                w, h = size
                window = pygame.display.set_mode((h, w) if rotate in (90, 270) else (w, h))
        except pygame.error as exc:
            pygame.display.quit()
            raise NoDisplayError(str(exc) or "no video device") from None
        finally:
            if drivers is not None:
                del os.environ["SDL_VIDEODRIVER"]
        pygame.display.set_caption("Clans")
        pygame.mouse.set_visible(not fullscreen)
        self.rotate = rotate
        self.fullscreen = fullscreen
        self.window = window
        self.driver = pygame.display.get_driver()
        self.size = logical_size(window.get_size(), rotate)
        self.surface = window if rotate == 0 else pygame.Surface(self.size).convert()

    def present(self, rects: list[pygame.Rect] | None = None) -> None:
        """Show what was drawn: only ``rects`` when given (unrotated), else everything."""
        if self.rotate:
            self.window.blit(rotate_picture(self.surface, self.rotate), (0, 0))
            pygame.display.flip()
        elif rects:
            pygame.display.update(rects)
        else:
            pygame.display.flip()

    def finger_pos(self, x: float, y: float) -> tuple[float, float]:
        """A finger event's normalised window position, in logical pixels."""
        w, h = self.window.get_size()
        px, py = min(max(x, 0.0) * w, w - 1), min(max(y, 0.0) * h, h - 1)
        return to_logical((px, py), self.size, self.rotate)

    def mouse_pos(self, pos: tuple[int, int]) -> tuple[float, float]:
        return to_logical(pos, self.size, self.rotate)

    def close(self) -> None:
        pygame.display.quit()
