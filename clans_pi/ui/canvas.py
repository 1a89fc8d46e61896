"""Drawing helpers that fit text into boxes and remember what went where.

Every screen draws through a :class:`Canvas`. It keeps a list of :class:`Drawn` records
(text boxes, named regions, touch targets) so tests can check that text fits its box,
regions stay inside the window and do not overlap, and buttons are large enough.
Rendered text is cached, so a redraw costs blits, not font rendering.

Text is drawn in pygame's bundled font, or in the face the language needs (Japanese: a CJK
font, see :mod:`clans_pi.ui.fonts`), opened so that its lines are as tall as the bundled
font's; the caches are keyed by the face. Characters that face has no glyph for (a Japanese
font without Latin letters or digits) are drawn, run by run, in the bundled font at the
face's size on the same baseline, and measured the same way for wrapping. :func:`wrap`
breaks Japanese between characters.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import pygame
import pygame.freetype

from .theme import Color

MIN_FONT = 9
#: No text is drawn smaller than this (the px of pygame's bundled font, which opens a size
#: n at n * 0.6875 pixels): 18 gives 12 px text, the least a player reads from across a
#: table on the 7" 800x480 display. A window under 480 px on its short side (the 3.5"
#: 480x320 display) cannot hold that much text at 12 px: there the least is 12 (8 px).
LEAST_PX = 18
LEAST_PX_SMALL = 12


@dataclass(frozen=True, slots=True)
class Drawn:
    """One recorded drawing: ``kind`` is "text", "paragraph", "region" or "target"."""

    kind: str
    name: str
    rect: pygame.Rect
    box: pygame.Rect
    fits: bool = True
    missing: str = ""  # characters the font has no glyph for (drawn as boxes)
    height: int = 0  # text: the line's height as drawn; a number on the board: its digits


_face: str | None = None  # the font file in use; None: pygame's bundled font


def set_face(path: str | None) -> None:
    """Draw text with the font file at ``path`` from now on (None: the bundled font).
    The caches are keyed by the face too, so nothing drawn in the old face is reused."""
    global _face
    _face = path


def face() -> str | None:
    return _face


@contextlib.contextmanager
def using_face(path: str | None) -> Iterator[None]:
    """Draw with ``path`` inside the block (a language's own name in its own script)."""
    global _face
    was, _face = _face, path
    try:
        yield
    finally:
        _face = was


#: Drawn to find how tall a face's ink is (kanji, kana, Latin ascenders and descenders).
_BAND_PROBE = "国村小屋Ågjy"


@functools.lru_cache(maxsize=1)
def bundled_file() -> str:
    """The bundled font's file: it draws what a language's face lacks (a Japanese face
    without Latin letters or digits), opened at the face's own size."""
    return os.path.join(os.path.dirname(pygame.__file__), pygame.font.get_default_font())


#: Per face file: the characters found to have a glyph there, and those found to lack one.
_coverage: dict[str, tuple[set[str], set[str]]] = {}


def _lacking(path: str, text: str) -> set[str]:
    """The characters of ``text`` the face at ``path`` has no glyph for (each character is
    asked of the font once: wrapping measures many lines)."""
    has, lacks = _coverage.setdefault(path, (set(), set()))
    chars = set(text)
    new = chars - has - lacks
    if new:
        missing = set(missing_glyphs("".join(new), path))
        lacks |= missing
        has |= new - missing
    return chars & lacks


@functools.lru_cache(maxsize=4096)
def _runs(path: str, text: str) -> tuple[tuple[str, str], ...]:
    """``text`` cut into runs, each with the file that draws it: the face at ``path``, or
    the bundled font for characters the face has no glyph for and the bundled font has."""
    lacking = _lacking(path, text)
    if not lacking:
        return ((path, text),)
    lacking -= set(missing_glyphs("".join(lacking), None))  # neither has it: the face's box
    runs: list[tuple[str, str]] = []
    for ch in text:
        who = bundled_file() if ch in lacking else path
        if runs and runs[-1][0] == who:
            runs[-1] = (who, runs[-1][1] + ch)
        else:
            runs.append((who, ch))
    return tuple(runs)


def undrawable(text: str, path: str | None = None) -> str:
    """The characters of ``text`` that are drawn as boxes in the face at ``path`` (None:
    the bundled font): those neither it nor, for a language's face, the bundled font has."""
    lacking = missing_glyphs(text, path)
    if path is None or not lacking:
        return lacking
    return missing_glyphs(lacking, None)


@functools.lru_cache(maxsize=64)
def _ttf(path: str, size: int) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(path, size)


def _compose(path: str, text: str, size: int, color: Color) -> tuple[pygame.Surface, int]:
    """``text`` in the face at ``path`` opened at ``size``, its runs without a glyph there
    in the bundled font at the same size, on one baseline: (surface, baseline row)."""
    runs = _runs(path, text)
    if len(runs) == 1:
        f = _ttf(runs[0][0], size)
        return f.render(text, True, color), f.get_ascent()
    parts = [(_ttf(who, size).render(piece, True, color), _ttf(who, size).get_ascent())
             for who, piece in runs]
    above = max(asc for _, asc in parts)
    below = max(s.get_height() - asc for s, asc in parts)
    out = pygame.Surface((sum(s.get_width() for s, _ in parts), above + below),
                         pygame.SRCALPHA)
    out.fill((*color[:3], 0))  # blending onto the ink's colour keeps antialiased edges true
    x = 0
    for s, asc in parts:
        out.blit(s, (x, above - asc))
        x += s.get_width()
    return out, above


@functools.lru_cache(maxsize=256)
def _band_at(path: str, size: int) -> tuple[int, int]:
    """(top, height) of the rows of a line of the face at ``path`` opened at ``size`` that
    hold ink, top counted from the baseline: Noto CJK leaves much room above and below its
    glyphs, which the screens' boxes do not have."""
    surf, baseline = _compose(path, _BAND_PROBE, size, (255, 255, 255))
    ink = surf.get_bounding_rect()
    return ink.top - baseline, ink.height


@functools.lru_cache(maxsize=8)
def _scale(path: str) -> float:
    """How much smaller to open the face at ``path`` so that its inked band is as tall as
    a line of the bundled font at the same ``px``: every box sized for the bundled font
    then holds it, and Japanese reads at about the size of the Latin text."""
    probe = 48
    return _font(None, probe).get_height() / _band_at(path, probe)[1]


def _band(path: str, px: int) -> tuple[int, int]:
    """:func:`_band_at` for the face at ``path`` drawing text at ``px``."""
    return _band_at(path, _size(path, px))


@functools.lru_cache(maxsize=64)
def _font(path: str | None, px: int) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    if path is None:
        return pygame.font.Font(None, max(MIN_FONT, px))
    return _ttf(path, _size(path, px))


def font(px: int) -> pygame.font.Font:
    """The UI font at ``px`` pixels: pygame's bundled font (same look on every machine), or
    the face set for a language it cannot draw (Japanese). Characters that face lacks are
    drawn in the bundled font (:func:`rendered`, :func:`text_width`)."""
    return _font(_face, px)


@functools.lru_cache(maxsize=8)
def _glyphs(path: str | None) -> pygame.freetype.Font:
    if not pygame.freetype.get_init():
        pygame.freetype.init()
    return pygame.freetype.Font(path, 16)


def missing_glyphs(text: str, path: str | None = None) -> str:
    """The characters of ``text`` the font at ``path`` (None: the bundled one) has no glyph
    for. pygame.font draws those as boxes and still reports metrics for them; freetype's
    metrics are None for a missing glyph, so they tell."""
    metrics = _glyphs(path).get_metrics(text)
    return "".join(ch for ch, m in zip(text, metrics, strict=False)
                   if m is None and not ch.isspace())


def line_size(px: int) -> int:
    """The distance between lines of text at ``px`` in the face in use."""
    if _face is None:
        return font(px).get_linesize()
    return round(_band(_face, px)[1] * 1.15)


def _size(path: str, px: int) -> int:
    return max(1, round(max(MIN_FONT, px) * _scale(path)))


#: Text in the bundled font under this size is drawn SUPERSAMPLE times larger and scaled
#: down. SDL_ttf hints glyphs at small sizes and rounds each advance to whole pixels, which
#: spaced letters unevenly ("twel fth", "point s"); pygame-ce offers no switch for SDL_ttf's
#: hinting, and at four times the size the rounding is a quarter pixel.
SMOOTH_BELOW = 40
SUPERSAMPLE = 4


def _smooth(text: str, px: int, color: Color) -> pygame.Surface:
    """``text`` in the bundled font at ``px``, its letters where the font puts them."""
    big = _font(None, px * SUPERSAMPLE).render(text, True, color)  # 32-bit, alpha
    size = (max(1, -(-big.get_width() // SUPERSAMPLE)), _font(None, px).get_height())
    return pygame.transform.smoothscale(big, size)


#: The most code points of one text the font renderer is given, measuring or drawing: more
#: than any line of the screen holds (a line at the smallest size is about 130 letters wide
#: at 800 pixels), few enough that the renderer never meets unbounded text (a 10,000-letter
#: name made SDL_ttf crash; 10,000 combining marks have no width, so only a count bounds
#: them). Text beyond it is cut before it is measured or drawn.
MAX_DRAWN = 400


def _bounded(text: str) -> str:
    """``text`` cut to :data:`MAX_DRAWN` code points (what the font renderer may get)."""
    return text if len(text) <= MAX_DRAWN else text[:MAX_DRAWN]


@functools.lru_cache(maxsize=2048)
def _rendered(path: str | None, text: str, px: int, color: Color) -> pygame.Surface:
    if path is None:
        if max(MIN_FONT, px) < SMOOTH_BELOW and text:
            return _smooth(text, max(MIN_FONT, px), color)
        return _font(None, px).render(text, True, color)
    surf, baseline = _compose(path, text, _size(path, px), color)
    top, height = _band(path, px)
    top += baseline
    if top >= 0 and top + height <= surf.get_height():
        return surf.subsurface((0, top, surf.get_width(), height)).copy()
    out = pygame.Surface((surf.get_width(), max(1, height)), pygame.SRCALPHA)
    out.fill((*color[:3], 0))
    out.blit(surf, (0, -top))
    return out


def rendered(text: str, px: int, color: Color) -> pygame.Surface:
    """``text`` rendered anti-aliased at ``px`` in ``color`` (cached): in the face in use,
    runs of characters it has no glyph for in the bundled font. At most :data:`MAX_DRAWN`
    code points of ``text`` are drawn."""
    return _rendered(_face, _bounded(text), px, color)


def numeral(text: str, px: int, color: Color, *, width: int | None = None,
            min_px: int | None = None) -> pygame.Surface:
    """``text`` (a number) rendered in the bundled font whatever the language, so numbers
    look the same in every language and their cached surfaces never depend on it; shrunk to
    ``width`` when given (see :func:`fit_size`)."""
    with using_face(None):
        if width is not None:
            px = fit_size(text, px, width, min_px)
        return rendered(text, px, color)


def text_height(px: int) -> int:
    """How tall a line of text drawn at ``px`` is in the face in use (what a reader sees:
    pygame's bundled font opened at ``px`` is ``px * 0.6875`` pixels)."""
    if _face is None:
        return font(px).get_height()
    return _band(_face, px)[1]


def text_width(text: str, px: int) -> int:
    """How wide :func:`rendered` draws ``text`` at ``px`` (what wrapping measures)."""
    text = _bounded(text)
    if _face is None and max(MIN_FONT, px) < SMOOTH_BELOW and text:
        return -(-_font(None, max(MIN_FONT, px) * SUPERSAMPLE).size(text)[0] // SUPERSAMPLE)
    if _face is None or not _lacking(_face, text):
        return font(px).size(text)[0]
    size = _size(_face, px)
    return sum(_ttf(who, size).size(piece)[0] for who, piece in _runs(_face, text))


def fit_size(text: str, px: int, width: int, min_px: int | None = None) -> int:
    """The largest size <= ``px`` (down to ``min_px``) at which ``text`` is <= ``width``."""
    low = max(MIN_FONT, min_px if min_px is not None else round(px * 0.6))
    size = px
    while size > low and text_width(text, size) > width:
        size -= 1
    return size


def shortened(text: str, px: int, width: int) -> str:
    """``text``, cut short with an ellipsis when it is wider than ``width`` at ``px`` or
    longer than :data:`MAX_DRAWN` code points. The cut is found by halving: a few dozen
    measurements whatever the length (widths grow with the text kept)."""
    if len(text) <= MAX_DRAWN and text_width(text, px) <= width:
        return text
    fits = _most(0, min(len(text), MAX_DRAWN - 1),  # (0: nothing but the ellipsis)
                 lambda k: text_width(text[:k] + "…", px) <= width)
    return text[:fits].rstrip() + "…"


def _most(least: int, most: int, holds: Callable[[int], bool]) -> int:
    """The largest ``k`` from ``least`` to ``most`` for which ``holds(k)``, found by halving
    (``holds`` is true up to some ``k`` and false after it, as "the first k characters fit";
    ``least`` when it holds for none above it)."""
    while least < most:
        mid = (least + most + 1) // 2
        if holds(mid):
            least = mid
        else:
            most = mid - 1
    return least


def shortened_in(frame: Callable[[list[str]], str], names: Sequence[str], px: int,
                 width: int, spare: int) -> str:
    """``frame`` (a sentence around ``names``) with each name cut short so that the whole
    fits ``width`` at ``px``: the words around keep their room, the names share the rest
    (less ``spare`` pixels: names and words kern where they meet)."""
    rest = text_width(frame([""] * len(names)), px)
    share = max(0, (width - rest - spare) // max(1, len(names)))
    return frame([shortened(name, px, share) for name in names])


#: Characters no line may start with (kinsoku, roughly): closing marks and small kana.
NO_LINE_START = frozenset(
    "、。，．,.!?！？)）」』】〕〉》…ー々:;：；%"  # noqa: RUF001 (Japanese punctuation)
    "ぁぃぅぇぉっゃゅょァィゥェォッャュョ"
)
#: Characters no line may end with: opening marks.
NO_LINE_END = frozenset("「『（(【〔〈《")  # noqa: RUF001 (Japanese punctuation)


def is_cjk(ch: str) -> bool:
    """A character of a script written without spaces (kana, kanji, fullwidth forms)."""
    code = ord(ch)
    return (0x3000 <= code <= 0x30FF or 0x3400 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF
            or 0xFF00 <= code <= 0xFFEF)


#: Signs written after a number and a space ("53 %"), never alone at a line's start.
AFTER_A_NUMBER = frozenset("%")


def _tokens(para: str) -> list[tuple[str, bool]]:
    """Unbreakable pieces of ``para`` and whether a space comes before each: a Latin word is
    one piece, each CJK character another; kinsoku characters stay with their neighbour."""
    tokens: list[tuple[str, bool]] = []
    space, glue, word = False, False, ""

    def push(piece: str) -> None:
        nonlocal space, glue
        if tokens and not space and (glue or piece[0] in NO_LINE_START):
            tokens[-1] = (tokens[-1][0] + piece, tokens[-1][1])
        elif tokens and space and piece[0] in AFTER_A_NUMBER:  # "53 %" stays on one line
            tokens[-1] = (f"{tokens[-1][0]} {piece}", tokens[-1][1])
        else:
            tokens.append((piece, space))
        space, glue = False, piece[-1] in NO_LINE_END

    for ch in para:
        if ch == " ":
            if word:
                push(word)
                word = ""
            space = True
        elif is_cjk(ch):  # ASCII punctuation stays in its word
            if word and ch not in NO_LINE_START:
                push(word)
                word = ""
            if word:
                word += ch
            else:
                push(ch)
        else:
            word += ch
    if word:
        push(word)
    return tokens


#: Where a word too long for a line (a file's path) is best broken: after one of these,
#: a folder's slash before the rest.
WORD_BREAKS = ("/\\", "-_.:")


def _broken(word: str, width: int, measure: Callable[[str], int]) -> list[str]:
    """``word``, wider than ``width``, in pieces that each fit: cut after a ``/`` (else a
    ``-``, ``.`` ...) that comes late enough in the piece, else between two letters."""
    pieces: list[str] = []
    while len(word) > 1 and measure(word) > width:
        # word[:fits] fits (one letter always goes)
        fits = _most(1, len(word) - 1, lambda k, word=word: measure(word[:k]) <= width)
        # The last break of the first kind that is not so early that it wastes the line.
        cut = next((at for marks in WORD_BREAKS
                    if (at := max(word.rfind(ch, 0, fits) + 1 for ch in marks)) > fits // 2),
                   fits)
        while cut > 1 and (word[cut] in NO_LINE_START or word[cut - 1] in NO_LINE_END):
            cut -= 1  # kinsoku holds here too: no piece starts with a closing mark
        pieces.append(word[:cut])
        word = word[cut:]
    return [*pieces, word]


def _measured(text: str, *, px: int, plain: pygame.font.Font | None) -> int:
    """How wide ``text`` is at ``px``: in ``plain``'s face alone, or as drawn (None)."""
    return plain.size(_bounded(text))[0] if plain is not None else text_width(text, px)


def wrap(text: str, px: int, width: int) -> list[str]:
    """Split ``text`` into lines no wider than ``width`` at ``px`` (words kept whole unless
    one alone is too wide, such as a long path: it goes on over the next lines, see
    :func:`_broken`; explicit newlines start new lines). Text without spaces (Japanese)
    breaks between characters, never before a closing mark such as 。、」 nor after an
    opening one."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        # One face draws the whole paragraph (asked once, not for every trial line), or its
        # runs are measured as they are drawn.
        one_face = _face is not None and not _lacking(_face, para)
        # (the bundled font is measured as drawn, smoothed: text_width)
        measure = functools.partial(_measured, px=px, plain=font(px) if one_face else None)
        for piece, spaced in _tokens(para):
            trial = piece if not line else f"{line}{' ' if spaced else ''}{piece}"
            if line and measure(trial) > width:
                lines.append(line)
                line = piece
            else:
                line = trial
            if line == piece and measure(piece) > width:  # alone on its line, and too wide
                *whole, line = _broken(piece, width, measure)
                lines += whole
        lines.append(line)
    return lines


#: Where a link is best cut, best first: after a slash, then after a dot or a colon (the
#: host's parts, the port); a token without either is cut between any two characters.
LINK_BREAKS = ("/", ".:")


def wrap_link(text: str, px: int, width: int) -> list[str]:
    """``text`` (a link: no spaces) cut into lines no wider than ``width`` at ``px``, every
    character kept: each line as long as fits, ending after a slash where one is in it, else
    after a dot or a colon; where neither is, the rest (a token) is cut into lines about as
    long as one another (a line holds at least one character)."""
    lines: list[str] = []
    rest = _bounded(text)
    while text_width(rest, px) > width:
        fits = _fitting(rest, px, width)
        cut = 0
        for marks in LINK_BREAKS:
            cut = max(rest.rfind(mark, 0, fits) for mark in marks) + 1
            if cut:
                break
        else:
            return lines + _even(rest, px, width)
        lines.append(rest[:cut])
        rest = rest[cut:]
    return [*lines, rest]


def _fitting(text: str, px: int, width: int) -> int:
    """How many characters of ``text`` fit ``width`` at ``px`` (at least one)."""
    return _most(1, len(text) - 1, lambda k: text_width(text[:k], px) <= width)


def _even(text: str, px: int, width: int) -> list[str]:
    """``text`` on as many lines as filling each in turn takes, cut into pieces of as many
    characters as one another where they all fit (else filled in turn)."""
    filled, rest = [], text
    while len(rest) > 1 and text_width(rest, px) > width:
        fits = _fitting(rest, px, width)
        filled.append(rest[:fits])
        rest = rest[fits:]
    filled.append(rest)
    n, k = len(text), len(filled)
    even = [text[i * n // k:(i + 1) * n // k] for i in range(k)]
    return even if all(text_width(piece, px) <= width for piece in even) else filled


def least_px(size: tuple[int, int]) -> int:
    """The smallest text size drawn on a picture of ``size`` (see :data:`LEAST_PX`)."""
    return LEAST_PX if min(size) >= 480 else LEAST_PX_SMALL


class Canvas:
    """A target surface plus the record of what was drawn on it."""

    def __init__(self, surface: pygame.Surface, *, record: bool = False) -> None:
        self.surface = surface
        self.rect = surface.get_rect()
        self.record = record
        self.records: list[Drawn] = []
        #: The smallest text size drawn on this canvas (see :data:`LEAST_PX`).
        self.least_px = least_px(self.rect.size)

    # ------------------------------------------------------------ records

    def note(self, kind: str, name: str, rect: pygame.Rect, box: pygame.Rect | None = None,
             fits: bool = True, height: int = 0) -> None:
        if self.record:
            self.records.append(Drawn(kind, name, pygame.Rect(rect), pygame.Rect(box or rect),
                                      fits, height=height))

    def region(self, name: str, rect: pygame.Rect) -> None:
        """Record a named screen region (board, panel, ...) for layout tests."""
        self.note("region", name, rect)

    def target(self, name: str, rect: pygame.Rect) -> None:
        """Record a touch target (for the minimum-size test)."""
        self.note("target", name, rect)

    # ------------------------------------------------------------ drawing

    def fill(self, color: Color, rect: pygame.Rect | None = None) -> None:
        self.surface.fill(color, rect)

    def box(self, rect: pygame.Rect, color: Color, *, radius: int = 0, width: int = 0,
            border: Color | None = None) -> None:
        """A filled rounded rectangle, with an optional border."""
        pygame.draw.rect(self.surface, color, rect, width, border_radius=radius)
        if border is not None:
            pygame.draw.rect(self.surface, border, rect, max(1, radius // 6 or 1),
                             border_radius=radius)

    def text(
        self,
        text: str,
        box: pygame.Rect,
        px: int,
        color: Color,
        *,
        align: str = "center",
        valign: str = "center",
        min_px: int | None = None,
    ) -> pygame.Rect:
        """Draw one line of ``text`` inside ``box``, shrinking the font to fit the width
        (down to 60 % or ``min_px``) and the height; returns where it went."""
        if box.width <= 0 or box.height <= 0:
            self.note("text", text, pygame.Rect(box.topleft, (0, 0)), box, False)
            return pygame.Rect(box.topleft, (0, 0))
        least = self.least_px
        min_px = least if min_px is None else max(min_px, least)
        px = max(px, least)
        if _face is None:
            px = min(px, max(least, box.height))
        else:  # a face opened to the bundled font's line height: check that height itself
            while px > least and _band(_face, px)[1] > box.height + 2:
                px -= 1
        size = fit_size(text, px, box.width, min_px)
        surf = rendered(text, size, color)
        fits = surf.get_width() <= box.width and surf.get_height() <= box.height + 2
        if surf.get_width() > box.width:
            surf = surf.subsurface((0, 0, box.width, surf.get_height()))
        r = surf.get_rect()
        if align == "left":
            r.left = box.left
        elif align == "right":
            r.right = box.right
        else:
            r.centerx = box.centerx
        if valign == "top":
            r.top = box.top
        elif valign == "bottom":
            r.bottom = box.bottom
        else:
            r.centery = box.centery
        self.surface.blit(surf, r)
        if self.record:
            self.records.append(Drawn("text", text, r, pygame.Rect(box), fits,
                                      undrawable(text, _face), text_height(size)))
        return r

    def link(self, text: str, box: pygame.Rect, px: int, color: Color, *,
             align: str = "left", valign: str = "top") -> pygame.Rect:
        """Draw the link ``text`` whole in ``box``: on as few lines as :func:`wrap_link` cuts
        it into at the largest size <= ``px`` whose lines ``box`` holds (never under the
        canvas' least size), never cut short, in the bundled font whatever the language (a
        link is no words of it). Returns the rectangle the lines take."""
        with using_face(None):
            return self._link(text, box, px, color, align, valign)

    def _link(self, text: str, box: pygame.Rect, px: int, color: Color, align: str,
              valign: str) -> pygame.Rect:
        size = max(px, self.least_px)
        while True:
            lines = wrap_link(text, size, box.width)
            step = line_size(size)
            if step * len(lines) <= box.height or size <= self.least_px:
                break
            size -= 1
        used = pygame.Rect(box.left, box.top, box.width, step * len(lines))
        if valign == "bottom":
            used.bottom = box.bottom
        elif valign == "center":
            used.centery = box.centery
        self.note("link", text[:40], used, box, used.height <= box.height)
        for k, line in enumerate(lines):
            self.text(line, pygame.Rect(used.left, used.top + k * step, used.width,
                                        max(step, size)), size, color, align=align,
                      valign="top", min_px=size)
        return used

    def paragraph(self, text: str, box: pygame.Rect, px: int, color: Color, *,
                  align: str = "left", line_gap: float = 1.15) -> int:
        """Draw wrapped ``text`` in ``box``, shrinking until it fits; returns the size used."""
        size = max(px, self.least_px)
        while True:
            lines = wrap(text, size, box.width)
            step = round(line_size(size) * line_gap / 1.15)
            if step * len(lines) <= box.height or size <= self.least_px:
                break
            size -= 1
        used = pygame.Rect(box.left, box.top, box.width, step * len(lines))
        self.note("paragraph", text[:40], used, box, used.height <= box.height)
        y = box.top
        for line in lines:
            if line:
                # The line's box is ``size`` tall, so text() draws it at ``size`` (the size
                # it was wrapped at), not at the line pitch; its ink stays within the pitch.
                self.text(line, pygame.Rect(box.left, y, box.width, max(step, size)), size,
                          color, align=align, valign="top", min_px=size)
            y += step
        return size
