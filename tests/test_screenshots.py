"""The screenshots (docs/screenshots/) are renders of fixed games: they must still match the
code, and README.md or a page under docs/ must show each of them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_stored_screenshots_match_a_fresh_render():
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "make" / "screenshots.py"),
                           "--check"], capture_output=True, text=True, timeout=120,
                          check=False)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.slow
def test_the_phone_page_s_screenshot_matches_a_fresh_one_from_the_browser():
    """scripts/make/phone_screenshot.py: Debian's Chromium, driven by Playwright."""
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "make" / "phone_screenshot.py"),
                           "--check"], capture_output=True, text=True, timeout=120,
                          check=False)
    if proc.returncode == 77:
        pytest.skip(proc.stderr.strip())
    assert proc.returncode == 0, proc.stderr


#: A Markdown image, ![alt](path), or an HTML one, <img src="path" ...>.
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)|<img\b[^>]*\bsrc=\"([^\"]+)\"")


def shown_pictures(page: Path) -> set[Path]:
    """The pictures ``page`` shows, each resolved from where the page is."""
    text = page.read_text(encoding="utf-8")
    return {(page.parent / (a or b)).resolve() for a, b in IMAGE.findall(text)}


def test_readme_and_the_docs_show_them():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    shown = set().union(*(shown_pictures(page) for page in pages))
    made = sorted((ROOT / "docs" / "screenshots").glob("*.png"))
    assert len(made) == 12  # eleven renders and the phone's page
    missing = [p.name for p in made if p.resolve() not in shown]
    assert not missing, f"no page shows {missing} (README.md or docs/*.md)"
    play = (ROOT / "docs" / "screenshots" / "play-800x480.png").resolve()
    assert play in shown_pictures(ROOT / "README.md"), "README.md shows the play screen"
