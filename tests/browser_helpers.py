"""The browser the phone page's tests drive: Debian's Chromium through Playwright. A test
module that needs it sets ``pytestmark = needs_chromium`` and takes the ``chromium``
fixture (tests/conftest.py), one browser for the module."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="needs Debian's chromium: sudo apt install chromium, then "
                             "./scripts/test")


@contextmanager
def launched() -> Iterator[Any]:
    """Chromium started headless (skips the test without Playwright or Chromium)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs playwright (pip)")
    if CHROMIUM is None:
        pytest.skip("needs Debian's chromium: sudo apt install chromium, then ./scripts/test")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()
