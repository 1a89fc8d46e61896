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
#   --no-apt        do not install Debian packages (pi-gen installs them itself)
#
# Idempotent: a second run changes nothing and says "unchanged: <path>" for each file.
# Never overwrites a maker's /etc/clans-pi/config.toml or /etc/clans-pi/pinout.toml.
set -euo pipefail
umask 022

APT_PACKAGES=(
    python3 python3-venv python3-pip
    # GPIO from the system: lgpio (every Pi, the only one on a Pi 5) and gpiozero.
    python3-lgpio python3-gpiozero python3-serial
    # SDL (pygame-ce brings its own copy) and what its kmsdrm driver opens at run time.
    libsdl2-2.0-0 libgbm1 libdrm2 libegl1 libgles2
    # Japanese (and Chinese, Korean) text on screen.
    fonts-noto-cjk
)
GROUPS_WANTED=(video render input gpio dialout audio)
USER_NAME=clans-pi
STATE_DIR=/var/lib/clans-pi
CACHE_DIR=/var/cache/clans-pi
CONF_DIR=/etc/clans-pi
UNIT=clans-pi.service
HANDHELD_RULES=99-clans-pi-handheld.rules
BACKLIGHT_RULES=90-clans-pi-backlight.rules
# Copied to $PREFIX/src: enough to build and install the app, and this installer.
SOURCE_ITEMS=(pyproject.toml README.md clans_pi hardware systemd
              scripts/install-pi.sh scripts/config.example.toml)

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX=/opt/clans-pi
ROOT=""
DRY_RUN=0
UNINSTALL=0
PURGE=0
NO_APT=0

usage() { sed -n '2,14s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }
die() { echo "install-pi: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --uninstall) UNINSTALL=1 ;;
        --purge) PURGE=1 ;;
        --no-apt) NO_APT=1 ;;
        --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; PREFIX="$2"; shift ;;
        --prefix=*) PREFIX="${1#*=}" ;;
        --root) [ $# -ge 2 ] || die "--root needs a directory"; ROOT="$2"; shift ;;
        --root=*) ROOT="${1#*=}" ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option '$1' (try --help)" ;;
    esac
    shift
done
case "$PREFIX" in /*) ;; *) die "--prefix must be an absolute path, not '$PREFIX'" ;; esac
PREFIX="${PREFIX%/}"
if [ -z "$PREFIX" ]; then die "--prefix must not be /"; fi
[ "$PURGE" = 0 ] || [ "$UNINSTALL" = 1 ] || die "--purge goes with --uninstall"
if [ -n "$ROOT" ]; then
    [ -d "$ROOT" ] || die "--root $ROOT: no such directory"
    ROOT="$(cd "$ROOT" && pwd)"
    [ "$ROOT" != / ] || ROOT=""
fi
if [ -z "$ROOT" ] && [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
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
    # Compiled catalogues (*.mo) are not copied: step_venv builds them from the .po files.
    (cd "$REPO" && find "${SOURCE_ITEMS[@]}" -type f \
        ! -path '*/__pycache__/*' ! -name '*.pyc' ! -name '*.egg-info' ! -name '*.mo' \
        | LC_ALL=C sort)
}

# --- install steps ---------------------------------------------------------------------
step_apt() {
    if [ "$NO_APT" = 1 ]; then
        echo "skipped (--no-apt): apt-get install ${APT_PACKAGES[*]}"
        return 0
    fi
    system apt-get update
    system env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        "${APT_PACKAGES[@]}"
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

step_readme() {   # the unit's Documentation=file:///opt/clans-pi/README.md
    install_file "$REPO/README.md" "$(R "$PREFIX/README.md")" 0644
}

step_venv() {
    local venv="$PREFIX/.venv" src="$PREFIX/src" stamp want have
    # No [pi] extra: lgpio and gpiozero come from Debian (python3-lgpio, python3-gpiozero;
    # --system-site-packages), and RPi.GPIO has no aarch64 wheel (it would need a compiler).
    local -a make_venv=(python3 -m venv --system-site-packages "$venv")
    local -a pip_install=("$venv/bin/python" -m pip install --disable-pip-version-check
                          --no-input --upgrade "$src")
    # The translations: the installed package's .po files compiled into the .mo files the
    # game reads (compiled catalogues are build output, never in the repository).
    local -a compile=("$venv/bin/pybabel" compile --statistics -D clans_pi -d)
    local locale_of=("$venv/bin/python" -c
                     'from clans_pi.i18n import LOCALE_DIR; print(LOCALE_DIR)')
    if [ -n "$ROOT" ]; then
        echo "skipped in --root mode: ${make_venv[*]}"
        echo "skipped in --root mode: ${pip_install[*]}"
        echo "skipped in --root mode: ${compile[*]} <the installed clans_pi/locale>"
        return 0
    fi
    stamp="$venv/.clans-pi-installed"
    if [ -d "$src" ]; then
        want="$(cd "$src" && find . -type f ! -path '*/__pycache__/*' ! -name '*.pyc' \
            ! -path './build/*' ! -path '*.egg-info/*' -print0 | LC_ALL=C sort -z \
            | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)"
    else
        want="(source not copied yet)"
    fi
    have="$(cat "$stamp" 2>/dev/null || true)"
    if [ -x "$venv/bin/clans-pi" ] && [ "$have" = "$want" ]; then
        echo "unchanged: $venv (clans-pi installed from this source)"
        return 0
    fi
    [ -x "$venv/bin/python" ] || run "${make_venv[@]}"
    run "${pip_install[@]}"
    if [ "$DRY_RUN" = 1 ]; then
        echo "would: ${compile[*]} <the installed clans_pi/locale>"
    else
        run "${compile[@]}" "$("${locale_of[@]}")"
    fi
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
    install_if_absent "$REPO/scripts/config.example.toml" "$(R "$CONF_DIR/config.toml")" 0644
    # The pin map the game reads first (clans_pi.hardware.pinmap: /etc/clans-pi/pinout.toml
    # when present); the copy in the installed package's directory is not found.
    install_if_absent "$REPO/hardware/pinout.toml" "$(R "$CONF_DIR/pinout.toml")" 0644
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
    [ "$CHANGED" = 0 ] || system systemctl daemon-reload
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

step_cmdline() {   # no console blanking, no blinking cursor over the game
    local file line new token
    if ! file="$(cmdline_path)"; then
        echo "skipped: no $(R /boot/firmware/cmdline.txt) or $(R /boot/cmdline.txt)" \
             "(not a Raspberry Pi OS boot partition)"
        return 0
    fi
    line="$(head -n 1 "$file")"
    new="$line"
    for token in consoleblank=0 vt.global_cursor_default=0; do
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
    echo "edited: $file (added consoleblank=0 vt.global_cursor_default=0; reboot to apply)"
}

# --- uninstall -------------------------------------------------------------------------
uninstall() {
    if [ -z "$ROOT" ] && systemctl cat "$UNIT" >/dev/null 2>&1; then
        system systemctl disable --now "$UNIT"
    else
        system systemctl disable "$UNIT"
    fi
    remove_path "$(R "/etc/systemd/system/$UNIT")"
    system systemctl daemon-reload
    system systemctl enable getty@tty1.service
    remove_path "$(R "/etc/udev/rules.d/$HANDHELD_RULES")" \
                "$(R "/etc/udev/rules.d/$BACKLIGHT_RULES")"
    if [ -z "$ROOT" ] && ! in_chroot; then
        system udevadm control --reload
    fi
    remove_path "$(R "$PREFIX")"
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
    echo "kept: consoleblank=0 vt.global_cursor_default=0 in cmdline.txt (harmless;" \
         "remove them by hand if you want the console to blank)"
    echo "kept: the Debian packages (${APT_PACKAGES[*]})"
}

if [ "$UNINSTALL" = 1 ]; then
    uninstall
    exit 0
fi

step_apt
ensure_dir "$(R "$PREFIX")"
step_source
step_readme
step_venv
step_user
step_config
step_udev
step_unit
step_cmdline
if [ "$DRY_RUN" = 1 ]; then
    echo "dry run: nothing was changed"
elif [ -z "$ROOT" ]; then
    echo "done: reboot (sudo reboot) and the Pi starts into Clans Pi;" \
         "settings in $CONF_DIR/config.toml"
else
    echo "done: installed under $ROOT"
fi
