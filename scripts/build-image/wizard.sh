#!/usr/bin/env bash
# Sourced by build: the step that switches off Raspberry Pi OS's first-boot user wizard, on
# its own so that tests/test_build_image.py can run it on bases laid out in a directory.

# wizard_off ROOT UNIT LOG SYSTEMCTL...: UNIT disabled and masked in the system under ROOT:
# /etc/systemd/system/UNIT a link to /dev/null, and no link of its name left in
# /etc/systemd/system's *.wants, *.requires or *.upholds to start it. SYSTEMCTL... runs that
# system's systemctl (build: in_image systemctl; a test: systemctl --root=ROOT).
#
# systemctl mask fails when a file of the unit's name is in /etc/systemd/system already
# (systemctl(1)): a copy of the unit or a link to it that an earlier customisation tool left
# there. That file is removed first (the package's own unit in /lib stays), and said. A unit
# masked already stays so. getty@tty1 is left as the installer set it (off: the game owns
# tty1), not switched on as userconf-pi's cancel-rename would.
#
# systemctl's own output goes to LOG; what is worth saying, to stdout ("note: ..."); on
# failure, one line to stderr and status 1.
wizard_off() {
    local root="$1" unit="$2" log="$3"
    shift 3
    local etc="$root/etc/systemd/system" what link
    local here="$etc/$unit"
    if [ "$(readlink "$here" 2>/dev/null)" != /dev/null ]; then
        if ! [ -e "$root/lib/systemd/system/$unit" ] \
            && ! [ -e "$root/usr/lib/systemd/system/$unit" ] \
            && ! [ -e "$here" ] && ! [ -L "$here" ]; then
            echo "note: no $unit in this base (nothing to switch off)"
            return 0
        fi
        # Disabled while a unit file in /etc is still there: its [Install] is the one undone.
        "$@" disable "$unit" >>"$log" 2>&1 || echo "note: systemctl disable $unit failed" \
            "($(tail -n 1 "$log")); the links that would start it are removed here"
        what=""
        if [ -L "$here" ]; then
            what="a link to $(readlink "$here")"
        elif [ -f "$here" ] && [ -s "$here" ]; then
            what="a unit file put there by an earlier tool"
        elif [ -f "$here" ]; then
            what="an empty file"
        elif [ -e "$here" ]; then
            what="a $(stat -c %F "$here")"
        fi
        if [ -n "$what" ]; then
            rm -f -- "$here" 2>>"$log" || { echo "masking $unit failed: cannot remove" \
                "/etc/systemd/system/$unit ($what)" >&2; return 1; }
            echo "note: removed /etc/systemd/system/$unit ($what), which keeps it from" \
                "being masked"
        fi
    fi
    # Links that would still start it (left by hand, or pointing at the copy just removed).
    for link in "$etc"/*.wants/"$unit" "$etc"/*.requires/"$unit" "$etc"/*.upholds/"$unit"; do
        [ -L "$link" ] || [ -e "$link" ] || continue
        rm -f -- "$link" 2>>"$log" \
            || { echo "masking $unit failed: cannot remove ${link#"$root"}" >&2; return 1; }
        echo "note: removed ${link#"$root"}, which would start it"
    done
    "$@" mask "$unit" >>"$log" 2>&1 \
        || { echo "masking $unit failed: $(tail -n 1 "$log")" >&2; return 1; }
    [ "$(readlink "$here" 2>/dev/null)" = /dev/null ] || { echo "masking $unit failed:" \
        "/etc/systemd/system/$unit is not a link to /dev/null" >&2; return 1; }
}
