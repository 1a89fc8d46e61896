#!/bin/bash -e
# pi-gen runs this on the build host, in this directory: put the app's files into the
# image's root file system with the installer's --root mode (the source in /opt/clans-pi/src,
# the unit, the udev rules, /etc/clans-pi/config.toml and pinout.toml, cmdline.txt).
# The app comes from files/clans-pi (scripts/build-image/prepare.sh copies it there), or
# from the checkout this stage lives in when pi-gen reads the stage from there.
set -euo pipefail
here="$(pwd)"
if [ -x "$here/files/clans-pi/scripts/install-pi.sh" ]; then
    app="$here/files/clans-pi"
elif [ -x "$here/../../../install-pi.sh" ]; then
    app="$(cd "$here/../../../.." && pwd)"
else
    echo "stage-clans-pi: no app source; run scripts/build-image/prepare.sh PI_GEN_DIR" >&2
    exit 1
fi
"$app/scripts/install-pi.sh" --root "${ROOTFS_DIR}" --no-apt </dev/null
