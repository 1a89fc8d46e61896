"""The package layout is the architecture: the rules depend on nothing that does I/O, and
nothing below the UI reaches up into it."""

from __future__ import annotations

import ast
import re
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
#: The package's rooms above the rules (a relative import from rules/ into one is a way up).
OUTER_LAYERS = ("ui", "hardware", "bots", "cli", "saving", "service", "settings", "table",
                "phones", "history", "session", "palette")


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
            assert not (node.module or "").startswith(OUTER_LAYERS), (
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


def _type_checking(node: ast.AST) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return ((isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
            or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def imported_modules(source: str, module: str, *, is_package: bool = False,
                     type_checking: bool = True) -> set[str]:
    """Every module ``source`` (the text of ``module``) imports, anywhere in it (function-
    local imports too; those under ``if TYPE_CHECKING:`` only when ``type_checking``), as
    absolute names; ``from X import y`` counts as X and X.y (y may be a module)."""
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if not type_checking and _type_checking(child):
                for other in child.orelse:  # type: ignore[attr-defined]
                    visit_one(other)
                continue
            visit_one(child)

    def visit_one(node: ast.AST) -> None:
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
        visit(node)

    visit(ast.parse(source))
    return found


def _imports(path: Path, *, type_checking: bool = False) -> set[str]:
    return imported_modules(path.read_text(encoding="utf-8"), _module_name(path),
                            is_package=path.name == "__init__.py", type_checking=type_checking)


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
    ("def f():\n    from ..ui import run", "clans_pi.settings.config"),
    ("from .. import ui", "clans_pi.saving.files"),
    ("import clans_pi.ui.app", "clans_pi.table.headless"),
])
def test_the_guard_sees_every_way_up(source: str, module: str) -> None:
    found = imported_modules(source, module)
    assert any(m == "clans_pi.ui" or m.startswith("clans_pi.ui.") for m in found), found


@pytest.mark.parametrize("module", ["clans_pi.settings.options", "clans_pi.saving.files"])
def test_options_and_files_import_no_pygame(module: str) -> None:
    """The command line reads them to start fast; the devices and the table use them
    without a screen."""
    code = f"import sys, {module}; print(sorted(m for m in sys.modules if 'pygame' in m))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=PACKAGE.parent)
    assert out.stdout.strip() == "[]"
    path = PACKAGE.parent / f"{module.replace('.', '/')}.py"
    found = imported_modules(path.read_text(encoding="utf-8"), module)
    assert not any(m.split(".")[0] == "pygame" for m in found)


def test_the_past_games_import_no_pygame() -> None:
    """clans_pi.history serves the screen, ``clans-pi history`` and the tests alike: reading
    the past games needs no display."""
    code = ("import sys, clans_pi.history, clans_pi.cli; "
            "print(sorted(m for m in sys.modules if 'pygame' in m))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=PACKAGE.parent)
    assert out.stdout.strip() == "[]"
    for path in sorted((PACKAGE / "history").glob("*.py")):
        for name in _imports(path, type_checking=True):
            assert name.split(".")[0] != "pygame", f"{path.name} imports {name}"


# ------------------------------------------------------------------ the table and the UI

TABLE = PACKAGE / "table"


def test_the_table_imports_no_pygame_and_no_ui() -> None:
    """The game's flow runs without a display (the headless game, later phones)."""
    files = sorted(TABLE.rglob("*.py"))
    assert len(files) >= 4, "the table package moved?"
    for path in files:
        for name in _imports(path, type_checking=True):
            assert name.split(".")[0] != "pygame", f"{path.name} imports {name}"
            assert not name.startswith("clans_pi.ui"), f"{path.name} imports {name}"


def test_nothing_in_the_ui_imports_the_app_but_run() -> None:
    """Screens know the app as screens.base.Host; only run.py makes an App."""
    for path in sorted(UI.rglob("*.py")):
        if path.name in ("app.py", "run.py") and path.parent == UI:
            continue
        for name in _imports(path):
            assert name != "clans_pi.ui.app", f"{path.relative_to(PACKAGE)} imports the app"


def _cycles(*, type_checking: bool) -> list[set[str]]:
    """The import graph's strongly connected components of more than one module."""
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    # A module's own packages are not its imports: Python runs them before it, and
    # ``from . import events`` names the package only to reach a sibling module.
    graph = {m: {n for n in _imports(p, type_checking=type_checking)
                 if n in modules and n != m and not m.startswith(f"{n}.")}
             for m, p in modules.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def test_no_import_circle_through_the_app() -> None:
    """Not even one closed by a function-local or a type-checking import."""
    for component in _cycles(type_checking=True):
        assert "clans_pi.ui.app" not in component, sorted(component)


def test_no_import_circle_in_the_ui_or_the_table() -> None:
    """At run time (function-local imports included) the UI and the table form no circle."""
    for component in _cycles(type_checking=False):
        assert not any(m.startswith(("clans_pi.ui", "clans_pi.table")) for m in component), (
            sorted(component))


def test_no_import_circle_at_run_time() -> None:
    """The imports that run (function-local ones included) form no circle anywhere in the
    package: every module can be imported on its own, in any order."""
    assert _cycles(type_checking=False) == []


#: The circles closed only by an import under ``if TYPE_CHECKING:``, for an annotation:
#: observation.py names GameState in ``observe(state: GameState, ...)`` (state.py imports
#: observation.py to build its views), and computers.py names Table in
#: ``Computers(table: Table)`` (table.py imports computers.py to make its Computers). Such
#: an import never runs. A new circle, even one like these, is a decision: say why here.
ANNOTATION_CIRCLES = [{"clans_pi.rules.observation", "clans_pi.rules.state"},
                      {"clans_pi.table.computers", "clans_pi.table.table"}]


def test_the_only_circles_are_the_two_annotations() -> None:
    found = _cycles(type_checking=True)
    assert sorted(map(sorted, found)) == sorted(map(sorted, ANNOTATION_CIRCLES))


def test_tests_reach_the_app_and_screens_through_public_names() -> None:
    """No ``app._timers``, ``screen._toggle(k)()``, ``screen._move``: a test that needs a
    behaviour uses a public method or a button (tests.ui_helpers.act/press)."""
    tests = Path(__file__).resolve().parent
    private = re.compile(r"\b(?:app|screen|names|overlay|table|computers)\._[a-z]\w*")
    found = [f"{path.relative_to(tests)}:{n}: {line.strip()}"
             for path in sorted(tests.rglob("*.py")) if path.name != "test_architecture.py"
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if private.search(line)]
    assert not found, "\n".join(found)
