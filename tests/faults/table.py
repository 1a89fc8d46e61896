"""The fault table of docs/faults.md, built from the tests that inject each fault.

``python -m tests.faults.table`` prints it; ``--write`` puts it into docs/faults.md between
the markers ``<!-- faults:begin -->`` and ``<!-- faults:end -->`` (the page's words around
them are written by hand and stay as they are).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
from pathlib import Path

from . import FAULTS, Fault

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # the fault tests import pygame
ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "faults.md"
BEGIN, END = "<!-- faults:begin -->", "<!-- faults:end -->"
AREAS = ("save", "kiosk", "device", "phone", "settings", "display", "table", "secrecy",
         "install")


def collect() -> list[Fault]:
    """Every registered fault, after importing every test module of this package."""
    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if info.name.startswith("test_"):
            importlib.import_module(f"{__package__}.{info.name}")
    seen: dict[str, Fault] = {f.test: f for f in FAULTS}
    return sorted(seen.values(), key=lambda f: (AREAS.index(f.area), f.test))


def render(faults: list[Fault]) -> str:
    lines = ["| fault | what the family sees | what is kept | test |", "|---|---|---|---|"]
    for f in faults:
        module, name = f.test.rsplit("::", 1)
        short = module.rsplit(".", 1)[-1]
        cells = (_first_up(f.fault), _first_up(f.sees), _first_up(f.kept))
        lines.append(f"| {' | '.join(cells)} | `{short}::{name}` |")
    return "\n".join(lines) + "\n"


def _first_up(text: str) -> str:
    return text[:1].upper() + text[1:]


def in_page(text: str) -> str | None:
    """The table as it stands in the page's ``text`` (None if the markers are missing)."""
    if BEGIN not in text or END not in text:
        return None
    return text.split(BEGIN, 1)[1].split(END, 1)[0].strip("\n") + "\n"


def write() -> None:
    text = PAGE.read_text(encoding="utf-8")
    if in_page(text) is None:
        raise SystemExit(f"{PAGE}: no {BEGIN} ... {END} markers")
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    PAGE.write_text(f"{head}{BEGIN}\n{render(collect())}{END}{tail}", encoding="utf-8")


if __name__ == "__main__":
    if "--write" in sys.argv[1:]:
        write()
    else:
        sys.stdout.write(render(collect()))
