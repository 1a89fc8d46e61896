"""The package layout is the architecture: the rules depend on nothing that does I/O, and
nothing below the UI reaches up into it."""

from __future__ import annotations

import ast
import subprocess
import sys
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


# ------------------------------------------------------------------ nothing below the UI

PACKAGE = RULES.parent
#: The command line sits above the UI: ``clans-pi play`` starts it.
ABOVE_THE_UI = {PACKAGE / "cli.py"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(source: str, module: str, *, is_package: bool = False) -> set[str]:
    """Every module ``source`` (the text of ``module``) imports, anywhere in it (function-
    local and ``TYPE_CHECKING`` imports too), as absolute names; ``from X import y`` counts
    as X and X.y (y may be a module)."""
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return found


def _below_the_ui() -> list[Path]:
    files = [p for p in sorted(PACKAGE.rglob("*.py"))
             if (PACKAGE / "ui") not in p.parents and p not in ABOVE_THE_UI]
    assert len(files) >= 30, "the package moved?"
    return files


@pytest.mark.parametrize("path", _below_the_ui(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_nothing_below_the_ui_imports_it(path: Path) -> None:
    """The engine, the devices, the settings, the files and the table serve the UI; none
    of them reaches up into it (not even in a function)."""
    found = imported_modules(path.read_text(encoding="utf-8"), _module_name(path),
                             is_package=path.name == "__init__.py")
    up = sorted(m for m in found if m == "clans_pi.ui" or m.startswith("clans_pi.ui."))
    assert not up, f"{path.relative_to(PACKAGE)} imports {', '.join(up)}"


@pytest.mark.parametrize(("source", "module"), [
    ("from ..ui.options import shown_clan", "clans_pi.hardware.handhelds"),
    ("def f():\n    from .ui import run", "clans_pi.config"),
    ("from . import ui", "clans_pi.files"),
    ("import clans_pi.ui.app", "clans_pi.headless"),
])
def test_the_guard_sees_every_way_up(source: str, module: str) -> None:
    found = imported_modules(source, module)
    assert any(m == "clans_pi.ui" or m.startswith("clans_pi.ui.") for m in found), found


@pytest.mark.parametrize("module", ["clans_pi.options", "clans_pi.files"])
def test_options_and_files_import_no_pygame(module: str) -> None:
    """The command line reads them to start fast; the devices and the table use them
    without a screen."""
    code = f"import sys, {module}; print(sorted(m for m in sys.modules if 'pygame' in m))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=PACKAGE.parent)
    assert out.stdout.strip() == "[]"
    path = PACKAGE / f"{module.rpartition('.')[2]}.py"
    found = imported_modules(path.read_text(encoding="utf-8"), module)
    assert not any(m.split(".")[0] == "pygame" for m in found)
