"""systemd/clans-pi.service: systemd itself checks it (verify, security), plus what it must say.

`systemd-analyze verify` exits 0 even when it warns (an unknown key, a bad value), so any
output at all fails here. It also checks that ExecStart's program exists, and
/opt/clans-pi is only there on an installed Pi: it verifies a copy of the unit whose
ExecStart= runs this Python instead, with the same arguments and every other line as is.
User=clans-pi need not exist for verify (it does not look users up), so that line stays.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from clans_pi.service import kiosk

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "clans-pi.service"
README = ROOT / "systemd" / "README.md"
INSTALLED_PROGRAM = "/opt/clans-pi/.venv/bin/clans-pi"
MAX_EXPOSURE = 4.0

ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")


def _settings(text: str) -> dict[tuple[str, str], list[str]]:
    """(section, key) -> values, in order, of a unit file (no line continuations used)."""
    out: dict[tuple[str, str], list[str]] = {}
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        out.setdefault((section, key.strip()), []).append(value.strip())
    return out


def _analyze(*args: str) -> subprocess.CompletedProcess[str]:
    assert ANALYZE is not None
    return subprocess.run(
        [ANALYZE, "--no-pager", *args], capture_output=True, text=True, timeout=60, check=False
    )


def _verifiable_copy(tmp_path: Path, text: str | None = None) -> Path:
    text = UNIT.read_text(encoding="utf-8") if text is None else text
    assert text.count(f"ExecStart={INSTALLED_PROGRAM} ") == 1
    copy = tmp_path / UNIT.name  # same name: verify checks names against the unit type
    copy.write_text(
        text.replace(f"ExecStart={INSTALLED_PROGRAM} ", f"ExecStart={sys.executable} "),
        encoding="utf-8",
    )
    return copy


def _verify(path: Path) -> subprocess.CompletedProcess[str]:
    # --recursive-errors=no: only this unit's own problems, not those of units it names
    # (getty@tty1.service, ...) as this machine happens to have them.
    return _analyze("verify", "--recursive-errors=no", str(path))


@needs_analyze
def test_verify_prints_nothing(tmp_path):
    result = _verify(_verifiable_copy(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout + result.stderr == ""


@needs_analyze
def test_verify_would_notice_a_mistake(tmp_path):
    # The check above means something: verify does speak up about a bad line (and only
    # warns, exit status 0, which is why any output fails that test).
    text = UNIT.read_text(encoding="utf-8").replace(
        "\nTTYReset=yes\n", "\nTTYReset=yes\nTTYResett=yes\n"
    )
    result = _verify(_verifiable_copy(tmp_path, text))
    assert "TTYResett" in result.stdout + result.stderr


def _exposure() -> float:
    version = _analyze("--version").stdout.split()
    if len(version) > 1 and version[1].isdigit() and int(version[1]) < 250:
        pytest.skip(f"systemd {version[1]}: security --offline= needs systemd 250")
    result = _analyze("security", "--offline=yes", str(UNIT))
    assert result.returncode == 0, result.stdout + result.stderr
    match = re.search(r"Overall exposure level for clans-pi\.service: (\d+\.\d)", result.stdout)
    assert match, result.stdout + result.stderr
    return float(match.group(1))


@needs_analyze
def test_security_exposure_is_low_and_in_the_readme():
    exposure = _exposure()
    assert exposure <= MAX_EXPOSURE
    # systemd/README.md states the measured number (the other pages link to it); keep it true.
    text = " ".join(README.read_text(encoding="utf-8").split())
    assert f"overall exposure level {exposure:.1f}" in text.replace("**", "")


def _installer_groups() -> list[str]:
    """GROUPS_WANTED in scripts/install-pi.sh: the groups it makes clans-pi a member of."""
    text = (ROOT / "scripts" / "install-pi.sh").read_text(encoding="utf-8")
    match = re.search(r"^GROUPS_WANTED=\(([^)]*)\)$", text, re.M)
    assert match, "no GROUPS_WANTED=(...) line in install-pi.sh"
    return match.group(1).split()


def test_what_the_unit_says():
    s = _settings(UNIT.read_text(encoding="utf-8"))
    service = {key: values for (section, key), values in s.items() if section == "Service"}
    one = {key: values[-1] for key, values in service.items()}
    assert one["ExecStart"] == (
        f"{INSTALLED_PROGRAM} play --fullscreen --kiosk --state-dir ${{STATE_DIRECTORY}}"
    )
    assert one["StateDirectory"] == "clans-pi"
    assert one["ConfigurationDirectory"] == "clans-pi"
    assert "SDL_VIDEODRIVER=kmsdrm" in service["Environment"]
    # No W+X memory, and Mesa's software fallback one that needs none: llvmpipe's JIT was
    # killed at every start in QEMU (SIGSEGV), softpipe draws (scripts/test-image).
    assert one["MemoryDenyWriteExecute"] == "yes"
    assert "GALLIUM_DRIVER=softpipe" in service["Environment"]
    assert one["User"] == "clans-pi"
    # The user's groups (the installer's) reach the devices; a group named in
    # SupplementaryGroups= that the system lacks (Debian has no gpio) fails every start
    # with 216/GROUP: a dark screen.
    assert "SupplementaryGroups" not in service
    assert set(_installer_groups()) == {"video", "render", "input", "gpio", "dialout",
                                        "audio"}
    assert (one["Type"], one["NotifyAccess"], one["WatchdogSec"]) == ("notify", "main", "30")
    assert (one["Restart"], one["RestartSec"]) == ("on-failure", "2")
    assert one["TTYPath"] == "/dev/tty1"
    assert one["StandardOutput"] == one["StandardError"] == "journal"
    # Hardware must stay reachable: no PrivateDevices=, no PrivateUsers=, no
    # PrivateNetwork=, and the device groups allowed.
    for key in ("PrivateDevices", "PrivateUsers", "PrivateNetwork"):
        assert key not in service
    allowed = {value.split()[0] for value in service["DeviceAllow"]}
    assert {"char-drm", "char-input", "char-gpiochip", "char-ttyACM", "char-alsa",
            "/dev/tty1"} <= allowed
    assert one["DevicePolicy"] == "closed"
    assert one["CapabilityBoundingSet"] == ""
    assert one["RestrictAddressFamilies"].split() == ["AF_UNIX", "AF_NETLINK", "AF_INET",
                                                      "AF_INET6"]
    # IP for the phones' server, with this machine and the home's own network
    # only: a phone on the Wi-Fi or the Pi's hotspot, never the internet.
    assert one["IPAddressDeny"] == "any"
    assert one["IPAddressAllow"].split() == ["localhost", "link-local", "10.0.0.0/8",
                                             "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"]
    unit = {key: values for (section, key), values in s.items() if section == "Unit"}
    assert "getty@tty1.service" in unit["Conflicts"][0].split()
    # DeviceAllow=char-alsa needs "alsa" in /proc/devices when the service starts.
    assert "modprobe@snd.service" in " ".join(unit["Wants"]).split()
    assert "modprobe@snd.service" in " ".join(unit["After"]).split()
    assert s[("Install", "WantedBy")] == ["multi-user.target"]


def test_only_backlight_brightness_is_writable_in_sys():
    """/sys stays read-only (ProtectKernelTunables=) except each known backlight's
    brightness attribute, named through /sys/class/backlight (systemd follows the symlink)
    and optional ("-"), so a Pi without that display still starts the game."""
    s = _settings(UNIT.read_text(encoding="utf-8"))
    assert s[("Service", "ProtectKernelTunables")] == ["yes"]
    paths = [p for value in s[("Service", "ReadWritePaths")] for p in value.split()]
    assert paths
    for path in paths:
        assert re.fullmatch(r"-/sys/class/backlight/[\w.:-]+/brightness", path), path
    names = {path.split("/")[4] for path in paths}
    assert {"rpi_backlight", "10-0045"} <= names


def test_backlight_udev_rule():
    """One rule: on "add" of a backlight, group video may write its brightness attribute;
    the programs by absolute path; video is one of the service's groups."""
    text = (ROOT / "systemd" / "90-clans-pi-backlight.rules").read_text(encoding="utf-8")
    rules = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    assert len(rules) == 1
    keys = [part.strip() for part in rules[0].split(", ")]
    assert 'ACTION=="add"' in keys and 'SUBSYSTEM=="backlight"' in keys
    runs = [k.removeprefix('RUN+="').removesuffix('"') for k in keys if k.startswith("RUN+=")]
    assert runs == ["/usr/bin/chgrp video /sys%p/brightness",
                    "/usr/bin/chmod g+w /sys%p/brightness"]
    assert "video" in _installer_groups()


def _stop_post(tmp_path: Path, exit_code: str, exit_status: str) -> list[str]:
    """Run the unit's ExecStopPost= command line as systemd would after the game ended with
    ``exit_code``/``exit_status`` (systemd.exec(5): $EXIT_CODE, $EXIT_STATUS), with a
    stand-in systemctl that records what it was asked; return its arguments."""
    s = _settings(UNIT.read_text(encoding="utf-8"))
    (line,) = s[("Service", "ExecStopPost")]
    assert line.startswith("+/bin/sh -c '") and line.endswith("'")
    script = line.removeprefix("+/bin/sh -c '").removesuffix("'").replace("$$", "$")
    fake = tmp_path / "bin"
    fake.mkdir(exist_ok=True)
    log = tmp_path / "systemctl.log"
    log.unlink(missing_ok=True)
    (fake / "systemctl").write_text(f'#!/bin/sh\necho "$@" >> {log}\n', encoding="utf-8")
    (fake / "systemctl").chmod(0o755)
    env = {"PATH": f"{fake}:/usr/bin:/bin", "EXIT_CODE": exit_code, "EXIT_STATUS": exit_status,
           "SERVICE_RESULT": "success"}
    result = subprocess.run(["/bin/sh", "-c", script], env=env, capture_output=True, text=True,
                            timeout=30, check=False)
    assert result.returncode == 0, result.stderr
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def test_leaving_the_kiosk_powers_off_or_brings_the_console_back_and_nothing_else(tmp_path):
    """Quit on the kiosk used to leave a black screen. Switch off (clans_pi.service.kiosk) powers
    the Pi off; Ctrl+Q gives tty1 back to a login prompt; both are clean exits (not
    restarted); a stop, a crash or a kill asks for nothing."""
    s = _settings(UNIT.read_text(encoding="utf-8"))
    assert set(s[("Service", "SuccessExitStatus")][0].split()) == {str(kiosk.SWITCH_OFF),
                                                                    str(kiosk.CONSOLE)}
    assert s[("Service", "Restart")] == ["on-failure"]
    assert _stop_post(tmp_path, "exited", str(kiosk.SWITCH_OFF)) == ["--no-block poweroff"]
    assert _stop_post(tmp_path, "exited", str(kiosk.CONSOLE)) == [
        "--no-block start getty@tty1.service"]
    for code, status in (("exited", "0"), ("exited", "1"), ("killed", "TERM"),
                         ("killed", "KILL"), ("dumped", "ABRT")):
        assert _stop_post(tmp_path, code, status) == [], (code, status)
