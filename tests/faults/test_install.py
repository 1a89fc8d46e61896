"""Faults a maker meets installing Clans Pi (scripts/install-pi.sh, or the image builder
scripts/build-image/build): each injected the way the installer's and the builder's tests do
(a scratch root, a scratch prefix with a venv, stand-ins for apt-cache and systemctl, a base's
systemd directories), checked for what the maker sees and what is kept.

The same faults on a real arm64 Debian: scripts/test-install-arm64 (minutes, not in the suite).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.test_build_image import WIZARD, needs_systemctl, wizard_base, wizard_links, wizard_off
from tests.test_install import (
    APT_CACHE_WITHOUT_LGPIO,
    CHROOT,
    app_venv,
    checkout_copy,
    fake_commands,
    install,
    installed_package,
    snapshot,
)

from . import fault


@pytest.fixture(autouse=True)
def _compiled_core_as_installed(monkeypatch):
    """What is installed and built here does not depend on the path the tests' own
    computers take (CLANS_PI_CORE=python: the suite on the Python path)."""
    monkeypatch.delenv("CLANS_PI_CORE", raising=False)

TRACEBACK = "Traceback (most recent call last)"


def _app_install(checkout: Path, prefix: Path, env: dict[str, str]) -> str:
    result = install("--app-only", "--prefix", prefix, cwd=checkout, env=env,
                     script=checkout / "scripts/install-pi.sh", timeout=300)
    assert TRACEBACK not in result.stdout + result.stderr
    return result.stdout


@fault("install", "translations compiled into the maker's checkout, not the installed app",
       sees="the game in the language chosen, every run",
       kept="the checkout as cloned (nothing written into it)")
@pytest.mark.slow
def test_translations_go_into_the_installed_app(tmp_path: Path) -> None:
    checkout = checkout_copy(tmp_path / "checkout")
    prefix = tmp_path / "opt/clans-pi"
    env = app_venv(prefix)
    before = snapshot(checkout)
    _app_install(checkout, prefix, env)
    package = installed_package(prefix)
    # An installed app an older installer left without them: the next run compiles them.
    (package / "locale/de/LC_MESSAGES/clans_pi.mo").unlink()
    _app_install(checkout, prefix, env)
    for lang in ("de", "fr", "it", "ja"):
        assert (package / f"locale/{lang}/LC_MESSAGES/clans_pi.mo").is_file(), lang
    assert snapshot(checkout) == before


@fault("install", "installer run a second time (pip's build files in the source)",
       sees="'unchanged:' for every step",
       kept="the installed app and its source as they were")
@pytest.mark.slow
def test_second_run_changes_nothing(tmp_path: Path) -> None:
    checkout = checkout_copy(tmp_path / "checkout")
    prefix = tmp_path / "opt/clans-pi"
    env = app_venv(prefix)
    _app_install(checkout, prefix, env)
    before = snapshot(prefix)
    out = _app_install(checkout, prefix, env)
    assert [ln for ln in out.splitlines() if not ln.startswith(("unchanged: ", "done: "))] == []
    assert snapshot(prefix) == before


# A compiler that fails, as a broken or half-installed one would.
BROKEN_CC = 'echo "cc1: fatal error: cannot write the output: No space left on device" >&2; exit 1'


@fault("install", "no C compiler on the Pi, or one that fails (the compiled core cannot be "
       "built)", sees="one line saying why; the computers think on the Python path (slower)",
       kept="the install going on: the game installed, its computers thinking in Python")
@pytest.mark.slow
@pytest.mark.parametrize("compiler", ["none", "failing"])
def test_no_c_compiler(tmp_path: Path, compiler: str) -> None:
    checkout = checkout_copy(tmp_path / "checkout")
    prefix = tmp_path / "opt/clans-pi"
    env = app_venv(prefix)
    if compiler == "none":  # stood in for by a $CC that is not there
        env["CC"] = "no-such-cc"
        why = "the C compiler $CC names is not here: no-such-cc"
    else:
        env.update(fake_commands(tmp_path / "bin", broken_cc=BROKEN_CC))
        env["CC"] = "broken-cc"
        why = ("broken-cc failed to build core.c: cc1: fatal error: cannot write the output: "
               "No space left on device")
    note = f"note: {why}; the computers think on the Python path (slower)"
    out = _app_install(checkout, prefix, env)
    assert [ln for ln in out.splitlines()
            if ln.startswith("note: ") or "compiled core" in ln] == [note]
    package = installed_package(prefix)
    assert not list(package.glob("compiled/libclanscore-*"))
    path = subprocess.run([prefix / ".venv/bin/python", "-I", "-c",
                           "from clans_pi.compiled import describe; print(describe())"],
                          capture_output=True, text=True, cwd="/", check=True).stdout
    assert path.startswith("Python path: no compiled core"), path
    # A second run says it again (and builds it, once there is a compiler).
    out = _app_install(checkout, prefix, env)
    assert note in out.splitlines()


@fault("install", "--uninstall in a chroot (no systemd running)",
       sees="the unit disabled offline, no error",
       kept="settings and saved games")
def test_uninstall_in_a_chroot(tmp_path: Path) -> None:
    env = fake_commands(tmp_path / "bin", **CHROOT)
    result = install("--dry-run", "--uninstall", "--prefix", tmp_path / "opt", env=env)
    assert "would: systemctl disable clans-pi.service" in result.stdout
    assert "--now" not in result.stdout and TRACEBACK not in result.stderr
    assert re.search(r"^kept: /etc/clans-pi \(settings\) and /var/lib/clans-pi",
                     result.stdout, re.M)


@fault("install", "plain Debian: no python3-lgpio package",
       sees="one line saying so; lgpio from PyPI instead",
       kept="every other package, the install going on")
def test_debian_without_python3_lgpio(tmp_path: Path) -> None:
    env = fake_commands(tmp_path / "bin", apt_cache=APT_CACHE_WITHOUT_LGPIO,
                        uname='[ "$1" = -m ] && echo aarch64 || command uname "$@"')
    out = install("--dry-run", "--prefix", tmp_path / "opt", env=env).stdout
    assert len([ln for ln in out.splitlines() if ln.startswith("note: no python3-lgpio")]) == 1
    assert re.search(r"^would: .*apt-get install .*python3-gpiozero", out, re.M)
    assert re.search(r"^would: \S+/python -m pip install lgpio", out, re.M)
    assert out.rstrip().endswith("dry run: nothing was changed")


@fault("install", "image built on a base with the first-boot wizard's unit copied into "
       "/etc/systemd/system (by an earlier customisation tool)",
       sees="the build going on, with a line saying the copy was removed; no user wizard on "
       "the card's screen",
       kept="the base's own unit in /lib/systemd/system")
@needs_systemctl
def test_a_wizard_unit_copied_into_etc_is_masked_all_the_same(tmp_path: Path) -> None:
    root = wizard_base(tmp_path / "root", "copy-in-etc")
    (root / "etc/systemd/system/getty.target.wants").mkdir()
    (root / "etc/systemd/system/getty.target.wants" / WIZARD).symlink_to(
        f"/etc/systemd/system/{WIZARD}")
    done = wizard_off(root, tmp_path / "build.log")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert f"note: removed /etc/systemd/system/{WIZARD}" in done.stdout
    assert os.readlink(root / "etc/systemd/system" / WIZARD) == "/dev/null"
    assert wizard_links(root) == []
    assert (root / "usr/lib/systemd/system" / WIZARD).is_file()
