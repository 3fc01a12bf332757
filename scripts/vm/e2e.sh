#!/usr/bin/env bash
# make e2e: every trace through the real kernel and real libinput in a VM, compared on the host
# with the Swift decoder.
#  1. host: `penkit replay TRACE --json` of each trace -> .build-vm/e2e/<trace>.expected.jsonl
#  2. VM (scripts/vm/e2e-guest.sh): each trace replayed via uinput, read by penkitd's live
#     libinput input (its client's messages -> <trace>.messages.jsonl) and by `libinput record`
#     (<trace>.yml); unplug mid-stroke and plug back; a keyboard penkitd must not open.
#  3. host: `penkit compare` of penkitd's finalized strokes (count, tool, cancelled, samples;
#     position, force, tilt, roll within 0.01) against
#       - the trace itself (`penkit replay TRACE --json`), and
#       - the guest's own `libinput record` of it (`penkit replay <trace>.yml --json`: the kernel
#         timestamps libinput really saw; there stroke-relative sample times must match too).
#     The plugged-back replay is compared with its trace too. Frames are counted, not compared
#     (penkitd may drop live frames for a slow client, and says so with `dropped`). Devices the decoder ignores must
#     not be added by penkitd, and traces without strokes must give no frames where the decoder
#     gives none (the pad).
#  4. host: the round-trip test reads this run's recordings back through penkit's YAML reader.
# The guest also checks penkitd's virtual tablet (issue 28) against `penkit bench virtual-tablet
# --events` of the tap trace then E2E_VIRTUAL_TRACE (default the drag trace; compared from its
# proximity on, .build-vm/e2e/virtual.evemu) with the pressure curve E2E_VIRTUAL_CURVE
# (default 0,0.25,0.75,1, the bench's), which its own `penkitd --virtual-tablet` is configured with;
# then SIGKILLs that penkitd mid-hover (.build-vm/e2e/virtual-kill.evemu, made here) and checks the
# next stroke reaches a libinput context on the hardware node (e2e-guest.sh, virtual_tablet).
# E2E_VIRTUAL_SPEED (default 0.25) is the pace of its replays (e2e-guest.sh says why); E2E_SKIP_VIRTUAL=1 skips it.
# Then a 4 ms lead and remapped barrel buttons through the kernel, on .build-vm/e2e/virtual-remap.evemu
# (the DTH-2242's first and third proximities, made here) at E2E_LEAD_SPEED (default 0.5;
# e2e-guest-lead-buttons.sh says why), against the bench's events for it without either.
# Both sides use the same smoothing: libinput and the decoder read the same quirks
# (/etc/libinput/local-overrides.quirks is the host's, seen read-only by the guest).
# E2E_TRACES="traces/a.evemu ..." chooses the traces (default: all of traces/); E2E_SPEED plays
# them at that multiple of their pace (default 1), penkit replay decoding them at the same speed;
# E2E_SKIP_PADS=1 skips the pad scenario (traces/pads/, checked in the guest against libinput debug-events);
# E2E_SKIP_PRESSURE=1 skips the late-pressure scenario (E2E_PRESSURE_TRACE fed by penkit pressure-feed 20±10 ms late).
# E2E_SKIP_RECORD=1 skips the flight recorder's report of the live run (recorded in the guest, `penkit replay --check` here).
# E2E_SKIP_UNPLUG=1 skips the unplug scenario (E2E_UNPLUG_TRACE, cut at E2E_UNPLUG_AT seconds). The guest runs release builds (E2E_BUILD_FLAGS):
# debug Swift under software emulation falls so far behind that the kernel drops events
# (SYN_DROPPED). They are the package's build (debian/rules: the Swift runtime linked statically),
# so that `make test`, which also builds the package for the systemd guest, compiles release once.
# Writes only under .build-vm/.
set -euo pipefail
main() {
    cd "$(dirname "$0")/../.."
    local swift=${SWIFT:-swift}
    local flags=${E2E_BUILD_FLAGS:--c release --static-swift-stdlib} test_flags=${E2E_TEST_FLAGS:-}
    local speed=${E2E_SPEED:-1}
    $swift build --product penkit $flags >&2
    $swift build --product penkitd $flags >&2
    # The guest runs copies, so rebuilding during a run cannot change the binaries under it.
    local bin=.build-vm/e2e-bin
    mkdir -p "$bin"
    cp "$($swift build --show-bin-path $flags)"/{penkit,penkitd} "$bin"/
    local penkit=$bin/penkit
    local out=$PWD/.build-vm/e2e
    rm -rf "$out" && mkdir -p "$out"
    local traces=${E2E_TRACES:-$(ls traces/*.evemu)}
    local trace name
    for trace in $traces; do
        name=$(basename "${trace%.*}")
        if "$penkit" replay "$trace" --json --speed "$speed" >"$out/$name.expected.jsonl" 2>"$out/$name.expected.err"; then
            echo usable >"$out/$name.decoder"
        else echo ignored >"$out/$name.decoder"; fi
    done
    local unplug_trace=${E2E_UNPLUG_TRACE:-traces/wacom-intuos4-6x9-stylus-drag.evemu}
    "$penkit" replay "$unplug_trace" --json --speed "$speed" >"$out/replug.expected.jsonl"
    # The unplug scenario's trace: its first E2E_UNPLUG_AT seconds (whole frames), which end with
    # the pen down; the guest waits until its client has every frame penkit replay finds in it.
    awk -v at="${E2E_UNPLUG_AT:-1.0}" '/^E:/ { if (!first) first = $2; if ($2 - first > at) exit } { print }' \
        "$unplug_trace" >"$out/unplug.evemu"
    "$penkit" replay "$out/unplug.evemu" --json --speed "$speed" >"$out/unplug.expected.jsonl"
    # The virtual tablet (issue 28): what the compositor's libinput should report for the virtual
    # tablet (the bench's path b, with the curve the guest's penkitd is given), and the kill
    # scenario's trace: the hover trace, then the drag trace from 0.5 s after the hover's end (one
    # device: their headers are the same), so that the stroke after the kill begins with a
    # proximity-in (e2e-guest.sh, virtual_tablet).
    # The compared trace is the tap trace, then E2E_VIRTUAL_TRACE (default the drag) 0.5 s after it,
    # as one device: libinput forces a proximity-out after 50 ms without events until a device has
    # shown a real one, so the first proximity of the virtual tablet depends on timing (a penkitd
    # or a stand-in descheduled for 50 ms); the guest compares from the second proximity on.
    local virtual_trace=${E2E_VIRTUAL_TRACE:-traces/wacom-intuos4-6x9-stylus-drag.evemu}
    local virtual_curve=${E2E_VIRTUAL_CURVE:-0,0.25,0.75,1}
    # concat_traces FIRST SECOND > OUT: one trace of FIRST's device, SECOND's events 0.5 s after FIRST's last.
    concat_traces() {
        cmp -s <(grep -v '^E:' "$1") <(grep -v '^E:' "$2") || { echo "e2e: FAIL: $1 and $2 describe different devices" >&2; return 1; }
        awk 'FNR == 1 { file++ }
             file == 1 { if ($1 == "E:") last = $2; print; next }
             $1 == "E:" { if (shift == "") shift = $2 - last - 0.5; printf "E: %.6f %s %s %s\n", $2 - shift, $3, $4, $5 }' "$1" "$2"
    }
    # proximities FILE N... > OUT: FILE's header, then its proximities number N... (from 1: from a
    # BTN_TOOL_PEN press to its release, whole frames, which share their time), each 0.5 s after
    # the one before.
    proximities() {
        local file=$1; shift
        awk -v keep=" $* " '
            FNR == NR { if ($1 == "E:" && $4 == "0140") { if ($5 + 0 == 1) inn[++n] = $2; else out[n] = $2 } next }
            $1 != "E:" { print; next }
            { for (k = 1; k <= n; k++) if (index(keep, " " k " ") && $2 >= inn[k] && $2 <= out[k]) {
                  if (k != current) { shift = (current ? inn[k] - last - 0.5 : 0); current = k }
                  printf "E: %.6f %s %s %s\n", $2 - shift, $3, $4, $5; last = $2 - shift; break } }
        ' "$file" "$file"
    }
    if [ -z "${E2E_SKIP_VIRTUAL:-}" ]; then
        concat_traces traces/wacom-intuos4-6x9-stylus-tap.evemu "$virtual_trace" >"$out/virtual.evemu" || return 1
        "$penkit" bench virtual-tablet --events --pressure-curve "$virtual_curve" "$out/virtual.evemu" >"$out/virtual.expected.jsonl"
        [ -s "$out/virtual.expected.jsonl" ] || { echo "e2e: FAIL: penkit bench virtual-tablet --events printed nothing for $out/virtual.evemu" >&2; return 1; }
        concat_traces traces/wacom-intuos4-6x9-stylus-hover.evemu traces/wacom-intuos4-6x9-stylus-drag.evemu >"$out/virtual-kill.evemu" || return 1
        # The lead and barrel-button scenario (e2e-guest-lead-buttons.sh): the DTH-2242's first
        # proximity, then its third (its barrel buttons in hover, then two touches), 0.5 s apart,
        # and the bench's events for it without a lead or remapping, which its strokes' ends must equal.
        proximities traces/wacom-dth2242-pen.evemu 1 3 >"$out/virtual-remap.evemu"
        "$penkit" bench virtual-tablet --events "$out/virtual-remap.evemu" >"$out/virtual-remap.expected.jsonl"
        [ -s "$out/virtual-remap.expected.jsonl" ] || { echo "e2e: FAIL: penkit bench virtual-tablet --events printed nothing for $out/virtual-remap.evemu" >&2; return 1; }
    fi
    {
        printf 'E2E_SKIP_VIRTUAL=%q\n' "${E2E_SKIP_VIRTUAL:-}"
        printf 'E2E_VIRTUAL_TRACE=%q\n' "$virtual_trace"
        printf 'E2E_VIRTUAL_CURVE=%q\n' "$virtual_curve"
        printf 'E2E_VIRTUAL_SPEED=%q\n' "${E2E_VIRTUAL_SPEED:-}"
        printf 'E2E_LEAD_SPEED=%q\n' "${E2E_LEAD_SPEED:-}"
        printf 'E2E_SKIP_UNPLUG=%q\n' "${E2E_SKIP_UNPLUG:-}"
        printf 'E2E_UNPLUG_TRACE=%q\n' "$unplug_trace"
        printf 'E2E_SKIP_PADS=%q\n' "${E2E_SKIP_PADS:-}"
        printf 'E2E_SKIP_RECORD=%q\n' "${E2E_SKIP_RECORD:-}"
        printf 'E2E_SKIP_PRESSURE=%q\n' "${E2E_SKIP_PRESSURE:-}"
        printf 'E2E_PRESSURE_TRACE=%q\n' "${E2E_PRESSURE_TRACE:-traces/wacom-intuos4-6x9-stylus-drag.evemu}"
    } >"$out/settings.sh"
    local started status=0
    started=$(date +%s)
    # shellcheck disable=SC2086
    scripts/vm/run.sh "$out" scripts/vm/e2e-guest.sh "$PWD/$bin" "$out" "$speed" $traces || status=$?
    echo "e2e: VM run took $(( $(date +%s) - started )) s (boot included), exit $status" >&2

    echo "e2e: penkitd's strokes compared with penkit replay (speed $speed; tolerance 0.01; tilt in degrees):"
    local failed=0 messages added frames_expected frames_live dropped
    for trace in $traces; do
        name=$(basename "${trace%.*}")
        messages=$out/$name.messages.jsonl
        if [ ! -s "$messages" ]; then echo "$name: FAIL: no messages from penkitd"; failed=1; continue; fi
        added=$(grep -c '"change":"added"' "$messages" || true)
        if [ "$(cat "$out/$name.decoder")" = ignored ]; then
            [ "$added" -eq 0 ] && echo "$name: ignored by the decoder and by penkitd: same" \
                || { echo "$name: FAIL: penkitd added a device the decoder ignores: $(cat "$out/$name.expected.err")"; failed=1; }
            continue
        fi
        [ "$added" -eq 1 ] || { echo "$name: FAIL: penkitd added $added devices, the decoder 1"; failed=1; }
        frames_expected=$(grep -c '"type":"frame"' "$out/$name.expected.jsonl" || true)
        frames_live=$(grep -c '"type":"frame"' "$messages" || true)
        if [ "$frames_expected" -eq 0 ] && [ "$frames_live" -ne 0 ]; then
            echo "$name: FAIL: $frames_live frames from penkitd, none from penkit replay"; failed=1
        fi
        "$penkit" compare "$messages" "$out/$name.expected.jsonl" --name "$name vs trace" || failed=1
        if [ -s "$out/$name.yml" ]; then
            "$penkit" replay "$out/$name.yml" --json >"$out/$name.recorded.jsonl" 2>"$out/$name.recorded.err" || true
            "$penkit" compare "$messages" "$out/$name.recorded.jsonl" --time-tolerance 0 \
                --name "$name vs guest recording" || failed=1
        else echo "$name: FAIL: no libinput record of it"; failed=1; fi
        dropped=$(sed -n 's/.*"type":"dropped","frames":\([0-9]*\).*/\1/p' "$messages" | awk '{n += $1} END {print n + 0}')
        echo "    frames: $frames_live from penkitd (and $dropped dropped for the slow client), $frames_expected from penkit replay"
    done
    if [ -s "$out/replug.messages.jsonl" ]; then
        "$penkit" compare "$out/replug.messages.jsonl" "$out/replug.expected.jsonl" --name "plugged back in ($(basename "$unplug_trace")) vs trace" || failed=1
    fi
    # The flight recorder's report of the live run (e2e-guest.sh): replayed here, it must give
    # what penkitd sent (docs/bug-reports.md says what --check allows and why).
    if [ -z "${E2E_SKIP_RECORD:-}" ]; then
        if [ -s "$out/flight-recorder.yaml" ]; then
            echo "e2e: the flight recorder's report of the live run, replayed on the host:"
            "$penkit" replay "$out/flight-recorder.yaml" --check | sed 's/^/    /'
            [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "e2e: FAIL: the flight recorder's report does not replay as penkitd sent it"; failed=1; }
        else echo "e2e: FAIL: no flight recorder report from the guest"; failed=1; fi
    fi
    local lost
    lost=$(grep -c "SYN_DROPPED" "$out/penkitd.log" 2>/dev/null || true)
    echo "e2e: penkitd's libinput lost events to a full kernel buffer ${lost:-0} times (SYN_DROPPED; strokes above say whether any stroke data was lost)"
    if [ $status -ne 0 ]; then
        echo "e2e: FAIL: the guest reported failures (exit $status):"
        sed 's/^/    /' "$out/failures.txt" 2>/dev/null || echo "    (the guest wrote no failures.txt: it stopped before its checks)"
        return $status
    fi
    [ $failed -eq 0 ] || { echo "e2e: FAIL: penkitd differs from penkit replay"; return 1; }
    # This run's recordings, not the committed ones (copy them to Tests/Fixtures/libinput-record/vm
    # by hand to refresh those).
    PENKIT_RECORDINGS_DIR=$out $swift test --disable-xctest $test_flags --filter LibinputRecordRoundTripTests
}
main "$@"; exit
