#!/usr/bin/env bash
# Sourced by build: the step that switches off Raspberry Pi OS's first-boot user wizard, on
# its own so that tests/test_build_image.py can run it on bases laid out in a directory.

# wizard_off ROOT UNIT LOG SYSTEMCTL...: UNIT disabled and masked in the system under ROOT.
# SYSTEMCTL... runs that system's systemctl (build: in_image systemctl; a test: systemctl
# --root=ROOT). systemctl's own output goes to LOG; what is worth saying, to stdout
# ("note: ..."); on failure, one line to stderr and status 1.
wizard_off() {
    local root="$1" unit="$2" log="$3"
    shift 3
    if [ -e "$root/lib/systemd/system/$unit" ] || [ -e "$root/usr/lib/systemd/system/$unit" ] \
        || [ -e "$root/etc/systemd/system/$unit" ]; then
        "$@" disable "$unit" >>"$log" 2>&1 \
            || { echo "disabling $unit failed: $(tail -n 1 "$log")" >&2; return 1; }
        "$@" mask "$unit" >>"$log" 2>&1 \
            || { echo "masking $unit failed: $(tail -n 1 "$log")" >&2; return 1; }
    else
        echo "note: no $unit in this base (nothing to switch off)"
    fi
}
