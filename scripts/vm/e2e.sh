#!/usr/bin/env bash
# make e2e: traces through the real kernel in a VM (scripts/vm/e2e-guest.sh): each trace replayed
# via uinput, read by penkitd's live libinput input and by real `libinput record`; a keyboard
# device penkitd must not open. The round-trip test reads this run's recordings back through
# penkit's YAML reader; penkitd's messages stay in
# .build-vm/e2e/ (compared with `penkit replay --json`: not yet automated).
# E2E_TRACES="traces/a.evemu ..." chooses the traces.
set -euo pipefail
main() {
    cd "$(dirname "$0")/../.."
    local swift=${SWIFT:-swift}
    local flags=${E2E_BUILD_FLAGS:-}
    $swift build --product penkit $flags >&2
    $swift build --product penkitd $flags >&2
    # The guest runs copies, so rebuilding during a run cannot change the binaries under it.
    local bin=.build-vm/e2e-bin
    mkdir -p "$bin"
    cp "$($swift build --show-bin-path $flags)"/{penkit,penkitd} "$bin"/
    local out=$PWD/.build-vm/e2e
    rm -rf "$out" && mkdir -p "$out"
    local started status=0
    started=$(date +%s)
    local traces=${E2E_TRACES:-traces/wacom-intuos4-6x9-stylus-tap.evemu traces/wacom-intuos4-6x9-stylus-drag.evemu traces/genius-easypen-i405x.evemu}
    # shellcheck disable=SC2086
    scripts/vm/run.sh "$out" scripts/vm/e2e-guest.sh "$PWD/$bin" "$out" $traces || status=$?
    echo "e2e: VM run took $(( $(date +%s) - started )) s (boot included), exit $status" >&2
    [ $status -eq 0 ] || return $status
    # This run's recordings, not the committed ones (copy them to Tests/Fixtures/libinput-record/vm
    # by hand to refresh those).
    PENKIT_RECORDINGS_DIR=$out $swift test --disable-xctest $flags --filter LibinputRecordRoundTripTests
}
main "$@"; exit
