# shellcheck shell=bash
# Sourced by scripts/play and scripts/test: make sure .venv exists and matches pyproject.toml.
# Idempotent: a second run with nothing changed installs nothing.
# Usage: ensure_venv EXTRAS   (e.g. "dev" or "")
ensure_venv() {
    local extras="$1" root py stamp want
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    py="${CLANS_PYTHON:-python3}"
    if ! command -v "$py" >/dev/null 2>&1; then
        echo "clans-pi: $py not found; install Python 3.11 or newer (on a Pi: sudo apt install python3 python3-venv)" >&2
        return 1
    fi
    if ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
        echo "clans-pi: needs Python 3.11 or newer, $py is $("$py" -V 2>&1)" >&2
        return 1
    fi
    if [ ! -x "$root/.venv/bin/python" ]; then
        echo "clans-pi: creating $root/.venv" >&2
        "$py" -m venv "$root/.venv" || {
            echo "clans-pi: could not create a virtual environment (on Debian: sudo apt install python3-venv)" >&2
            return 1
        }
    fi
    stamp="$root/.venv/.clans-pi-installed"
    local hash have
    hash="$(sha256sum <"$root/pyproject.toml" | cut -d' ' -f1)"
    want="$hash [$extras]"
    have="$(cat "$stamp" 2>/dev/null || true)"
    # An install with extras also serves a request without them (play after test).
    if [ "$have" != "$want" ] && ! { [ -z "$extras" ] && [ "${have%% *}" = "$hash" ]; }; then
        echo "clans-pi: installing into .venv (first run, or pyproject.toml changed)" >&2
        local spec="$root"
        [ -n "$extras" ] && spec="${root}[${extras}]"
        "$root/.venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$spec" || {
            echo "clans-pi: pip install failed (see above); nothing else was changed" >&2
            return 1
        }
        echo "$want" >"$stamp"
    fi
    compile_catalogues "$root"
    build_core "$root"
}

# The compiled core (clans_pi/compiled/core.c): built for this machine when there is no
# library built from today's core.c (a second run builds nothing). Without a C compiler,
# or when it fails, one line says so and the game plays on the Python path.
build_core() {
    local root="$1"
    "$root/.venv/bin/python" -m clans_pi.compiled.build --if-needed --quiet || true
}

# The translations: each .po compiled into the .mo the game reads when the .mo is missing or
# older than its .po (compiled catalogues are build output, never committed). A failure is
# said and the game still starts (in English, saying so once).
compile_catalogues() {
    local root="$1" po mo stale=0
    for po in "$root"/clans_pi/locale/*/LC_MESSAGES/clans_pi.po; do
        [ -e "$po" ] || continue
        mo="${po%.po}.mo"
        if [ ! -e "$mo" ] || [ "$po" -nt "$mo" ]; then
            stale=1
        fi
    done
    [ "$stale" = 1 ] || return 0
    echo "clans-pi: compiling the translations (clans_pi/locale)" >&2
    "$root/scripts/catalogues" compile >/dev/null 2>&1 || {
        echo "clans-pi: compiling the translations failed: try $root/scripts/catalogues" \
             "compile; the game runs in English" >&2
    }
}

# Debian's packages some tests need, never downloaded builds: chromium for the phone page's
# tests (tests/test_phones_browser.py), and the disk tools the image builder's tests make
# small disk images with (tests/test_build_image.py: sfdisk, mkfs.vfat, mcopy). Missing,
# they are installed when that can be done here (root with apt-get, as CI is: apt-get
# update once, then one install, quietly); otherwise those tests are skipped, and one line
# says how to run them. Never fails the run (no network, apt's lock held): it says so in one
# line and the tests go on.
ensure_test_packages() {
    local log need=() want how
    command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
        || need+=(chromium)
    for want in sfdisk:fdisk mkfs.vfat:dosfstools mcopy:mtools mkfs.ext4:e2fsprogs; do
        command -v "${want%%:*}" >/dev/null 2>&1 || need+=("${want#*:}")
    done
    [ "${#need[@]}" -gt 0 ] || return 0
    how="sudo apt install ${need[*]}, then ./scripts/test"
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        echo "clans-pi: no ${need[*]} here, so the tests needing them are skipped; to run them: $how" >&2
        return 0
    fi
    echo "clans-pi: installing Debian's ${need[*]} (apt-get) for the tests" >&2
    log="$(mktemp)"
    if DEBIAN_FRONTEND=noninteractive apt-get update -qq \
            -o Acquire::http::Timeout=20 -o Acquire::Retries=0 >"$log" 2>&1 \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            "${need[@]}" >"$log" 2>&1; then
        rm -f "$log"
        return 0
    fi
    echo "clans-pi: apt-get could not install ${need[*]} ($(grep -m1 '^E:' "$log" || tail -n1 "$log")); the tests needing them are skipped; to run them: $how" >&2
    rm -f "$log"
    return 0
}

# pytest's arguments for scripts/test's, one a line: --quick becomes -m "not slow" (the
# tests marked slow: subprocess-heavy, browser and installer tests), the rest pass as given.
pytest_args() {
    local arg
    for arg in "$@"; do
        if [ "$arg" = --quick ]; then
            printf '%s\n' -m "not slow"
        else
            printf '%s\n' "$arg"
        fi
    done
}
