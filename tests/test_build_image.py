"""scripts/build-image/build, the maker's image builder: a wrong base file or a disk too
small gives one clear line and leaves nothing mounted, no loop device and no work files.

The whole build (a Raspberry Pi OS stand-in, the installer run inside it under qemu-user,
the image booted in QEMU) is scripts/test-image: minutes, not in this suite. These tests
use small disk images made here with the layout of Raspberry Pi OS Lite (an MBR, a FAT
partition and an ext4 one); they need root (loop devices, mounts) and Debian's disk tools,
which ./scripts/test installs as root.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from clans_pi.compiled.build import compiler
from clans_pi.settings.config import Config, load_config


@pytest.fixture(autouse=True)
def _compiled_core_as_installed(monkeypatch):
    """What is installed and built here does not depend on the path the tests' own
    computers take (CLANS_PI_CORE=python: the suite on the Python path)."""
    monkeypatch.delenv("CLANS_PI_CORE", raising=False)

REPO = Path(__file__).resolve().parents[1]
BUILD = REPO / "scripts" / "build-image" / "build"
TEMPLATE = REPO / "scripts" / "build-image" / "clans-pi.toml"
WIZARD_SH = REPO / "scripts" / "build-image" / "wizard.sh"
CORE_SH = REPO / "scripts" / "build-image" / "core.sh"
WIZARD = "userconfig.service"
TOOLS = ("sfdisk", "mkfs.vfat", "mcopy", "mkfs.ext4", "losetup", "unshare")
root_only = pytest.mark.skipif(
    os.geteuid() != 0 or any(shutil.which(t) is None for t in TOOLS),
    reason="needs root and " + ", ".join(TOOLS) + " (./scripts/test installs them as root)")


def _run(*args: str | Path, env: dict[str, str] | None = None,
         cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BUILD), *map(str, args)], capture_output=True, text=True,
                          timeout=120, check=False, env={**os.environ, **(env or {})},
                          cwd=cwd)


def make_base(where: Path, *, root_files: dict[str, str], boot_files: dict[str, str],
              root_dirs: tuple[str, ...] = ()) -> Path:
    """A small disk image laid out as Raspberry Pi OS Lite's: MBR, FAT 'bootfs' from sector
    8192 (FAT16 at this size; the builder takes either), ext4 'rootfs' after it, each
    holding the files given."""
    tree = where / "tree"
    for rel in root_dirs:
        (tree / rel).mkdir(parents=True, exist_ok=True)
    for rel, text in root_files.items():
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        (tree / rel).write_text(text)
    tree.mkdir(exist_ok=True)
    boot_sectors, root_sectors = 65536, 65536  # 32 MiB each
    fat, ext4, img = where / "fat", where / "ext4", where / "base.img"
    subprocess.run(["mkfs.vfat", "-n", "bootfs", "-C", str(fat),
                    str(boot_sectors // 2)], check=True, capture_output=True)
    for rel, text in boot_files.items():
        (where / rel).write_text(text)
        subprocess.run(["mcopy", "-i", str(fat), str(where / rel), f"::{rel}"], check=True,
                       capture_output=True)
    subprocess.run(["mkfs.ext4", "-q", "-L", "rootfs", "-d", str(tree), str(ext4),
                    f"{root_sectors // 2}k"], check=True, capture_output=True)
    with img.open("wb") as f:
        f.truncate((8192 + boot_sectors + root_sectors) * 512)
    layout = (f"label: dos\nstart=8192, size={boot_sectors}, type=c\n"
              f"start={8192 + boot_sectors}, size={root_sectors}, type=83\n")
    subprocess.run(["sfdisk", "--no-reread", "--no-tell-kernel", "-q", str(img)],
                   input=layout, text=True, check=True, capture_output=True)
    for part, start in ((fat, 8192), (ext4, 8192 + boot_sectors)):
        subprocess.run(["dd", f"if={part}", f"of={img}", "bs=512", f"seek={start}",
                        "conv=notrunc,sparse", "status=none"], check=True)
    return img


def _nothing_left(img: Path, tmp: Path) -> None:
    mounts = Path("/proc/mounts").read_text()
    assert "clans-pi-build" not in mounts, mounts
    loops = subprocess.run(["losetup", "-j", str(img)], capture_output=True, text=True)
    assert loops.stdout == "", loops.stdout
    assert list(tmp.iterdir()) == [], list(tmp.iterdir())


def test_the_cards_settings_file_offers_only_real_settings(tmp_path):
    """clans-pi.toml, which the builder puts on the boot partition: every line a maker may
    uncomment (a key under its table, or a commented-out table such as [computer]) is a
    setting the game reads, in the right table, with a value it takes."""
    text = TEMPLATE.read_text(encoding="utf-8")
    offered = re.sub(r"^#     (\S+ = .*)$", r"\1", text, flags=re.M)
    offered = re.sub(r"^# (\[\w+\])$", r"\1", offered, flags=re.M)
    keys = re.findall(r"^(\S+) = ", offered, flags=re.M)
    assert {"language", "sound", "volume", "rotate", "clan_marks", "fifth_clan", "hints",
            "wifi_name"} <= set(keys), keys
    card = tmp_path / "clans-pi.toml"
    card.write_text(offered, encoding="utf-8")
    config, problems = load_config(card)
    assert problems == []
    assert config.hints is True and config.volume == 60 and config.fifth_clan == "black"
    # As shipped, every line is commented out: the card's file changes nothing.
    card.write_text(text, encoding="utf-8")
    assert load_config(card) == (Config(source=str(card)), [])


def test_help_says_how_to_use_it():
    done = _run("--help")
    assert done.returncode == 0
    assert "sudo scripts/build-image/build BASE.img.xz" in done.stdout
    assert "userconfig.service" in done.stdout


@pytest.mark.parametrize(("args", "line"), [
    ((), "build: which base image? sudo"),
    (("nope.img.xz",), "build: nope.img.xz: no such file"),
    (("--grow", "12", "x.img"), "build: --grow 12: a whole number of MiB from 256 to 65536"),
    (("--frobnicate",), "build: unknown option '--frobnicate' (try --help)"),
])
def test_a_wrong_command_line_is_one_line(tmp_path, args, line):
    done = _run(*args, cwd=tmp_path)
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.startswith(line) and done.stderr.count("\n") == 1, done.stderr


def test_a_file_that_is_no_disk_image_is_named_as_such(tmp_path):
    (tmp_path / "raspios.zip").write_bytes(b"PK")
    done = _run(tmp_path / "raspios.zip")
    assert done.returncode != 0
    assert "unpack it first, or give the .img.xz Raspberry Pi offers" in done.stderr


@root_only
def test_random_bytes_are_not_a_raspberry_pi_os_image(tmp_path):
    img = tmp_path / "random.img"
    img.write_bytes(os.urandom(1 << 20))
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    done = _run(img, "--output", tmp_path, env={"TMPDIR": str(tmp)})
    assert done.returncode != 0
    assert f"build: {img}: not a Raspberry Pi OS image (no MBR partition table)" \
        in done.stderr.splitlines()
    _nothing_left(img, tmp)


@root_only
@pytest.mark.parametrize(("root_dirs", "root_files", "boot_files", "line"), [
    ((), {"etc/os-release": 'PRETTY_NAME="Debian"\n'}, {"cmdline.txt": "root=x\n"},
     "no /boot/firmware in its root: Raspberry Pi OS Bookworm or later is needed"),
    (("boot/firmware",), {"etc/os-release": "x\n"}, {"config.txt": "\n"},
     "no cmdline.txt on its boot partition: not a Raspberry Pi OS image"),
    (("boot/firmware",), {"lib/ld-linux-armhf.so.3": ""}, {"cmdline.txt": "root=x\n"},
     "not a 64-bit (arm64) image; take Raspberry Pi OS Lite (64-bit)"),
    (("boot/firmware",), {"lib/ld-linux-aarch64.so.1": ""}, {"cmdline.txt": "root=x\n"},
     "no python3 in the image: not Raspberry Pi OS Lite"),
], ids=["bullseye-layout", "no-cmdline", "32-bit", "no-python"])
def test_a_base_that_is_not_raspberry_pi_os_lite_64_is_one_line_and_leaves_nothing(
        tmp_path, root_dirs, root_files, boot_files, line):
    img = make_base(tmp_path, root_files=root_files, boot_files=boot_files,
                    root_dirs=root_dirs)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    done = _run(img, "--output", out, "--grow", "256", env={"TMPDIR": str(tmp)})
    assert done.returncode != 0
    errors = done.stderr.splitlines()
    assert errors[0] == f"build: {img}: {line}", done.stderr
    assert errors[1:] == ["build: stopped; nothing is left mounted and no image was written"]
    _nothing_left(img, tmp)
    assert [p.name for p in out.iterdir()] == ["clans-pi-build.log"]


@root_only
def test_too_little_room_to_unpack_is_said_before_anything_is_written(tmp_path):
    img = make_base(tmp_path, root_files={}, boot_files={"cmdline.txt": "root=x\n"},
                    root_dirs=("boot/firmware",))
    small = tmp_path / "small"
    small.mkdir()
    # A 64 MiB disk for the work files, in a mount namespace of the test's own.
    done = subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c",
         'mount -t tmpfs -o size=64m tmpfs "$1" && TMPDIR="$1" exec "$2" "$3" --output "$4"',
         "sh", str(small), str(BUILD), str(img), str(tmp_path)],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode != 0
    # The 68 MiB base unpacked, 1024 MiB to grow by (the default), 512 MiB to spare.
    assert done.stderr.splitlines()[0] == \
        f"build: not enough room in {small}: 1604 MiB needed, 64 MiB free", done.stderr
    _nothing_left(img, small)


# --- the first-boot wizard switched off ----------------------------------------------------
# userconf-pi's unit as Raspberry Pi OS ships it (in /lib/systemd/system), in short.
WIZARD_UNIT = """[Unit]
Description=User configuration dialog
[Service]
Type=oneshot
ExecStart=/usr/lib/userconf-pi/userconf-service
TTYPath=/dev/tty8
[Install]
WantedBy=multi-user.target
"""
needs_systemctl = pytest.mark.skipif(shutil.which("systemctl") is None,
                                     reason="needs systemctl (systemd) to act on a directory")


def wizard_base(root: Path, layout: str) -> Path:
    """A base's systemd directories with the first-boot wizard's unit laid out as ``layout``:

    lib-only         the package's unit in /lib (/usr/lib: /lib is a link to usr/lib, as on
                     Raspberry Pi OS), enabled (a link in multi-user.target.wants)
    copy-in-etc      besides, a copy of it in /etc/systemd/system, enabled from there (as an
                     earlier customisation tool may leave it)
    link-in-etc      besides, a link to the /lib one in /etc/systemd/system
    only-in-etc      no package's unit: a unit made in /etc/systemd/system, enabled
    already-masked   /etc/systemd/system/userconfig.service a link to /dev/null, an
                     enablement link left over
    """
    etc = root / "etc/systemd/system"
    (etc / "multi-user.target.wants").mkdir(parents=True)
    (root / "usr/lib/systemd/system").mkdir(parents=True)
    (root / "lib").symlink_to("usr/lib")
    wants = etc / "multi-user.target.wants" / WIZARD
    if layout != "only-in-etc":
        (root / "usr/lib/systemd/system" / WIZARD).write_text(WIZARD_UNIT)
        wants.symlink_to(f"/lib/systemd/system/{WIZARD}")
    if layout in ("copy-in-etc", "only-in-etc"):
        (etc / WIZARD).write_text(WIZARD_UNIT)
        wants.unlink(missing_ok=True)
        wants.symlink_to(f"/etc/systemd/system/{WIZARD}")
    elif layout == "link-in-etc":
        (etc / WIZARD).symlink_to(f"/lib/systemd/system/{WIZARD}")
    elif layout == "already-masked":
        (etc / WIZARD).symlink_to("/dev/null")
    return root


def wizard_off(root: Path, log: Path, *,
               systemctl: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    """build's step, on ``root`` (a directory), with this machine's systemctl --root (or
    the ``systemctl`` command given, which gets --root=ROOT and systemctl's arguments)."""
    command = systemctl or ("systemctl",)
    return subprocess.run(
        ["bash", "-c", 'set -euo pipefail; . "$1"; root="$2" unit="$3" log="$4"; shift 4; '
         'wizard_off "$root" "$unit" "$log" "$@" --root="$root"',
         "bash", str(WIZARD_SH), str(root), WIZARD, str(log), *command],
        capture_output=True, text=True, timeout=60, check=False)


def wizard_links(root: Path) -> list[str]:
    """What starts the wizard at boot: links of its name in /etc/systemd/system's
    *.wants and *.requires directories."""
    etc = root / "etc/systemd/system"
    # (Not glob: it passes over links whose target, read on this machine, is missing.)
    return sorted(str((d / WIZARD).relative_to(root)) for d in etc.iterdir()
                  if d.suffix in (".wants", ".requires") and (d / WIZARD).is_symlink())


@needs_systemctl
@pytest.mark.parametrize("layout", ["lib-only", "copy-in-etc", "link-in-etc", "only-in-etc",
                                    "already-masked"])
def test_the_wizard_is_masked_whatever_the_base_holds(tmp_path, layout):
    root = wizard_base(tmp_path / "root", layout)
    done = wizard_off(root, tmp_path / "build.log")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert os.readlink(root / "etc/systemd/system" / WIZARD) == "/dev/null"
    assert wizard_links(root) == []
    # The package's own file stays as dpkg put it.
    assert (root / "usr/lib/systemd/system" / WIZARD).exists() == (layout != "only-in-etc")
    state = subprocess.run(["systemctl", f"--root={root}", "is-enabled", WIZARD],
                           capture_output=True, text=True, check=False)
    assert state.stdout.strip() == "masked", state.stdout + state.stderr
    # Run again (a build on an image built before): nothing to remove, no failure.
    again = wizard_off(root, tmp_path / "build.log")
    assert again.returncode == 0 and again.stderr == "" and "removed" not in again.stdout
    assert os.readlink(root / "etc/systemd/system" / WIZARD) == "/dev/null"


@needs_systemctl
def test_a_base_without_the_wizard_is_left_as_it_is(tmp_path):
    root = tmp_path / "root"
    (root / "etc/systemd/system").mkdir(parents=True)
    done = wizard_off(root, tmp_path / "build.log")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == f"note: no {WIZARD} in this base (nothing to switch off)\n"
    assert list((root / "etc/systemd/system").iterdir()) == []


@needs_systemctl
def test_a_systemctl_refusing_to_disable_a_linked_unit_still_ends_with_it_masked(tmp_path):
    """Some systemd versions refuse to disable a unit whose /etc file is a link ("linked
    unit file"): the links that would start it are removed by hand, and it is masked."""
    root = wizard_base(tmp_path / "root", "link-in-etc")
    refusing = ("bash", "-c", '[ "$2" != disable ] || { echo "Failed to disable unit, refusing '
                'to operate on linked unit file $3." >&2; exit 1; }; exec systemctl "$@"', "-")
    done = wizard_off(root, tmp_path / "build.log", systemctl=refusing)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.splitlines() == [
        f"note: systemctl disable {WIZARD} failed (Failed to disable unit, refusing to operate "
        f"on linked unit file {WIZARD}.); the links that would start it are removed here",
        f"note: removed /etc/systemd/system/{WIZARD} (a link to /lib/systemd/system/{WIZARD}), "
        "which keeps it from being masked",
        f"note: removed /etc/systemd/system/multi-user.target.wants/{WIZARD}, which would "
        "start it"]
    assert os.readlink(root / "etc/systemd/system" / WIZARD) == "/dev/null"
    assert wizard_links(root) == []


def test_the_image_check_expects_a_broken_card_file_named_as_the_game_on_the_card_names_it(
        tmp_path, monkeypatch):
    """scripts/build-image/checks.py draws the start screen it expects from the booted image
    with the card's files read here: their problems must keep what the screen says of them
    (the card's clans-pi.toml, not used, and why), not become plain lines under a path."""
    import importlib

    from clans_pi.settings.config import load_files
    from clans_pi.ui.run import settings_notices

    monkeypatch.syspath_prepend(str(REPO / "scripts" / "build-image"))
    checks = importlib.import_module("checks")
    boot = tmp_path / "boot-clans-pi.toml"
    boot.write_text('language = "de"\n[seats\n2 = "phone"\n', encoding="utf-8")
    _settings, problems = load_files([boot])
    on_card = checks.as_on_card(problems, {boot: Path(checks.BOOT_CONFIG)})
    [notice] = settings_notices(on_card)
    assert notice.startswith("The card's clans-pi.toml was not used: not valid TOML"), notice
    assert str(tmp_path) not in notice and "line 2" in notice


def test_the_image_check_expects_the_compiled_core_as_the_game_on_a_pi_names_it(
        tmp_path, monkeypatch):
    """scripts/build-image/checks.py reads from the card's journal what the game said of its
    computers when it started: the compiled core for aarch64, named as the game names it."""
    import importlib

    from clans_pi.compiled import library

    monkeypatch.syspath_prepend(str(REPO / "scripts" / "build-image"))
    checks = importlib.import_module("checks")
    monkeypatch.setattr(library.platform, "machine", lambda: "aarch64")
    monkeypatch.setattr(library, "why_not", lambda: None)
    assert library.describe() == checks.COMPILED_CORE
    journal = [  # journalctl -u clans-pi.service -o cat: the logger's name, the line
        "clans_pi.cli: clans-pi 0.1.0, settings: /etc/clans-pi/config.toml",
        "clans_pi.cli: computer players: Python path: no compiled core "
        "(libclanscore-aarch64.so not built: python -m clans_pi.compiled.build)",
        "clans_pi.ui.run: display: SDL video driver kmsdrm, 800x480, rotated 0",
        "clans_pi.cli: clans-pi 0.1.0, settings: /etc/clans-pi/config.toml",
        f"clans_pi.cli: computer players: {checks.COMPILED_CORE}",
    ]
    assert checks.computer_players(journal) == checks.COMPILED_CORE  # its last start
    assert checks.computer_players(journal[:3]).startswith("Python path: no compiled core")
    assert checks.computer_players(journal[2:4]) is None
    # The step, on those lines as the card's journal.
    step = checks.Checks(None, tmp_path, 0)
    for lines, fails in ((journal, None), (journal[:3], "think on the Python path: no "
                                           "compiled core"), (journal[2:4], "says nothing")):
        monkeypatch.setattr(step, "game_journal", lambda *options, lines=lines: lines)
        if fails is None:
            step.compiled_core()
        else:
            with pytest.raises(checks.CheckFailed, match=fails):
                step.compiled_core()


# --- the compiled core, compiled for aarch64 here and checked in the image ------------------
needs_cc = pytest.mark.skipif(compiler() is None, reason="no C compiler here (cc, gcc or $CC)")


def app_copy(where: Path) -> Path:
    """What core_for_image needs of the app's copy in the image: the package but its
    translations, phones' page and a library built here (core.c, its builder, and the
    rules and bots that check it)."""
    shutil.copytree(REPO / "clans_pi", where / "clans_pi",
                    ignore=shutil.ignore_patterns("__pycache__", "libclanscore-*", ".build-*",
                                                  "locale", "page"))
    return where


def core_for_image(src: Path, log: Path, cc: str, in_image: tuple[str, ...], *,
                   path: Path | None = None) -> subprocess.CompletedProcess[str]:
    """build's step on the app's copy ``src`` (the image's path of it the same), with
    ``in_image`` standing in for build's in_image and ``path`` first on PATH."""
    env = {**os.environ, "PATH": f"{path}{os.pathsep}{os.environ['PATH']}"} if path else None
    return subprocess.run(
        ["bash", "-c", 'set -euo pipefail; . "$1"; src="$2" log="$3" cc="$4"; shift 4; '
         'core_for_image "$src" "$log" "$cc" "$src" "$@"',
         "bash", str(CORE_SH), str(src), str(log), cc, *in_image],
        capture_output=True, text=True, timeout=120, check=False, env=env)


def stand_ins(where: Path, **scripts: str) -> Path:
    where.mkdir(parents=True, exist_ok=True)
    for name, body in scripts.items():
        (where / name).write_text(f"#!/usr/bin/env bash\n{body}\n")
        (where / name).chmod(0o755)
    return where


# The cross compiler, stood in for by this machine's: it builds this machine's library
# under the aarch64 name, and notes how it was called.
CROSS_CC = 'echo "$*" >>"$(dirname "$0")/calls"; exec cc "$@"'
# The image, stood in for by this machine: the command runs here, where the library for
# "aarch64" is this machine's own (a link under this machine's name), or WHAT is there
# instead.
IMAGE = """echo "in the image: $*" >>"$(dirname "$0")/calls"
lib="$5/clans_pi/compiled/libclanscore-$(uname -m).so"
if [ -n "${WHAT:-}" ]; then printf %s "$WHAT" >"$lib"
else ln -sf libclanscore-aarch64.so "$lib"; fi
exec "$@"
"""


@needs_cc
def test_the_core_is_compiled_for_aarch64_into_the_apps_copy_and_checked_in_the_image(
        tmp_path):
    src = app_copy(tmp_path / "src")
    bin_ = stand_ins(tmp_path / "bin", **{"aarch64-linux-gnu-gcc": CROSS_CC},
                     image=IMAGE)
    done = core_for_image(src, tmp_path / "build.log", "aarch64-linux-gnu-gcc",
                          (str(bin_ / "image"),), path=bin_)
    assert done.returncode == 0 and done.stderr == "" and done.stdout == "", done.stderr
    library = src / "clans_pi/compiled/libclanscore-aarch64.so"
    assert library.is_file()
    calls = (bin_ / "calls").read_text().splitlines()
    assert len(calls) == 2, calls
    assert f" {src}/clans_pi/compiled/core.c -o {src}/clans_pi/compiled/.build-" in calls[0]
    assert calls[0].endswith("/libclanscore-aarch64.so -lm"), calls[0]
    assert calls[1] == ("in the image: sh -c cd \"$1\" && exec python3 -E -B -m "
                        f"clans_pi.bots.compiled_check sh {src}")
    assert "), the same games as the Python path" in (tmp_path / "build.log").read_text()
    assert not list(src.rglob("__pycache__")) and not list(src.rglob(".build-*"))


@needs_cc
@pytest.mark.parametrize(("fault", "line"), [
    ("no compiler", "the compiled core could not be built for aarch64: the C compiler $CC "
     "names is not here: no-such-gcc"),
    ("compiler fails", "the compiled core could not be built for aarch64: "
     "aarch64-linux-gnu-gcc failed to build core.c: aarch64-linux-gnu-gcc: fatal error: "
     "cannot execute 'cc1': No such file"),
    ("image cannot load it", "the image's Python does not play the compiled core built for "
     "it as the Python path does: Python path: the compiled core libclanscore-{machine}.so "
     "cannot be loaded"),
])
def test_a_core_that_does_not_build_or_load_in_the_image_is_one_line_and_fails(
        tmp_path, fault, line):
    """An image ships the compiled core: the step fails, saying why in one line."""
    src = app_copy(tmp_path / "src")
    cc = {"no compiler": "no-such-gcc",
          "compiler fails": "aarch64-linux-gnu-gcc"}.get(fault, "aarch64-linux-gnu-gcc")
    cross = CROSS_CC if fault != "compiler fails" else (
        "echo \"aarch64-linux-gnu-gcc: fatal error: cannot execute 'cc1': No such file\" >&2; "
        "exit 1")
    bin_ = stand_ins(tmp_path / "bin", **{"aarch64-linux-gnu-gcc": cross},
                     image=IMAGE)
    in_image = ("env", "WHAT=not a library of this machine", str(bin_ / "image"))
    done = core_for_image(src, tmp_path / "build.log", cc, in_image, path=bin_)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(line.format(machine=os.uname().machine)), done.stderr
    calls = bin_ / "calls"
    image_called = calls.exists() and "in the image" in calls.read_text()
    assert image_called == (fault == "image cannot load it")


@pytest.mark.skipif(shutil.which("aarch64-linux-gnu-gcc") is None,
                    reason="no cross compiler for aarch64 (apt install gcc-aarch64-linux-gnu)")
def test_debians_cross_compiler_makes_an_aarch64_library_of_this_core_c(tmp_path):
    """With the real cross compiler (the image stood in for: it cannot run here): an
    aarch64 ELF library holding the hash of the core.c it was built from."""
    from clans_pi.compiled.library import source_hash

    src = app_copy(tmp_path / "src")
    in_image = ("sh", "-c", 'echo "computer players: compiled core (libclanscore-aarch64.so), '
                            'the same games as the Python path"')
    done = core_for_image(src, tmp_path / "build.log", "aarch64-linux-gnu-gcc", in_image)
    assert done.returncode == 0, done.stderr + (tmp_path / "build.log").read_text()
    data = (src / "clans_pi/compiled/libclanscore-aarch64.so").read_bytes()
    assert data[:5] == b"\x7fELF\x02"  # ELF, 64-bit
    assert int.from_bytes(data[16:18], "little") == 3  # a shared object (ET_DYN)
    assert int.from_bytes(data[18:20], "little") == 183  # EM_AARCH64
    assert source_hash().encode() in data and b"cc_search_run" in data


def test_the_builder_compiles_the_core_between_copying_the_app_and_running_the_installer():
    """build's order: the app copied into the image, its core compiled there and checked,
    then the installer run in the image (which installs it with the package)."""
    lines = BUILD.read_text(encoding="utf-8").splitlines()

    def where(text: str) -> int:
        [n] = [n for n, line in enumerate(lines) if text in line and not line.startswith("#")]
        return n

    assert where('"$REPO/scripts/install-pi.sh" --root "$R" --app-only') \
        < where('core_for_image "$R/opt/clans-pi/src" "$LOG" "$CORE_CC" /opt/clans-pi/src '
                'in_image') \
        < where("in_image /opt/clans-pi/src/scripts/install-pi.sh")
