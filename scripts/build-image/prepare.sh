#!/usr/bin/env bash
# Gets a pi-gen checkout ready to build the Clans Pi image:
#     scripts/build-image/prepare.sh PI_GEN_DIR
# Copies the stage (stage-clans-pi) into PI_GEN_DIR with this checkout's app in its
# 00-clans-pi/files/clans-pi (pi-gen's docker build only sees files inside PI_GEN_DIR),
# puts config there unless PI_GEN_DIR/config exists, and keeps stage2 from exporting a
# plain Lite image too. Then: cd PI_GEN_DIR && ./build-docker.sh
set -euo pipefail
[ $# = 1 ] || { echo "usage: $0 PI_GEN_DIR" >&2; exit 2; }
pigen="$1"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
if [ ! -f "$pigen/build.sh" ] || [ ! -d "$pigen/stage2" ]; then
    echo "prepare: $pigen is not a pi-gen checkout (no build.sh, stage2)" >&2
    exit 1
fi
stage="$pigen/stage-clans-pi"
rm -rf "$stage"
cp -r "$here/stage-clans-pi" "$stage"
mkdir -p "$stage/00-clans-pi/files/clans-pi"
tar -C "$repo" --exclude=./.git --exclude=./.venv --exclude=__pycache__ \
    --exclude='*.egg-info' --exclude=.pytest_cache --exclude=.ruff_cache \
    --exclude=.hypothesis --exclude=./build --exclude=./dist --exclude='*.mo' -cf - . \
    | tar -C "$stage/00-clans-pi/files/clans-pi" -xf -
echo "prepare: stage and app copied to $stage"
if [ -e "$pigen/config" ]; then
    echo "prepare: kept your $pigen/config (compare with $here/config)"
else
    cp "$here/config" "$pigen/config"
    echo "prepare: wrote $pigen/config (change FIRST_USER_PASS before building)"
fi
touch "$pigen/stage2/SKIP_IMAGES"
echo "prepare: stage2 will not export a plain Lite image; next: cd $pigen && ./build-docker.sh"
