"""The package layout is the architecture: the rules depend on nothing that does I/O."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parent.parent / "clans_pi" / "rules"
FORBIDDEN_MODULES = {
    "pygame", "gpiozero", "serial", "os", "io", "pathlib", "shutil", "socket", "subprocess",
    "sys", "tempfile", "time", "threading",
}  # fmt: skip
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval"}


def _rules_files() -> list[Path]:
    files = sorted(RULES.rglob("*.py"))
    assert len(files) >= 10, "the rules package moved?"
    return files


@pytest.mark.parametrize("path", _rules_files(), ids=lambda p: p.name)
def test_rules_import_no_io_or_hardware(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            names = []
        for name in names:
            assert name.split(".")[0] not in FORBIDDEN_MODULES, f"{path.name} imports {name}"
            assert not name.startswith("clans_pi."), f"{path.name}: import relatively: {name}"
        if isinstance(node, ast.ImportFrom) and node.level:
            assert not (node.module or "").startswith(("ui", "hardware", "bots", "cli", "files")), (
                f"{path.name} depends on an outer layer: {node.module}"
            )
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, f"{path.name} calls {node.func.id}()"


def test_the_only_data_the_rules_read_is_their_own() -> None:
    """R15/R1 data ships in the package and is read through importlib.resources only."""
    readers = [p.name for p in _rules_files() if "resources" in p.read_text(encoding="utf-8")]
    assert readers == ["board.py"]
    assert {p.name for p in (RULES / "data").iterdir()} >= {"board.json", "epochs.json"}


UI = RULES.parent / "ui"
SECRET_NAMES = {"_state", "clan_of", "GameState", "to_record", "to_json"}  # all hold every clan


@pytest.mark.parametrize("path", sorted(UI.rglob("*.py")), ids=lambda p: p.name)
def test_ui_sees_the_game_only_through_views(path: Path) -> None:
    """R22: the screen is drawn from Session.public() / Session.private(seat) only. No UI
    module imports the engine's state or touches anything that holds every clan."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            assert not module.endswith(("rules.state", "rules.record", "rules.setup")), (
                f"{path.name} imports {module}: go through clans_pi.session"
            )
            for alias in node.names:
                assert alias.name not in SECRET_NAMES, f"{path.name} imports {alias.name}"
        if isinstance(node, ast.Attribute):
            assert node.attr not in SECRET_NAMES, f"{path.name} uses .{node.attr}"
        if isinstance(node, ast.Import):
            for alias in node.names:
                assert alias.name.split(".")[0] not in ("gpiozero", "serial"), path.name


def test_session_is_the_only_holder_of_the_state() -> None:
    text = (RULES.parent / "session.py").read_text(encoding="utf-8")
    assert "self._state" in text
    ui_text = "".join(p.read_text(encoding="utf-8") for p in UI.rglob("*.py"))
    assert "._state" not in ui_text
