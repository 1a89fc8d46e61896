"""Showing the screens in another language in tests, and checking what was drawn."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from clans_pi import i18n
from clans_pi.ui import languages
from clans_pi.ui.app import App
from clans_pi.ui.layout import scale_for


@contextmanager
def language(code: str) -> Iterator[None]:
    """Everything in ``code`` inside the block (it must be available), English after."""
    problem = languages.use(code)
    assert problem is None, problem
    assert i18n.language() == code
    try:
        yield
    finally:
        assert languages.use("en") is None


def text_problems(app: App) -> list[str]:
    """Every drawn text that leaves the window or its box, does not fit, or has characters
    the font has no glyph for; and touch targets that are too small."""
    window = app.surface.get_rect()
    out = []
    for d in app.canvas.records:
        if not window.contains(d.rect):
            out.append(f"{d.kind} {d.name!r} at {d.rect} leaves the window")
        if not d.fits:
            out.append(f"{d.kind} {d.name!r} does not fit its box {d.box}")
        if d.missing:
            out.append(f"text {d.name!r}: no glyph for {d.missing!r}")
        if d.kind == "text" and not d.box.inflate(2, 4).contains(d.rect):
            out.append(f"text {d.name!r} {d.rect} outside its box {d.box}")
        if d.kind == "target" and min(d.rect.size) < 44 * scale_for(app.size):
            out.append(f"touch target {d.name} is {d.rect.size}")
    return out
