#!/bin/bash -e
# pi-gen feeds this to bash inside the image (a chroot), after 01-run.sh: the same installer,
# now from its copy in the image, does the rest: the venv and pip install, the user
# clans-pi, enabling the unit. 00-packages-nr already installed the Debian packages
# (without recommends, as install-pi.sh does).
# </dev/null: pi-gen passes this script on standard input; nothing may read the rest of it.
set -euo pipefail
/opt/clans-pi/src/scripts/install-pi.sh --no-apt </dev/null
