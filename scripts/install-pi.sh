#!/usr/bin/env bash
# Installs Clans Pi on Raspberry Pi OS Lite 64-bit (Bookworm or Trixie) so that the Pi boots
# straight into the game. Run it as root from a checkout:  sudo ./scripts/install-pi.sh
#
#   --dry-run       print every step it would take ("would: ..."), change nothing
#   --uninstall     remove what it installed; keeps /etc/clans-pi and /var/lib/clans-pi
#   --purge         with --uninstall: remove those too (settings and saved games)
#   --prefix DIR    where the app goes (default /opt/clans-pi)
#   --root DIR      install into a scratch root directory (every path under DIR); skips
#                   apt, useradd, systemctl, udevadm and the venv (for tests and images)
#   --no-apt        do not install Debian packages (a system that has them already)
#   --app-only      only copy the app to PREFIX/src and (re)build its venv; no packages,
#                   user, unit, udev rules, settings or cmdline.txt (root only to write PREFIX)
#   --hotspot [NAME]
#                   the Pi makes its own Wi-Fi for the phones (NetworkManager; default name
#                   "Clans Pi"), with a strong password it makes up once and keeps; the
#                   start screen shows both (/etc/clans-pi/hotspot.toml)
#   --hotspot-password PASSWORD
#                   with --hotspot: this password instead (8 to 63 characters; others
#                   on the Pi can see it in the process list while the installer runs)
#   --no-hotspot    remove the hotspot (--uninstall removes it too)
#   --core-built    the compiled core is in the checkout already, built for this machine
#                   (the image builder cross-compiles it): no C compiler is installed
#
# Idempotent: a second run changes nothing and says "unchanged: <path>" for each file.
# Never overwrites a maker's /etc/clans-pi/config.toml or /etc/clans-pi/pinout.toml.
set -euo pipefail
umask 022

APT_PACKAGES=(
    python3 python3-venv python3-pip
    # GPIO from the system: lgpio (every Pi, the only one on a Pi 5) and gpiozero.
    python3-lgpio python3-gpiozero python3-serial
    # SDL (pygame-ce brings its own copy) and what its kmsdrm driver opens at run time:
    # GBM, DRM, EGL and GLES, and Mesa's drivers behind them (the Pi's vc4/v3d, and the
    # software fallback; neither comes without recommends, and without them EGL does not
    # start: "no screen to draw on").
    libsdl2-2.0-0 libgbm1 libdrm2 libegl1 libegl-mesa0 libgles2 libgl1-mesa-dri
    # Japanese (and Chinese, Korean) text on screen.
    fonts-noto-cjk
    # A C compiler and the C library's headers: step_venv builds the game's compiled core
    # (clans_pi/compiled/core.c) with them, so that the computers think in C (not with
    # --core-built: COMPILER_PACKAGES).
    gcc libc6-dev
)
COMPILER_PACKAGES=(gcc libc6-dev)
GROUPS_WANTED=(video render input gpio dialout audio)
USER_NAME=clans-pi
STATE_DIR=/var/lib/clans-pi
CACHE_DIR=/var/cache/clans-pi
CONF_DIR=/etc/clans-pi
UNIT=clans-pi.service
HANDHELD_RULES=99-clans-pi-handheld.rules
BACKLIGHT_RULES=90-clans-pi-backlight.rules
# The hotspot (--hotspot): NetworkManager's profile, and the name and password for the game.
HOTSPOT_PROFILE=/etc/NetworkManager/system-connections/clans-pi-hotspot.nmconnection
HOTSPOT_CONF=hotspot.toml   # in $CONF_DIR
HOTSPOT_ID=clans-pi-hotspot
HOTSPOT_DEFAULT_NAME="Clans Pi"
# NetworkManager's shared mode (DHCP and DNS for the phones) runs its dnsmasq.
HOTSPOT_PACKAGES=(dnsmasq-base)
# Copied to $PREFIX/src: enough to build and install the app, and this installer.
SOURCE_ITEMS=(pyproject.toml README.md docs/pi.md clans_pi hardware systemd
              scripts/install-pi.sh)

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX=/opt/clans-pi
ROOT=""
DRY_RUN=0
UNINSTALL=0
PURGE=0
NO_APT=0
APP_ONLY=0
HOTSPOT=0
HOTSPOT_NAME=""
HOTSPOT_PASSWORD=""
NO_HOTSPOT=0
CORE_BUILT=0

usage() { sed -n '2,26s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }
die() { echo "install-pi: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --uninstall) UNINSTALL=1 ;;
        --purge) PURGE=1 ;;
        --no-apt) NO_APT=1 ;;
        --app-only) APP_ONLY=1 ;;
        --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; PREFIX="$2"; shift ;;
        --prefix=*) PREFIX="${1#*=}" ;;
        --root) [ $# -ge 2 ] || die "--root needs a directory"; ROOT="$2"; shift ;;
        --root=*) ROOT="${1#*=}" ;;
        --hotspot)
            HOTSPOT=1
            # The name is optional: the next word is it unless it is an option.
            if [ $# -ge 2 ] && [[ "$2" != -* ]]; then HOTSPOT_NAME="$2"; shift; fi ;;
        --hotspot=*) HOTSPOT=1; HOTSPOT_NAME="${1#*=}" ;;
        --hotspot-password)
            [ $# -ge 2 ] || die "--hotspot-password needs a password"
            HOTSPOT_PASSWORD="$2"; shift ;;
        --hotspot-password=*) HOTSPOT_PASSWORD="${1#*=}" ;;
        --no-hotspot) NO_HOTSPOT=1 ;;
        --core-built) CORE_BUILT=1 ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option '$1' (try --help)" ;;
    esac
    shift
done
case "$PREFIX" in /*) ;; *) die "--prefix must be an absolute path, not '$PREFIX'" ;; esac
PREFIX="${PREFIX%/}"
if [ -z "$PREFIX" ]; then die "--prefix must not be /"; fi
[ "$PURGE" = 0 ] || [ "$UNINSTALL" = 1 ] || die "--purge goes with --uninstall"
[ "$APP_ONLY" = 0 ] || [ "$UNINSTALL" = 0 ] || die "--app-only does not go with --uninstall"
if [ "$HOTSPOT" = 1 ] || [ "$NO_HOTSPOT" = 1 ]; then
    [ "$UNINSTALL" = 0 ] || die "--uninstall removes the hotspot; no --hotspot or --no-hotspot"
    [ "$APP_ONLY" = 0 ] || die "--app-only does not go with --hotspot or --no-hotspot"
fi
[ "$HOTSPOT" = 0 ] || [ "$NO_HOTSPOT" = 0 ] || die "--hotspot does not go with --no-hotspot"
[ -z "$HOTSPOT_PASSWORD" ] || [ "$HOTSPOT" = 1 ] || die "--hotspot-password goes with --hotspot"
# The name and password go into NetworkManager's keyfile and a TOML file as they are: only
# characters that neither needs escaped (and a Wi-Fi name's limit: 32 bytes).
if [ "$HOTSPOT" = 1 ]; then
    HOTSPOT_NAME="${HOTSPOT_NAME:-$HOTSPOT_DEFAULT_NAME}"
    if [ "${#HOTSPOT_NAME}" -gt 32 ] || [[ "$HOTSPOT_NAME" == *$'\n'* ]] \
        || ! LC_ALL=C grep -Eqx "[A-Za-z0-9]([A-Za-z0-9 ._'-]*[A-Za-z0-9._'-])?" \
            <<<"$HOTSPOT_NAME"; then
        die "--hotspot '$HOTSPOT_NAME': a Wi-Fi name is 1 to 32 letters (A-Z, a-z), digits," \
            "spaces and . _ ' - (starting with a letter or digit, not ending with a space)"
    fi
    if [ -n "$HOTSPOT_PASSWORD" ]; then
        if [ "${#HOTSPOT_PASSWORD}" -lt 8 ] || [ "${#HOTSPOT_PASSWORD}" -gt 63 ] \
            || [[ "$HOTSPOT_PASSWORD" == *$'\n'* ]] \
            || ! LC_ALL=C grep -Eqx '[!-~]([ -~]*[!-~])?' <<<"$HOTSPOT_PASSWORD" \
            || [[ "$HOTSPOT_PASSWORD" == *\\* ]]; then
            die "--hotspot-password: 8 to 63 plain ASCII letters, digits, punctuation and" \
                "spaces (no backslash, no space at either end)"
        fi
    fi
fi
if [ -n "$ROOT" ]; then
    [ -d "$ROOT" ] || die "--root $ROOT: no such directory"
    ROOT="$(cd "$ROOT" && pwd)"
    [ "$ROOT" != / ] || ROOT=""
fi
if [ -z "$ROOT" ] && [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ] && [ "$APP_ONLY" = 0 ]; then
    die "run it as root: sudo $0 (or --dry-run to see what it would do)"
fi

# --- helpers ---------------------------------------------------------------------------
R() { printf '%s%s' "$ROOT" "$1"; }   # a system path, under --root when given

# Runs a command that changes the system, or says what it would run.
run() {
    if [ "$DRY_RUN" = 1 ]; then
        echo "would: $*"
    else
        echo "+ $*"
        "$@"
    fi
}

# Commands that only make sense on the real system (apt, users, systemd, udev).
system() {
    if [ -n "$ROOT" ]; then
        echo "skipped in --root mode: $*"
    else
        run "$@"
    fi
}

in_chroot() {
    command -v systemd-detect-virt >/dev/null 2>&1 \
        && systemd-detect-virt --quiet --chroot 2>/dev/null
}

# systemd is the running service manager (sd_booted(3): /run/systemd/system exists), not a
# chroot or an image being built: only then can units be started, stopped or reloaded.
# Enabling and disabling work without it (systemctl edits the links, "offline").
systemd_running() {
    [ -d /run/systemd/system ] && ! in_chroot
}

declare -A DRY_DIRS=()   # directories a dry run has already said it would make

ensure_dir() {   # DIR: create it (mode 0755) when missing
    [ -d "$1" ] && return 0
    [ -z "${DRY_DIRS[$1]:-}" ] || return 0
    DRY_DIRS[$1]=1
    run mkdir -p "$1"   # 0755 (umask 022), parents too
}

file_mode() { stat -c '%a' "$1"; }

CHANGED=0   # set to 1 by install_file when it (would have) installed something

install_file() {   # SRC DST MODE: copy unless DST already has the same bytes and mode
    local src="$1" dst="$2" mode="$3"
    CHANGED=0
    if [ -f "$dst" ] && cmp -s "$src" "$dst" && [ "$(file_mode "$dst")" = "${mode#0}" ]; then
        echo "unchanged: $dst"
        return 0
    fi
    ensure_dir "$(dirname "$dst")"
    run install -m "$mode" "$src" "$dst"
    CHANGED=1
}

install_if_absent() {   # SRC DST MODE: a maker's file: put it there once, never overwrite
    local src="$1" dst="$2" mode="$3"
    if [ -e "$dst" ]; then
        echo "unchanged: $dst (already there; yours to edit, never overwritten)"
        return 0
    fi
    ensure_dir "$(dirname "$dst")"
    run install -m "$mode" "$src" "$dst"
}

remove_path() {   # PATH...: remove when present
    local p
    for p in "$@"; do
        if [ -e "$p" ] || [ -L "$p" ]; then
            run rm -rf -- "$p"
        else
            echo "unchanged: $p (not there)"
        fi
    done
}

# The files of the app's source (relative paths, sorted), without caches.
source_files() {
    local item
    for item in "${SOURCE_ITEMS[@]}"; do
        [ -e "$REPO/$item" ] || die "$REPO/$item is missing: run this from a Clans Pi checkout"
    done
    # Compiled catalogues (*.mo) are not copied: step_venv builds them from the .po files;
    # nor is a compiled core a checkout built for itself (libclanscore-*.so, for that
    # machine): step_venv builds it for this one.
    (cd "$REPO" && find "${SOURCE_ITEMS[@]}" -type f \
        ! -path '*/__pycache__/*' ! -name '*.pyc' ! -name '*.egg-info' ! -name '*.mo' \
        ! -name 'libclanscore-*.so' | LC_ALL=C sort)
}

# --- install steps ---------------------------------------------------------------------
# The PACKAGEs that apt can install here (a candidate version in this system's sources),
# one a line. One apt-cache call for all: each call reads the whole package cache, about a
# second with full package lists.
apt_installable() {
    LC_ALL=C apt-cache policy "$@" 2>/dev/null |
        awk '/^[^ ].*:$/ { p = substr($0, 1, length($0) - 1) }
             /^  Candidate: / && $2 != "(none)" { print p }'
}

step_apt() {
    if [ "$NO_APT" = 1 ]; then
        echo "skipped (--no-apt): apt-get install ${APT_PACKAGES[*]}"
        return 0
    fi
    system apt-get update
    local p have=() lists=1 installable=""
    local -a wanted=()
    for p in "${APT_PACKAGES[@]}"; do  # a core built already needs no compiler
        [ "$CORE_BUILT" = 1 ] && [[ " ${COMPILER_PACKAGES[*]} " == *" $p "* ]] && continue
        wanted+=("$p")
    done
    [ "$HOTSPOT" = 0 ] || wanted+=("${HOTSPOT_PACKAGES[@]}")
    [ -n "$ROOT" ] || installable=" $(apt_installable "${wanted[@]}" | tr '\n' ' ')"
    # A dry run has not updated the package lists: without them nothing can be judged.
    [ "$DRY_RUN" = 0 ] || [[ "$installable" == *" python3 "* ]] || lists=0
    for p in "${wanted[@]}"; do
        if [ -n "$ROOT" ] || [ "$lists" = 0 ] || [[ "$installable" == *" $p "* ]]; then
            have+=("$p")
        elif [ "$p" = python3-lgpio ]; then
            # Raspberry Pi OS has it; plain Debian does not (step_venv: lgpio from PyPI).
            echo "note: no python3-lgpio in this system's apt sources (plain Debian, not" \
                 "Raspberry Pi OS): lgpio comes from PyPI into the venv instead"
        else
            echo "note: no $p in this system's apt sources: going on without it"
        fi
    done
    system env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        "${have[@]}"
}

step_source() {   # the checkout -> $PREFIX/src, so the install does not depend on it staying
    local dst rel changed=0 total=0 mode
    dst="$(R "$PREFIX/src")"
    if [ -d "$dst" ] && [ "$(cd "$dst" && pwd -P)" = "$(cd "$REPO" && pwd -P)" ]; then
        echo "unchanged: $dst (the installer runs from it)"
        return 0
    fi
    local -a files
    source_files >/dev/null   # dies here, not in the substitution below, when incomplete
    mapfile -t files < <(source_files)
    [ "${#files[@]}" -gt 0 ] || die "no source files found in $REPO"
    for rel in "${files[@]}"; do
        total=$((total + 1))
        mode=0644
        [ -x "$REPO/$rel" ] && mode=0755
        if [ -f "$dst/$rel" ] && cmp -s "$REPO/$rel" "$dst/$rel" \
            && [ "$(file_mode "$dst/$rel")" = "${mode#0}" ]; then
            continue
        fi
        changed=$((changed + 1))
        if [ "$DRY_RUN" = 1 ]; then
            continue
        fi
        mkdir -p "$(dirname "$dst/$rel")"   # 0755 (umask 022)
        install -m "$mode" "$REPO/$rel" "$dst/$rel"
    done
    # Files left from an older version would end up in the installed package: remove them.
    local -a stale=()
    if [ -d "$dst" ]; then
        mapfile -t stale < <(cd "$dst" && find . -type f ! -path '*/__pycache__/*' \
            ! -name '*.pyc' | sed 's|^\./||' | LC_ALL=C sort \
            | LC_ALL=C comm -23 - <(printf '%s\n' "${files[@]}"))
    fi
    if [ "$changed" = 0 ] && [ "${#stale[@]}" = 0 ]; then
        echo "unchanged: $dst ($total files)"
        return 0
    fi
    if [ "$DRY_RUN" = 1 ]; then
        echo "would: copy $changed of $total files from $REPO to $dst"
    else
        echo "copied: $changed of $total files from $REPO to $dst"
    fi
    for rel in "${stale[@]}"; do
        run rm -f -- "$dst/$rel"
    done
}

step_readme() {   # the unit's Documentation=: README.md and the maker's guide, docs/pi.md
    install_file "$REPO/README.md" "$(R "$PREFIX/README.md")" 0644
    install_file "$REPO/docs/pi.md" "$(R "$PREFIX/docs/pi.md")" 0644
}

# The source files that make the installed app (for its checksum), relative to the source.
app_source_files() {
    (cd "$1" && find . -type f ! -path '*/__pycache__/*' ! -name '*.pyc' -print0 \
        | LC_ALL=C sort -z)
}

# Runs the venv's Python isolated (-I: neither the current directory nor PYTHON* variables
# on its path) from /, so it imports the installed clans_pi, never a checkout's.
venv_python() {
    (cd / && "$VENV/bin/python" -I "$@")
}

# Every .po of the installed package has its compiled .mo, newer than the .po.
catalogues_compiled() {
    local dir po
    dir="$(venv_python -c 'from clans_pi.i18n import LOCALE_DIR; print(LOCALE_DIR)' \
        2>/dev/null)" || return 1
    for po in "$dir"/*/LC_MESSAGES/clans_pi.po; do
        [ -e "$po" ] || return 1
        [ "${po%.po}.mo" -nt "$po" ] || return 1
    done
}

compile_catalogues() {   # the installed package's .po files -> the .mo files the game reads
    local dir
    if [ "$DRY_RUN" = 1 ]; then
        echo "would: ${COMPILE[*]} <the installed clans_pi/locale>"
        return 0
    fi
    dir="$(venv_python -c 'from clans_pi.i18n import LOCALE_DIR; print(LOCALE_DIR)')" \
        || die "the installed clans_pi cannot be imported from $VENV"
    case "$dir" in
        "$VENV"/*) ;;
        *) die "the installed clans_pi is not in $VENV but in $dir" ;;
    esac
    (cd / && run "${COMPILE[@]}" "$dir")
}

# gpiozero's pin library on a Pi: Raspberry Pi OS's python3-lgpio (system site packages), or,
# where there is none (plain Debian), lgpio from PyPI in the venv.
ensure_lgpio() {
    case "$(uname -m)" in aarch64|armv7l) ;; *) return 0 ;; esac
    # Found, not imported: importing lgpio leaves its notification pipe (.lgd-nfy0) in the
    # current directory.
    if [ "$DRY_RUN" = 0 ] && [ -x "$VENV/bin/python" ] && venv_python -c \
        'import importlib.util, sys; sys.exit(importlib.util.find_spec("lgpio") is None)'; then
        [ "${1:-}" = quiet ] || echo "unchanged: lgpio (gpiozero's pin library)"
        return 0
    fi
    if [ "$DRY_RUN" = 1 ]; then
        echo "would: $VENV/bin/python -m pip install lgpio (if the system has no python3-lgpio)"
        return 0
    fi
    echo "note: no lgpio from the system (python3-lgpio): installing it from PyPI"
    if ! run "$VENV/bin/python" -m pip install --disable-pip-version-check --no-input lgpio
    then
        echo "note: lgpio could not be installed: GPIO seats will not work (the game runs," \
             "with the on-screen peek); on Raspberry Pi OS: sudo apt install python3-lgpio"
    fi
}

# The game's compiled core (clans_pi/compiled/core.c) built for this machine by CMD...
# (python -m clans_pi.compiled.build --if-needed), next to the core.c its Python imports.
# --if-needed keeps a library that is there already when it loads here and was built from
# that core.c, the test the game makes when it starts (clans_pi/compiled/library.py), and
# builds any other: so it never compiles what it has, and never leaves a library the game
# would refuse. The image builder cross-compiles the library into $PREFIX/src and checks it
# that way in the image before it runs this installer there, so nothing compiles under
# emulation. Without a C compiler, or when it fails: one line saying why, and the computers
# think on the Python path (slower); the install goes on.
build_core() {   # CMD...
    local out name
    name="libclanscore-$(uname -m).so"
    if out="$("$@" 2>&1)"; then
        if [[ "$out" == *"built "* ]]; then   # it says "built PATH" only when it built one
            echo "built: the compiled core $name"
        else
            echo "unchanged: the compiled core $name (built from this core.c)"
        fi
    else
        out="${out##*$'\n'}"   # its one line (the last, should anything come before it)
        out="${out#clans-pi: }"
        [[ "$out" == *"Python path"* ]] || out="$out; the computers think on the Python path"
        echo "note: $out"
    fi
}

step_venv() {
    local src="$PREFIX/src" stamp want have build
    VENV="$PREFIX/.venv"
    # No [pi] extra: lgpio and gpiozero come from Debian (python3-lgpio, python3-gpiozero;
    # --system-site-packages), and RPi.GPIO has no aarch64 wheel (it would need a compiler).
    local -a make_venv=(python3 -m venv --system-site-packages "$VENV")
    # pip builds in the directory it is given (setuptools' build/ and *.egg-info): it gets a
    # copy made for it, so $src holds exactly the app's files and a second run finds them so.
    local -a pip_install=("$VENV/bin/python" -m pip install --disable-pip-version-check
                          --no-input --upgrade)
    # The translations: the installed package's .po files compiled into the .mo files the
    # game reads (compiled catalogues are build output, never in the repository). pybabel
    # through the venv's Python: where the system's python3-babel is new enough, pip puts
    # no pybabel into the venv.
    COMPILE=("$VENV/bin/python" -I -m babel.messages.frontend compile --statistics
             -D clans_pi -d)
    # The compiled core is built in that copy before pip installs it, so that it goes into
    # the venv with the package (its package data): by the system's python3 (the builder
    # needs only the standard library) run in the copy, so that it imports the copy's
    # clans_pi (-E: whatever PYTHONPATH says); -B: no __pycache__ left in it.
    local -a core=(-B -m clans_pi.compiled.build --if-needed)
    if [ -n "$ROOT" ]; then
        echo "skipped in --root mode: ${make_venv[*]}"
        echo "skipped in --root mode: python3 -E ${core[*]} <in a copy of $src>"
        echo "skipped in --root mode: ${pip_install[*]} <a copy of $src>"
        echo "skipped in --root mode: ${COMPILE[*]} <the installed clans_pi/locale>"
        return 0
    fi
    stamp="$VENV/.clans-pi-installed"
    if [ -d "$src" ]; then
        want="$(app_source_files "$src" | (cd "$src" && xargs -0 sha256sum) | sha256sum \
            | cut -d' ' -f1)"
    else
        want="(source not copied yet)"
    fi
    have="$(cat "$stamp" 2>/dev/null || true)"
    if [ -x "$VENV/bin/clans-pi" ] && [ "$have" = "$want" ]; then
        echo "unchanged: $VENV (clans-pi installed from this source)"
        # An older installer compiled them elsewhere: compile them where the game looks.
        if catalogues_compiled; then
            echo "unchanged: the installed translations (compiled)"
        else
            compile_catalogues
        fi
        # Installed where there was no C compiler then: built in the installed package
        # once there is one.
        if [ "$DRY_RUN" = 1 ]; then
            echo "would: $VENV/bin/python -I ${core[*]} (the installed package)"
        else
            build_core venv_python "${core[@]}"
        fi
        ensure_lgpio
        return 0
    fi
    [ -x "$VENV/bin/python" ] || run "${make_venv[@]}"
    if [ "$DRY_RUN" = 1 ]; then
        echo "would: python3 -E ${core[*]} <in a copy of $src>"
        echo "would: ${pip_install[*]} <a copy of $src>"
    else
        build="$(mktemp -d "${TMPDIR:-/tmp}/clans-pi-build.XXXXXX")"
        cp -a "$src" "$build/src"
        (cd "$build/src" && build_core python3 -E "${core[@]}")
        if ! run "${pip_install[@]}" "$build/src"; then
            rm -rf "$build"
            die "pip install failed (above); the installed app is as it was"
        fi
        rm -rf "$build"
    fi
    compile_catalogues
    ensure_lgpio quiet
    if [ "$DRY_RUN" = 1 ]; then
        echo "would: record the installed source's checksum in $stamp"
    else
        echo "$want" >"$stamp"
    fi
}

step_user() {
    local g missing=() have=() current
    if [ -n "$ROOT" ]; then
        echo "skipped in --root mode: useradd --system $USER_NAME" \
             "(groups ${GROUPS_WANTED[*]})"
        return 0
    fi
    for g in "${GROUPS_WANTED[@]}"; do
        if getent group "$g" >/dev/null; then have+=("$g"); else missing+=("$g"); fi
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        echo "note: no group(s) ${missing[*]} on this system; $USER_NAME is not added to" \
             "them (the game may not reach that hardware)"
    fi
    if ! getent passwd "$USER_NAME" >/dev/null; then
        local -a add=(useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home
                      --shell /usr/sbin/nologin --comment "Clans Pi game")
        [ "${#have[@]}" -gt 0 ] && add+=(--groups "$(IFS=,; echo "${have[*]}")")
        run "${add[@]}" "$USER_NAME"
        return 0
    fi
    current=" $(id -nG "$USER_NAME" 2>/dev/null || true) "
    local -a need=()
    for g in "${have[@]}"; do
        [[ "$current" == *" $g "* ]] || need+=("$g")
    done
    if [ "${#need[@]}" -gt 0 ]; then
        run usermod --append --groups "$(IFS=,; echo "${need[*]}")" "$USER_NAME"
    else
        echo "unchanged: user $USER_NAME (groups ${have[*]})"
    fi
}

step_config() {
    install_if_absent "$REPO/clans_pi/settings/config.example.toml" "$(R "$CONF_DIR/config.toml")" 0644
    # The pin map the game reads first (clans_pi.hardware.pinmap: /etc/clans-pi/pinout.toml
    # when present); the copy in the installed package's directory is not found.
    install_if_absent "$REPO/hardware/pinout.toml" "$(R "$CONF_DIR/pinout.toml")" 0644
}

# --- the hotspot (--hotspot) -----------------------------------------------------------
# NetworkManager's keyfile (nm-settings-keyfile(5)) is written directly, so that it works
# without a running NetworkManager: in --root mode and in the image build.

keyfile_value() {   # FILE KEY: KEY's value in the keyfile FILE ("" when absent)
    [ -r "$1" ] || return 0
    sed -n "s/^$2=//p" "$1" | head -n 1
}

# 16 characters from 32 that cannot be mistaken for one another (no l, o, 0, 1), in groups
# of four to read out at the table: 80 random bits. 256 is a multiple of 32, so each byte
# modulo 32 is uniform.
random_password() {
    local alphabet=abcdefghijkmnpqrstuvwxyz23456789 out="" b
    for b in $(od -An -N16 -tu1 /dev/urandom); do
        out+="${alphabet:$((b % 32)):1}"
    done
    echo "${out:0:4}-${out:4:4}-${out:8:4}-${out:12:4}"
}

hotspot_keyfile() {   # NAME PASSWORD UUID: the access point's profile
    cat <<EOF
# Clans Pi: the Pi's own Wi-Fi for the phones, written by install-pi.sh --hotspot.
# Run the installer again to change it (--hotspot NAME --hotspot-password PASSWORD), or
# with --no-hotspot to remove it. The game reads the name and password from
# $CONF_DIR/$HOTSPOT_CONF.
[connection]
id=$HOTSPOT_ID
uuid=$3
type=wifi
interface-name=wlan0
autoconnect=true
# Above a home Wi-Fi's profile (0): at boot the Pi makes its own network.
autoconnect-priority=10

[wifi]
mode=ap
band=bg
ssid=$1

[wifi-security]
key-mgmt=wpa-psk
psk=$2
# WPA2 with CCMP only, and no management frame protection: the Pi's Wi-Fi chip (brcmfmac)
# does not support that as an access point, and phones then fail to join.
proto=rsn
pairwise=ccmp
group=ccmp
pmf=1

[ipv4]
# NetworkManager gives the phones their addresses (DHCP, DNS); the Pi is 10.42.0.1.
method=shared

[ipv6]
method=ignore
EOF
}

toml_string() {   # TEXT: a TOML basic string
    local s="${1//\\/\\\\}"
    printf '"%s"' "${s//\"/\\\"}"
}

hotspot_toml() {   # NAME PASSWORD: what the game reads (clans_pi/settings/config.py)
    cat <<EOF
# The Pi's own Wi-Fi for the phones, written by install-pi.sh --hotspot (the same as in
# $HOTSPOT_PROFILE).
# The start screen's "Wi-Fi for phones" shows it. Run the installer again to change it
# (--hotspot NAME --hotspot-password PASSWORD), or with --no-hotspot to remove it. A
# wifi_name in config.toml wins over this file.
[phones]
wifi_name = $(toml_string "$1")
wifi_password = $(toml_string "$2")
EOF
}

install_secret() {   # SRC DST: a file only root may read (0600, root's when run as root)
    local src="$1" dst="$2"
    local -a owner=()
    CHANGED=0
    [ "$(id -u)" != 0 ] || owner=(-o root -g root)
    if [ -f "$dst" ] && cmp -s "$src" "$dst" && [ "$(file_mode "$dst")" = 600 ] \
        && { [ "${#owner[@]}" = 0 ] || [ "$(stat -c %u:%g "$dst")" = 0:0 ]; }; then
        echo "unchanged: $dst"
        return 0
    fi
    ensure_dir "$(dirname "$dst")"
    run install -m 0600 "${owner[@]}" "$src" "$dst"
    CHANGED=1
}

# NetworkManager reads a changed profile when told to; when it is not running (--root mode,
# a chroot, an image being built) it reads it when it starts.
reload_networkmanager() {
    if [ -n "$ROOT" ]; then
        echo "skipped in --root mode: nmcli connection reload"
    elif ! command -v nmcli >/dev/null 2>&1; then
        echo "note: no NetworkManager here (nmcli): the hotspot needs it (Raspberry Pi OS" \
             "Bookworm and later have it)"
    elif in_chroot || [ "$(nmcli -t -f RUNNING general 2>/dev/null)" != running ]; then
        echo "skipped (NetworkManager is not running here): nmcli connection reload"
    else
        run nmcli connection reload
    fi
}

remove_hotspot() {
    local profile conf
    profile="$(R "$HOTSPOT_PROFILE")"
    conf="$(R "$CONF_DIR/$HOTSPOT_CONF")"
    if [ ! -e "$profile" ] && [ ! -e "$conf" ]; then
        echo "unchanged: no hotspot ($profile not there)"
        return 0
    fi
    remove_path "$profile" "$conf"
    reload_networkmanager
}

step_hotspot() {
    local profile conf password uuid work changed
    profile="$(R "$HOTSPOT_PROFILE")"
    conf="$(R "$CONF_DIR/$HOTSPOT_CONF")"
    if [ "$NO_HOTSPOT" = 1 ]; then
        remove_hotspot
        return 0
    fi
    if [ "$HOTSPOT" = 0 ]; then
        [ ! -e "$profile" ] \
            || echo "unchanged: $profile (the hotspot of an earlier run; --no-hotspot removes it)"
        return 0
    fi
    # The password given, else the one made by the first run, else a new one.
    password="${HOTSPOT_PASSWORD:-$(keyfile_value "$profile" psk)}"
    [ -n "$password" ] || password="$(random_password)"
    uuid="$(keyfile_value "$profile" uuid)"
    [ -n "$uuid" ] || uuid="$(cat /proc/sys/kernel/random/uuid)"
    work="$(mktemp -d "${TMPDIR:-/tmp}/clans-pi-hotspot.XXXXXX")"   # 0700: the password
    hotspot_keyfile "$HOTSPOT_NAME" "$password" "$uuid" >"$work/profile"
    hotspot_toml "$HOTSPOT_NAME" "$password" >"$work/conf"
    install_secret "$work/profile" "$profile"
    changed=$CHANGED
    install_file "$work/conf" "$conf" 0644
    rm -rf "$work"
    [ "$changed" = 1 ] || [ "$CHANGED" = 1 ] || return 0
    reload_networkmanager
    if [ "$DRY_RUN" = 0 ]; then
        echo "note: the hotspot '$HOTSPOT_NAME' starts at the next boot (its password is on" \
             "the start screen, under Wi-Fi for phones); the Pi's Wi-Fi then serves the" \
             "table and leaves any other Wi-Fi network"
    fi
}

step_udev() {
    local handheld backlight
    install_file "$REPO/systemd/$HANDHELD_RULES" "$(R "/etc/udev/rules.d/$HANDHELD_RULES")" 0644
    handheld=$CHANGED
    install_file "$REPO/systemd/$BACKLIGHT_RULES" "$(R "/etc/udev/rules.d/$BACKLIGHT_RULES")" \
        0644
    backlight=$CHANGED
    [ "$handheld" = 1 ] || [ "$backlight" = 1 ] || return 0
    if [ -z "$ROOT" ] && in_chroot; then
        echo "skipped in a chroot: udevadm control --reload"
        return 0
    fi
    system udevadm control --reload
    [ "$handheld" = 0 ] || system udevadm trigger --subsystem-match=tty
    # The backlight rule acts on "add" events only; a plain trigger sends "change".
    [ "$backlight" = 0 ] || system udevadm trigger --action=add --subsystem-match=backlight
}

step_unit() {
    install_file "$REPO/systemd/$UNIT" "$(R "/etc/systemd/system/$UNIT")" 0644
    if [ "$CHANGED" = 1 ]; then
        if [ -n "$ROOT" ] || systemd_running; then
            system systemctl daemon-reload
        else
            echo "skipped (systemd is not running here): systemctl daemon-reload"
        fi
    fi
    if [ -z "$ROOT" ] && systemctl --quiet is-enabled "$UNIT" 2>/dev/null; then
        echo "unchanged: $UNIT enabled"
    else
        system systemctl enable "$UNIT"
    fi
    # The game owns tty1 (see the unit's Conflicts=); boot need not rely on the tie-break.
    if [ -z "$ROOT" ] && [ "$(systemctl is-enabled getty@tty1.service 2>/dev/null)" = disabled ]
    then
        echo "unchanged: getty@tty1.service disabled"
    else
        system systemctl disable getty@tty1.service
    fi
}

cmdline_path() {
    local p
    for p in /boot/firmware/cmdline.txt /boot/cmdline.txt; do
        if [ -f "$(R "$p")" ]; then
            R "$p"
            return 0
        fi
    done
    return 1
}

# The kernel's command line for a quiet boot to the game: no console blanking, no blinking
# cursor, no Raspberry Pi logos, no initramfs chatter ("quiet": its "Loading, please
# wait..." and "Begin: ..." lines stayed on the screen until the game's first frame), only
# critical kernel messages and systemd's errors on the screen (the journal keeps
# everything). "splash" keeps "quiet": Raspberry Pi OS's first boot deletes "quiet" from
# cmdline.txt unless "splash" is there (raspberrypi-sys-mods' firstboot); with no splash
# program installed nothing else reads it.
CMDLINE_TOKENS=(consoleblank=0 vt.global_cursor_default=0 logo.nologo quiet splash
                loglevel=3 systemd.show_status=error)

step_cmdline() {
    local file line new token
    if ! file="$(cmdline_path)"; then
        echo "skipped: no $(R /boot/firmware/cmdline.txt) or $(R /boot/cmdline.txt)" \
             "(not a Raspberry Pi OS boot partition)"
        return 0
    fi
    line="$(head -n 1 "$file")"
    new="$line"
    for token in "${CMDLINE_TOKENS[@]}"; do
        [[ " $new " == *" $token "* ]] || new="${new%"${new##*[![:space:]]}"} $token"
    done
    if [ "$new" = "$line" ]; then
        echo "unchanged: $file"
        return 0
    fi
    if [ "$DRY_RUN" = 1 ]; then
        echo "would: set $file to: $new"
        return 0
    fi
    # Keep the file's mode; it is one line (any further lines are kept as they are).
    { printf '%s\n' "$new"; tail -n +2 "$file"; } >"$file.clans-pi.tmp"
    chmod --reference="$file" "$file.clans-pi.tmp"
    mv -f "$file.clans-pi.tmp" "$file"
    echo "edited: $file (added ${CMDLINE_TOKENS[*]}; reboot to apply)"
}

step_config_txt() {   # no rainbow square from the Pi's firmware at power-on
    local file
    file="$(dirname "$(cmdline_path)")/config.txt"
    if [ ! -f "$file" ]; then
        echo "skipped: no $file"
        return 0
    fi
    if grep -qE '^[[:space:]]*disable_splash=' "$file"; then
        echo "unchanged: $file (disable_splash already set)"
        return 0
    fi
    if [ "$DRY_RUN" = 1 ]; then
        echo "would: add disable_splash=1 to $file"
        return 0
    fi
    # At the end, under its own [all]: a setting after a conditional section ([pi4], ...)
    # would apply to that model only.
    printf '\n[all]\n# Clans Pi: no rainbow square at power-on\ndisable_splash=1\n' >>"$file"
    echo "edited: $file (added disable_splash=1)"
}

# --- uninstall -------------------------------------------------------------------------
uninstall() {
    local cmdline
    # Without a running systemd (a chroot, an image being built) there is nothing to stop,
    # and "disable --now" fails; "disable" alone removes the links offline.
    if [ -z "$ROOT" ] && systemd_running && systemctl cat "$UNIT" >/dev/null 2>&1; then
        system systemctl disable --now "$UNIT"
    else
        system systemctl disable "$UNIT"
    fi
    remove_path "$(R "/etc/systemd/system/$UNIT")"
    if [ -n "$ROOT" ] || systemd_running; then
        system systemctl daemon-reload
    else
        echo "skipped (systemd is not running here): systemctl daemon-reload"
    fi
    system systemctl enable getty@tty1.service
    remove_path "$(R "/etc/udev/rules.d/$HANDHELD_RULES")" \
                "$(R "/etc/udev/rules.d/$BACKLIGHT_RULES")"
    if [ -z "$ROOT" ] && ! in_chroot; then
        system udevadm control --reload
    fi
    remove_path "$(R "$PREFIX")"
    remove_hotspot
    if [ -n "$ROOT" ]; then
        echo "skipped in --root mode: userdel $USER_NAME"
    elif getent passwd "$USER_NAME" >/dev/null; then
        run userdel "$USER_NAME"
    else
        echo "unchanged: user $USER_NAME (not there)"
    fi
    if [ "$PURGE" = 1 ]; then
        remove_path "$(R "$CONF_DIR")" "$(R "$STATE_DIR")" "$(R "$CACHE_DIR")"
    else
        echo "kept: $(R "$CONF_DIR") (settings) and $(R "$STATE_DIR") (saved games);" \
             "--purge removes them"
    fi
    if cmdline="$(cmdline_path)" \
        && grep -qE '(^| )(consoleblank=0|vt\.global_cursor_default=0)( |$)' "$cmdline"; then
        echo "kept: ${CMDLINE_TOKENS[*]} in $cmdline (harmless; remove them by hand for" \
             "the boot's messages, a cursor and a blanking console)"
    fi
    echo "kept: the Debian packages it installed (of ${APT_PACKAGES[*]})"
}

if [ "$UNINSTALL" = 1 ]; then
    uninstall
    exit 0
fi

if [ "$APP_ONLY" = 1 ]; then
    ensure_dir "$(R "$PREFIX")"
    step_source
    step_readme
    step_venv
    if [ "$DRY_RUN" = 1 ]; then
        echo "dry run: nothing was changed"
    else
        echo "done: the app in $PREFIX (restart it: sudo systemctl restart clans-pi)"
    fi
    exit 0
fi

step_apt
ensure_dir "$(R "$PREFIX")"
step_source
step_readme
step_venv
step_user
step_config
step_hotspot
step_udev
step_unit
step_cmdline
if cmdline_path >/dev/null; then step_config_txt; fi
if [ "$DRY_RUN" = 1 ]; then
    echo "dry run: nothing was changed"
elif [ -z "$ROOT" ]; then
    echo "done: reboot (sudo reboot) and the Pi starts into Clans Pi;" \
         "settings in $CONF_DIR/config.toml"
else
    echo "done: installed under $ROOT"
fi
