"""The README's screenshots are renders of fixed games: they must still match the code."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_stored_screenshots_match_a_fresh_render():
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "make" / "screenshots.py"),
                           "--check"], capture_output=True, text=True, timeout=120,
                          check=False)
    assert proc.returncode == 0, proc.stderr


def test_the_phone_page_s_screenshot_matches_a_fresh_one_from_the_browser():
    """scripts/make/phone_screenshot.py: Debian's Chromium, driven by Playwright."""
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "make" / "phone_screenshot.py"),
                           "--check"], capture_output=True, text=True, timeout=120,
                          check=False)
    if proc.returncode == 77:
        pytest.skip(proc.stderr.strip())
    assert proc.returncode == 0, proc.stderr


def test_readme_shows_them():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    made = sorted(p.name for p in (ROOT / "docs" / "screenshots").glob("*.png"))
    assert len(made) == 12  # eleven renders and the phone's page
    for name in made:
        assert f"docs/screenshots/{name}" in readme
