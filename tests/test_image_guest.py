"""scripts/build-image/guest.py's own logic, without QEMU: what the Pi's firmware makes of
cmdline.txt, and which of e2fsck's findings after a power cut are problems."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

# The guest driver lives beside the image builder (a folder, not a package): loaded by path.
_GUEST = Path(__file__).resolve().parents[1] / "scripts" / "build-image" / "guest.py"
_spec = importlib.util.spec_from_file_location("image_guest", _GUEST)
assert _spec is not None and _spec.loader is not None
guest = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = guest  # its dataclasses look their module up
_spec.loader.exec_module(guest)
firmware_cmdline, fsck_problems = guest.firmware_cmdline, guest.fsck_problems


def test_the_firmware_names_serial0_and_takes_the_first_line():
    text = ("console=serial0,115200 console=tty1 root=PARTUUID=6e5a9374-02 rootwait quiet\n"
            "this second line is ignored\n")
    assert firmware_cmdline(text) == ("console=ttyAMA0,115200 console=tty1 "
                                      "root=PARTUUID=6e5a9374-02 rootwait quiet")
    assert firmware_cmdline("") == ""


FSCK_CLEAN_BUT_COUNTS = """\
Pass 1: Checking inodes, blocks, and sizes
Pass 5: Checking group summary information
Free blocks count wrong (1610221, counted=1610190).
Fix? no

Free inodes count wrong (417113, counted=417073).
Fix? no

rootfs: 28327/445440 files (0.1% non-contiguous), 354835/1965056 blocks
"""

FSCK_DAMAGED = """\
Pass 1: Checking inodes, blocks, and sizes
Inode 131074 has an invalid extent
\t(logical block 0, invalid physical block 9999999, len 1)
Clear? no

Pass 2: Checking directory structure
Entry 'game.json' in /var/lib/clans-pi (131073) has deleted/unused inode 131075.  Clear? no

Free inodes count wrong (417113, counted=417073).
Fix? no
"""


def test_only_the_superblock_counts_are_forgiven():
    """ext4 keeps the free counts in memory and counts them again at every mount: those
    are not damage; anything else e2fsck asks about is."""
    assert fsck_problems(FSCK_CLEAN_BUT_COUNTS) == []
    assert fsck_problems(FSCK_DAMAGED) == [
        "Inode 131074 has an invalid extent",
        "Entry 'game.json' in /var/lib/clans-pi (131073) has deleted/unused inode 131075.  "
        "Clear? no",
    ]
