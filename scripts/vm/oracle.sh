#!/usr/bin/env bash
# make oracle: regenerates Tests/Fixtures/libinput/ by replaying every trace in traces/
# through uinput into real libinput 1.22, inside the Debian kernel booted under QEMU.
# TRACES="traces/a.evemu ..." limits the run to some traces.
set -euo pipefail
main() {
    cd "$(dirname "$0")/../.."
    local swift=${SWIFT:-swift}
    # Release: the guest is emulated, and a slow reader loses events or serves timers late.
    local flags=${ORACLE_BUILD_FLAGS:--c release}
    $swift build --product penkit $flags >&2
    # The guest runs a copy, so rebuilding during a run cannot change the binary under it.
    mkdir -p .build-vm/bin
    cp "$($swift build --show-bin-path $flags)/penkit" .build-vm/bin/penkit
    local bin=$PWD/.build-vm/bin/penkit out=$PWD/.build-vm/oracle dest=Tests/Fixtures/libinput
    rm -rf "$out" && mkdir -p "$out" "$dest"
    local started status=0
    started=$(date +%s)
    # shellcheck disable=SC2086
    scripts/vm/run.sh "$out" scripts/vm/oracle-guest.sh "$bin" "$out" ${TRACES:-traces/*.evemu} || status=$?
    echo "oracle: VM run took $(( $(date +%s) - started )) s (boot included), exit $status" >&2
    shopt -s nullglob
    local files=("$out"/*.jsonl "$out"/*.log)
    if ((${#files[@]})); then
        cp "${files[@]}" "$dest"/
        # Keep the summary rows of traces not run this time.
        if [ -f "$dest/SUMMARY.tsv" ] && [ -n "${TRACES:-}" ]; then
            local name
            for name in $(tail -n +2 "$out/summary.tsv" | cut -f1); do sed -i "/^$name\t/d" "$dest/SUMMARY.tsv"; done
            tail -n +2 "$out/summary.tsv" >> "$dest/SUMMARY.tsv"
        else
            cp "$out/summary.tsv" "$dest/SUMMARY.tsv"
        fi
        echo "oracle: wrote ${#files[@]} files to $dest" >&2
    fi
    return $status
}
# Parsed whole before it runs: editing this file during a run cannot change the run.
main "$@"; exit
