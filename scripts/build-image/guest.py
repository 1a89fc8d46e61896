"""A Clans Pi card booted in QEMU, as scripts/test-image uses it: power on, look at the screen,
touch it, cut the power, and read the card afterwards, as a family and a maker would.

The card is a raw disk image laid out as Raspberry Pi OS's (an MBR, the FAT boot partition,
the ext4 root). QEMU's ``virt`` machine has no Pi firmware, so :class:`Card` does the
firmware's part: it takes the kernel and initrd from the root's /boot and the kernel's
command line from the boot partition's cmdline.txt, with ``serial0`` named as the Pi's
firmware would name it (``ttyAMA0``), again at every power-on (the first boot edits it).
The display is virtio-gpu at 800x480, the touchscreen a virtio tablet (QEMU 7.2 has no
multi-touch device: a touch is a press of its button at a point), the network QEMU's own
with the phones' port forwarded to this machine's loopback only.

Nothing is mounted: the FAT partition is read and written with mtools, the ext4 root with
e2fsprogs at its offset in the image ("FILE?offset=N", read-only: debugfs, e2fsck -n).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

#: The screen QEMU gives the guest, as the official 7" display's.
SCREEN = (800, 480)
#: QEMU's absolute pointer range (INPUT_EVENT_ABS_MAX): 0..32767 across the screen.
ABS_MAX = 0x7FFF


class GuestError(RuntimeError):
    """The card or the machine did not do what was expected (one line, what and where)."""


def run(*args: str, input: str | None = None, timeout: float = 300) -> str:
    """A command's standard output; its failure as one GuestError line."""
    done = subprocess.run(args, capture_output=True, text=True, input=input,
                          timeout=timeout, check=False)
    if done.returncode != 0:
        why = (done.stderr.strip() or done.stdout.strip()).splitlines()
        raise GuestError(f"{args[0]} failed ({done.returncode}): {why[-1] if why else ''}")
    return done.stdout


@dataclass(frozen=True)
class Partition:
    start: int  # bytes
    size: int  # bytes


def partitions(image: Path) -> list[Partition]:
    table = json.loads(run("sfdisk", "--json", str(image)))["partitiontable"]
    unit = table.get("sectorsize", 512)
    return [Partition(p["start"] * unit, p["size"] * unit) for p in table["partitions"]]


def firmware_cmdline(cmdline: str) -> str:
    """cmdline.txt as the Pi's firmware hands it to the kernel: one line, with its
    ``serial0`` alias named as the serial port (QEMU's virt machine: ttyAMA0)."""
    words = cmdline.strip().splitlines()[0].split() if cmdline.strip() else []
    return " ".join(w.replace("console=serial0", "console=ttyAMA0") for w in words)


class Card:
    """The SD card: a raw disk image with Raspberry Pi OS's two partitions."""

    def __init__(self, image: Path) -> None:
        self.image = image
        parts = partitions(image)
        if len(parts) != 2:
            raise GuestError(f"{image}: {len(parts)} partitions, not Raspberry Pi OS's two")
        self.boot, self.root = parts

    # --- the FAT boot partition (mtools) ---------------------------------------------------
    def _fat(self) -> str:
        return f"{self.image}@@{self.boot.start}"

    def read_boot(self, name: str) -> str:
        return run("mtype", "-i", self._fat(), f"::{name}")

    def write_boot(self, name: str, text: str, work: Path) -> None:
        """Put a file on the boot partition, as a maker would with a card reader."""
        local = work / f"boot-{name}"
        local.write_text(text, encoding="utf-8")
        run("mcopy", "-o", "-i", self._fat(), str(local), f"::{name}")

    # --- the ext4 root (e2fsprogs at its offset) -------------------------------------------
    def _ext4(self, image: Path | None = None) -> str:
        return f"{image or self.image}?offset={self.root.start}"

    def root_files(self, directory: str, image: Path | None = None) -> list[str]:
        out = run("debugfs", "-R", f"ls -p {directory}", self._ext4(image))
        return [f.split("/")[5] for f in out.splitlines() if f.count("/") >= 6
                and f.split("/")[5] not in (".", "..")]

    def copy_out(self, path: str, dest: Path, image: Path | None = None) -> Path:
        """Copy a file or directory (recursively) out of the root to ``dest``."""
        dest.parent.mkdir(parents=True, exist_ok=True)
        what = "rdump" if path.endswith("/") else "dump"
        target = dest.parent if what == "rdump" else dest
        run("debugfs", "-R", f"{what} {path.rstrip('/')} {target}", self._ext4(image))
        if not dest.exists():
            raise GuestError(f"{path}: not on the card")
        return dest

    def kernel(self, work: Path) -> tuple[Path, Path]:
        """The kernel and initrd the card boots (Debian's, in the root's /boot), taken out
        once: after a power cut the root's metadata may wait in its journal, which debugfs
        does not read."""
        kernel, initrd = work / "vmlinuz", work / "initrd.img"
        if kernel.exists() and initrd.exists():
            return kernel, initrd
        names = self.root_files("/boot")
        kernels = sorted(n for n in names if n.startswith("vmlinuz-"))
        initrds = sorted(n for n in names if n.startswith("initrd.img-"))
        if not kernels or not initrds:
            raise GuestError("no vmlinuz-* and initrd.img-* in the card's /boot")
        return (self.copy_out(f"/boot/{kernels[-1]}", work / "vmlinuz"),
                self.copy_out(f"/boot/{initrds[-1]}", work / "initrd.img"))

    def snapshot(self, dest: Path) -> Card:
        """A copy of the card as it is now (sparse), to check or read without touching it."""
        run("cp", "--sparse=always", str(self.image), str(dest), timeout=600)
        return Card(dest)

    def _root_loop(self) -> str:
        """A loop device on the root partition (e2fsck cannot open "FILE?offset=N" again
        after replaying a journal, so it gets a device of its own)."""
        return run("losetup", "--find", "--show", "--offset", str(self.root.start),
                   "--sizelimit", str(self.root.size), str(self.image)).strip()

    def replay_journal(self) -> str:
        """What the kernel does when it mounts the root after a power cut: the journal
        replayed (nothing else). Returns e2fsck's words."""
        loop = self._root_loop()
        try:
            done = subprocess.run(["e2fsck", "-E", "journal_only", "-y", loop],
                                  capture_output=True, text=True, timeout=300, check=False)
        finally:
            run("losetup", "-d", loop)
        if done.returncode > 1:
            raise GuestError(f"e2fsck -E journal_only: exit {done.returncode}: "
                             f"{done.stdout.strip().splitlines()[-1:]}")
        return done.stdout

    def check_root(self) -> list[str]:
        """A full read-only check of the root (e2fsck -f -n) after its journal was
        replayed: the problems it finds, beyond the free block and inode counts in the
        superblock, which ext4 keeps up to date only in memory and counts again at every
        mount (e2fsck's preen mode, as at boot, sets them right without asking)."""
        loop = self._root_loop()
        try:
            done = subprocess.run(["e2fsck", "-f", "-n", loop], capture_output=True,
                                  text=True, timeout=600, check=False)
        finally:
            run("losetup", "-d", loop)
        if done.returncode & 8:
            raise GuestError(f"e2fsck -f -n: {done.stderr.strip() or done.stdout.strip()}")
        return fsck_problems(done.stdout)


#: What e2fsck -n finds on any ext4 not unmounted, and sets right itself at boot.
BENIGN = ("Free blocks count wrong", "Free inodes count wrong")


def fsck_problems(words: str) -> list[str]:
    """The problems e2fsck -n names (each followed by its question, "Fix? no", "Clear? no"
    ...), less :data:`BENIGN`."""
    problems: list[str] = []
    block: list[str] = []  # the lines since the last question or blank line
    for line in words.splitlines():
        line = line.strip()
        if line.endswith("? no"):
            headline = block[0] if block else line
            if not headline.startswith(BENIGN):
                problems.append(headline)
            block = []
        elif not line or line.startswith("Pass "):
            block = []
        else:
            block.append(line)
    return problems


class Machine:
    """QEMU's virt machine with the card in it, its screen and touchscreen through QMP."""

    def __init__(self, card: Card, work: Path, *, phone_port: int, name: str) -> None:
        from qemu.qmp.legacy import QEMUMonitorProtocol

        self.card, self.work, self.name = card, work, name
        self.serial = work / f"serial-{name}.log"
        sock = work / "qmp.sock"
        sock.unlink(missing_ok=True)
        kernel, initrd = card.kernel(work)
        cmdline = firmware_cmdline(card.read_boot("cmdline.txt"))
        self.cmdline = cmdline
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            ["qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72", "-smp", "2",
             "-m", "2048", "-kernel", str(kernel), "-initrd", str(initrd),
             "-append", cmdline,
             "-drive", f"file={card.image},format=raw,if=none,id=card,cache=writeback",
             "-device", "virtio-blk-pci,drive=card",
             "-device", f"virtio-gpu-pci,xres={SCREEN[0]},yres={SCREEN[1]}",
             "-device", "virtio-tablet-pci", "-device", "virtio-keyboard-pci",
             "-netdev", f"user,id=net0,hostfwd=tcp:127.0.0.1:{phone_port}-:8080",
             # No option ROM: the kernel is booted directly, and QEMU's ROM for it comes
             # from ipxe-qemu, which qemu-system-arm only recommends.
             "-device", "virtio-net-pci,netdev=net0,romfile=",
             "-display", "none", "-monitor", "none", "-no-reboot",
             "-serial", f"file:{self.serial}",
             "-qmp", f"unix:{sock},server=on,wait=off"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, start_new_session=True)
        deadline = time.monotonic() + 30
        while not sock.exists():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise GuestError(f"QEMU did not start: {self.proc.communicate()[0].strip()}")
            time.sleep(0.1)
        self.qmp = QEMUMonitorProtocol(str(sock))
        self.qmp.connect()
        self._shots = 0

    def seconds(self) -> float:
        """Seconds since power-on."""
        return time.monotonic() - self.started

    @property
    def running(self) -> bool:
        return self.proc.poll() is None

    # --- the screen -------------------------------------------------------------------------
    def screen(self):  # -> pygame.Surface
        """What the screen shows now."""
        import pygame

        self._shots += 1
        path = self.work / f"screen-{self.name}-{self._shots}.png"
        self.qmp.cmd("screendump", filename=str(path), format="png")
        picture = pygame.image.load(str(path))
        path.unlink()
        return picture

    # --- the touchscreen --------------------------------------------------------------------
    def _point(self, pos: tuple[float, float]) -> list[dict]:
        x, y = pos
        return [{"type": "abs", "data": {"axis": "x",
                                         "value": round(x * ABS_MAX / (SCREEN[0] - 1))}},
                {"type": "abs", "data": {"axis": "y",
                                         "value": round(y * ABS_MAX / (SCREEN[1] - 1))}}]

    def press(self, pos: tuple[float, float]) -> None:
        """A finger down at ``pos`` (screen pixels), staying there."""
        self.qmp.cmd("input-send-event", events=self._point(pos))
        self.qmp.cmd("input-send-event", events=[
            *self._point(pos), {"type": "btn", "data": {"down": True, "button": "left"}}])

    def release(self, pos: tuple[float, float]) -> None:
        """The finger lifted at ``pos``."""
        self.qmp.cmd("input-send-event", events=[
            *self._point(pos), {"type": "btn", "data": {"down": False, "button": "left"}}])

    def touch(self, pos: tuple[float, float], *, hold_s: float = 0.15) -> None:
        """A finger down at ``pos`` (screen pixels), held ``hold_s``, lifted."""
        self.press(pos)
        time.sleep(hold_s)
        self.release(pos)

    # --- power ------------------------------------------------------------------------------
    def pause(self) -> None:
        """The machine stopped where it is, its disk writes finished (QMP stop drains them):
        the card as a power cut now would leave it."""
        self.qmp.cmd("stop")

    def resume(self) -> None:
        self.qmp.cmd("cont")

    def wait_off(self, timeout: float) -> float:
        """Wait for the machine to power itself off; the seconds it took."""
        t0 = time.monotonic()
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise GuestError(f"still running {timeout:.0f} s later") from None
        self.close()
        return time.monotonic() - t0

    def cut_power(self) -> None:
        """The plug pulled: QEMU killed at once. What the guest had written to its disk
        stays (as on a card); what it held in memory is gone."""
        if self.running:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)
        self.close()

    def close(self) -> None:
        with contextlib.suppress(OSError, EOFError):  # the socket may be gone with QEMU
            self.qmp.close()
        if self.running:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)


def have_tools() -> list[str]:
    """The host tools a boot test needs that are missing here."""
    return [t for t in ("qemu-system-aarch64", "sfdisk", "mtype", "mcopy", "debugfs", "e2fsck",
                        "journalctl") if shutil.which(t) is None]
