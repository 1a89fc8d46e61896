"""./scripts/test gets Debian's chromium for the phone page's browser tests and the disk tools
for the image builder's tests when it can (root with apt-get, as CI is), says in one line
how to run them when it cannot, and never fails the run because apt did:
``ensure_test_packages`` in scripts/_venv.sh, run with stand-ins for ``id``, ``apt-get``,
``chromium`` and the disk tools on a PATH of their own."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="needs bash")
HOW = "sudo apt install chromium, then ./scripts/test"
DISK_TOOLS = ("sfdisk", "mkfs.vfat", "mcopy", "mkfs.ext4")


def _run(tmp_path: Path, *, uid: int = 0, apt: str | None = "exit 0",
         chromium: bool = False, disk_tools: tuple[str, ...] = DISK_TOOLS,
         ) -> tuple[list[str], list[str]]:
    """The lines ensure_test_packages says, and the apt-get commands it ran."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("mktemp", "grep", "tail", "rm", "cat"):
        (bin_dir / tool).symlink_to(shutil.which(tool))
    calls = tmp_path / "apt-calls"
    fakes = {"id": f'echo {uid}'}
    if apt is not None:
        fakes["apt-get"] = f'echo "$*" >>"{calls}"\n{apt}'
    if chromium:
        fakes["chromium"] = "exit 0"
    fakes.update(dict.fromkeys(disk_tools, "exit 0"))
    for name, body in fakes.items():
        (bin_dir / name).write_text(f"#!{BASH}\n{body}\n")
        (bin_dir / name).chmod(0o755)
    done = subprocess.run(
        [BASH, "-c", 'set -euo pipefail; . "$1"; ensure_test_packages; echo "went on"', "_",
         str(REPO / "scripts" / "_venv.sh")],
        env={"PATH": str(bin_dir)}, capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 0 and done.stdout == "went on\n", done
    said = done.stderr.splitlines()
    ran = calls.read_text().splitlines() if calls.exists() else []
    return said, ran


def test_with_chromium_there_it_says_and_does_nothing(tmp_path):
    assert _run(tmp_path, chromium=True) == ([], [])


def test_as_root_with_apt_it_installs_chromium_quietly_saying_so_in_one_line(tmp_path):
    said, ran = _run(tmp_path)
    assert said == ["clans-pi: installing Debian's chromium (apt-get) for the tests"]
    assert len(ran) == 2 and ran[0].startswith("update -qq")
    assert ran[1].startswith("install -y -qq") and ran[1].endswith(" chromium")


@pytest.mark.parametrize("uid, apt", [(1000, "exit 0"), (0, None)], ids=["user", "no-apt"])
def test_when_it_cannot_install_one_line_says_how_to_run_the_browser_tests(tmp_path, uid,
                                                                          apt):
    said, ran = _run(tmp_path, uid=uid, apt=apt)
    assert ran == [] and len(said) == 1 and said[0].endswith(HOW)
    assert "skipped" in said[0]


def test_a_failing_apt_is_said_in_one_line_and_the_run_goes_on(tmp_path):
    lock = "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 42"
    said, ran = _run(tmp_path, apt=f'echo "Reading package lists..."; echo "{lock}" >&2\n'
                                   "exit 100")
    assert len(ran) == 1 and ran[0].startswith("update")  # no install after a failed update
    assert len(said) == 2 and said[0].startswith("clans-pi: installing")
    assert lock in said[1] and said[1].endswith(HOW)


def test_missing_disk_tools_are_installed_with_chromium_in_one_go(tmp_path):
    said, ran = _run(tmp_path, disk_tools=("sfdisk", "mkfs.ext4"))
    assert said == ["clans-pi: installing Debian's chromium dosfstools mtools (apt-get) for "
                    "the tests"]
    assert len(ran) == 2 and ran[1].endswith(" chromium dosfstools mtools")


def _pytest_args(*given: str) -> list[str]:
    done = subprocess.run(
        [BASH, "-c", '. "$1"; shift; pytest_args "$@"', "_", str(REPO / "scripts" / "_venv.sh"),
         *given], capture_output=True, text=True, timeout=30, check=True)
    return done.stdout.splitlines()


def test_quick_leaves_out_the_slow_tests_and_passes_the_rest_on():
    assert _pytest_args("--quick", "-k", "village") == ["-m", "not slow", "-k", "village"]
    assert _pytest_args("-k", "two words") == ["-k", "two words"]
    assert _pytest_args() == []
