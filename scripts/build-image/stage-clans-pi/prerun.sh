#!/bin/bash -e
# pi-gen runs this before the stage: start from the previous stage's root file system
# (stage2, Raspberry Pi OS Lite). copy_previous is pi-gen's own (scripts/common).
if [ ! -d "${ROOTFS_DIR}" ]; then
    copy_previous
fi
