"""Keep every test away from the user's own saved game and settings."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_state(tmp_path_factory, monkeypatch):
    """Saves, records and pairings go to a fresh directory (children inherit it)."""
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path_factory.mktemp("state")))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
