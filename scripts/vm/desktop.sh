#!/usr/bin/env bash
# make desktop: real display servers and real apps get penkit's pen in a VM (issue 42).
#  1. host: release builds of penkit and penkitd (the e2e guest's, so `make test` compiles them
#     once); the played trace (DESKTOP_TRACE_WARM_UP, then DESKTOP_TRACE 0.5 s after it, as one
#     device: the first proximity warms every reader up and is not judged); what the display
#     server's libinput should report for it on each path (`penkit bench virtual-tablet --events`:
#     path b, the virtual tablet with the curve DESKTOP_CURVE; path a, the tablet read directly).
#  2. VM (scripts/vm/desktop-guest.sh): the display servers and apps, the trace played through
#     uinput on both paths; one `desktop-result {json}` line per app, server and path.
# Fails with the reason when a display server or app cannot run: nothing is skipped silently.
# Writes only under .build-vm/.
set -euo pipefail
main() {
    cd "$(dirname "$0")/../.."
    local swift=${SWIFT:-swift}
    local flags=${E2E_BUILD_FLAGS:--c release --static-swift-stdlib}
    local missing=() p
    for p in sway seatd xserver-xorg-core xserver-xorg-video-dummy xserver-xorg-input-libinput xinput chromium python3-gi python3-gi-cairo gir1.2-gtk-4.0; do
        dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || missing+=("$p")
    done
    ((${#missing[@]} == 0)) || { echo "desktop: FAIL: not installed: ${missing[*]} (make desktop installs them)" >&2; return 1; }
    local bin=.build-vm/desktop-bin
    # DESKTOP_SKIP_BUILD=1: the binaries a previous run copied (a run while another build holds .build).
    if [ -z "${DESKTOP_SKIP_BUILD:-}" ] || [ ! -x "$bin/penkitd" ]; then
        $swift build --product penkit $flags >&2
        $swift build --product penkitd $flags >&2
        mkdir -p "$bin"
        cp "$($swift build --show-bin-path $flags)"/{penkit,penkitd} "$bin"/
    fi
    local out=$PWD/.build-vm/desktop
    rm -rf "$out" && mkdir -p "$out"
    local warm=${DESKTOP_TRACE_WARM_UP:-traces/wacom-intuos4-6x9-stylus-tap.evemu}
    local trace=${DESKTOP_TRACE:-traces/wacom-intuos4-6x9-stylus-drag.evemu}
    local curve=${DESKTOP_CURVE:-0,0.25,0.75,1}
    scripts/vm/concat-traces.sh "$warm" "$trace" >"$out/played.evemu"
    "$bin/penkit" bench virtual-tablet --events --events-of virtual --pressure-curve "$curve" "$out/played.evemu" >"$out/virtual.expected.jsonl"
    "$bin/penkit" bench virtual-tablet --events --events-of libinput --pressure-curve "$curve" "$out/played.evemu" >"$out/direct.expected.jsonl"
    # The judge itself first, on the host: a known map through real libinput events must come back.
    python3 scripts/desktop/content-pairing-check.py "$bin/penkit" "$out/played.evemu" "$out/virtual.expected.jsonl"
    {
        printf 'TRACE=%q\n' "$out/played.evemu"
        printf 'DESKTOP_CURVE=%q\n' "$curve"
        printf 'SPEED=%q\n' "${DESKTOP_SPEED:-0.25}"
        printf 'DESKTOP_SERVERS=%q\n' "${DESKTOP_SERVERS:-sway xorg}"
        printf 'DESKTOP_APPS=%q\n' "${DESKTOP_APPS:-chromium gtk}"
    } >"$out/settings.sh"
    local started status=0
    started=$(date +%s)
    VM_MEMORY=${VM_MEMORY:-2G} scripts/vm/run.sh "$out" scripts/vm/desktop-guest.sh "$PWD/$bin" "$out" || status=$?
    echo "desktop: VM run took $(( $(date +%s) - started )) s (boot included), exit $status" >&2
    # Each app log the guest wrote, judged here (the judge's dynamic programming is slow under emulation).
    local app server path size applog name
    while read -r app server path size applog; do
        name=$app-$server-$path
        python3 scripts/desktop/desktop-results.py --app "$app" --server "$server" --path "$path" \
            --log "$out/$name.log" --clock "$applog" --trace "$out/played.evemu" --expected "$out/virtual.expected.jsonl" \
            --direct-expected "$out/direct.expected.jsonl" --speed "${DESKTOP_SPEED:-0.25}" \
            --output-size "$size" --penkit "$bin/penkit" --curve "$curve" >"$out/$name.result" 2>"$out/$name.result.err" \
            || { echo "desktop: FAIL: $name: $(cat "$out/$name.result.err")" >>"$out/failures.txt"; status=1; }
    done < <(cat "$out/played.txt" 2>/dev/null)
    echo "desktop: what each app got (docs/virtual-tablet.md explains the columns):"
    grep -h '^desktop-result ' "$out"/*.result 2>/dev/null || echo "    (no rows)"
    if [ $status -ne 0 ]; then
        echo "desktop: FAIL: the guest or the judge reported failures (exit $status):"
        sed 's/^/    /' "$out/failures.txt" 2>/dev/null || echo "    (the guest wrote no failures.txt: it stopped before its checks)"
        return $status
    fi
    echo "desktop: PASS: every app ran, and every row holds its checks"
}
main "$@"; exit
