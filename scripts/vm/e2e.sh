#!/usr/bin/env bash
# make e2e: traces through the real kernel in a VM. Today: each trace replayed via uinput and
# recorded by real `libinput record`; the recordings become Tests/Fixtures/libinput-record/vm/
# and the round-trip test reads them back through penkit's YAML reader.
# E2E_TRACES="traces/a.evemu ..." chooses the traces.
set -euo pipefail
main() {
    cd "$(dirname "$0")/../.."
    local swift=${SWIFT:-swift}
    local flags=${E2E_BUILD_FLAGS:-}
    $swift build --product penkit $flags >&2
    mkdir -p .build-vm/bin
    cp "$($swift build --show-bin-path $flags)/penkit" .build-vm/bin/penkit-e2e
    local out=$PWD/.build-vm/e2e dest=Tests/Fixtures/libinput-record/vm
    rm -rf "$out" && mkdir -p "$out" "$dest"
    local started status=0
    started=$(date +%s)
    local traces=${E2E_TRACES:-traces/wacom-intuos4-6x9-stylus-tap.evemu traces/wacom-intuos4-6x9-stylus-drag.evemu traces/genius-easypen-i405x.evemu}
    # shellcheck disable=SC2086
    scripts/vm/run.sh "$out" scripts/vm/e2e-guest.sh "$PWD/.build-vm/bin/penkit-e2e" "$out" $traces || status=$?
    echo "e2e: VM run took $(( $(date +%s) - started )) s (boot included), exit $status" >&2
    shopt -s nullglob
    local yml=("$out"/*.yml)
    ((${#yml[@]})) && cp "${yml[@]}" "$dest"/
    [ $status -eq 0 ] || return $status
    $swift test --disable-xctest $flags --filter LibinputRecordRoundTripTests
}
main "$@"; exit
