#!/usr/bin/env bash
# Sourced by build: the step that puts the game's compiled core into the image, on its own
# so that tests/test_build_image.py can run it on a copy of the app with stand-in compilers.

# core_for_image SRC LOG CC WHERE IN_IMAGE...: clans_pi/compiled/core.c of the app in SRC
# (the copy in the image that install-pi.sh installs from there) compiled for aarch64 on
# this machine with CC (Debian's cross compiler; on an arm64 machine its own gcc) into
# SRC/clans_pi/compiled/libclanscore-aarch64.so, where pip in the image installs it from
# with the package. Then checked as the game checks it, in the image: IN_IMAGE... runs a
# command there (build: in_image), where SRC is WHERE; the image's own Python loads the
# library with the image's C library, compares the core.c it was built from, and plays
# seeded games and searches on it and in Python, under emulation, which must agree
# (python -m clans_pi.bots.compiled_check: a fused multiply-add, say, would show there).
# install-pi.sh in the image then finds the library up to date
# (python -m clans_pi.compiled.build --if-needed): nothing compiles under emulation.
#
# An image ships the compiled core: a library that cannot be built, or that the image's
# Python cannot load (built against a newer C library than the image's), stops the build
# rather than giving a card whose computers think on the slower Python path.
#
# The compiler's output goes to LOG; on failure, one line to stderr and status 1.
core_for_image() {
    local src="$1" log="$2" cc="$3" where="$4" said
    shift 4
    # This machine's python3 (the builder needs only the standard library), run in SRC so
    # that it imports that copy's clans_pi (-E: whatever PYTHONPATH says); -B: no
    # __pycache__ left in the copy.
    if ! (cd "$src" && CC="$cc" python3 -E -B -m clans_pi.compiled.build --machine aarch64 \
        --out "$src/clans_pi/compiled/libclanscore-aarch64.so") >>"$log" 2>&1; then
        said="$(tail -n 1 "$log")"
        said="${said#clans-pi: }"
        echo "the compiled core could not be built for aarch64: ${said%; the computers *}" >&2
        return 1
    fi
    # shellcheck disable=SC2016  # expanded by the shell in the image
    said="$("$@" sh -c 'cd "$1" && exec python3 -E -B -m clans_pi.bots.compiled_check' \
        sh "$where" 2>>"$log")" || true
    echo "$said" >>"$log"
    said="$(tail -n 1 <<<"$said")"
    if [[ "$said" != "computer players: compiled core ("*"), the same games as the Python path" ]]
    then
        said="${said#computer players: }"
        echo "the image's Python does not play the compiled core built for it as the Python" \
            "path does: ${said:-no answer from python3 -m clans_pi.bots.compiled_check}" >&2
        return 1
    fi
}
