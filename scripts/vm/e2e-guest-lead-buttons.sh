# Sourced by e2e-guest.sh; virtual_lead_and_buttons runs after virtual_tablet, whose helpers it
# uses (vt_socket_up, id_of, vnode_of, grabs_of, li_ready, tool_events; QUIRKS and VT_LOG).
#
# A lead and remapped barrel buttons, through the kernel (issue 43, items 3 and 4): a third
# `penkitd --virtual-tablet`, with `virtual-tablet-lead-ms = 4` in its file (a restart setting)
# and, set through its socket as `penkit settings set` sets them, [tool pen] button-1 = right and
# button-2 = eraser. OUT_DIR/virtual-remap.evemu (e2e.sh: the DTH-2242's first proximity, then its
# third, which holds BTN_STYLUS2 once and BTN_STYLUS twice in hover, then two touches) plays
# through uinput as the hardware tablet; the stand-in compositor (a libinput context on the
# virtual node, as in virtual_tablet) must report, checked in order and value, never timing:
#   (e) the barrel buttons as the trace presses them, remapped: each BTN_STYLUS press and release
#       of the third proximity as BTN_RIGHT (273) pressed and released, each BTN_STYLUS2 press as
#       the pen leaving and the eraser coming in, its release as the eraser leaving and the pen
#       back; and no BTN_STYLUS or BTN_STYLUS2 at all;
#   (f) the lead: for each of the third proximity's touches (counted in the trace), the stroke ends
#       exactly as the bench writes it without a lead (OUT_DIR/virtual-remap.expected.jsonl, the
#       host's `penkit bench virtual-tablet --events`, itself checked against the kernel by (a)):
#       the same last position in contact and the same tip-up position, so no predicted tail; and
#       in contact the pen is ahead of the run without a lead, along the pen's motion. The first
#       proximity only absorbs libinput's forced proximity-outs of a new device (virtual_tablet
#       says why) and is not compared.
virtual_lead_and_buttons() {
    local dir=$OUT/virtual-lead sock=/run/penkit-e2e-virtual-lead.sock name=virtual-lead
    # At E2E_LEAD_SPEED (default 0.5) of the recorded pace, not virtual_tablet's 0.25: penkit's
    # predictor starts afresh after 20 ms without a report (Chromium's reset), and the DTH-2242's
    # 5 ms reports a quarter as fast are 20 ms apart, so no lead would show. At 0.5 they are 10 ms
    # apart (its longest gap in the compared proximity, 8 ms, 16 ms).
    local SOCK=$sock LSPEED=${E2E_LEAD_SPEED:-0.5}
    declare -F li_ready >/dev/null || { fail "lead: not run: virtual_tablet stopped before it defined its helpers"; return; }
    mkdir -p "$dir"
    printf 'client-live-buffer-bytes = 16777216\nvirtual-tablet-lead-ms = 4\n' >"$dir/penkitd.conf"
    VT_LOG=$dir/penkitd.log
    "$BIN/penkitd" --virtual-tablet --config "$dir/penkitd.conf" --socket "$sock" --state-dir "$dir/state" --log-level info >"$VT_LOG" 2>&1 &
    VT_DAEMON=$!
    await vt_socket_up
    kill -0 $VT_DAEMON 2>/dev/null || { fail "lead: penkitd --virtual-tablet exited: $(tail -5 "$VT_LOG")"; return; }
    # Each set is applied by a reload: the next waits for it.
    local key value reloads
    reloaded_since() { [ "$(count "configuration reloaded" "$VT_LOG")" -gt "$reloads" ] || ! kill -0 $VT_DAEMON 2>/dev/null; }
    for key in button-1=right button-2=eraser; do
        value=${key#*=} key=${key%%=*} reloads=$(count "configuration reloaded" "$VT_LOG")
        if "$BIN/penkit" settings set "$key" "$value" --tool pen --socket "$sock" >>"$dir/settings.txt" 2>&1; then
            await reloaded_since
        else fail "lead: penkit settings set $key $value --tool pen: $(cat "$dir/settings.txt")"; kill $VT_DAEMON; wait $VT_DAEMON; return
        fi
    done
    echo "e2e: lead: virtual-tablet-lead-ms = 4 in the file; [tool pen] button-1 = right, button-2 = eraser set through penkitd's socket: $(tr '\n' ' ' <"$dir/settings.txt")"

    local VT_READER= vfile=$dir/$name.virtual.jsonl expected=$OUT/virtual-remap.expected.jsonl
    lead_ready() {
        HW_ID=$(id_of "$NODE"); [ -n "$HW_ID" ] || return 1
        VNODE=$(vnode_of "$HW_ID"); [ -n "$VNODE" ] || return 1
        [ "$(grabs_of "$HW_ID")" -ge 1 ] || return 1
        li_ready "$vfile" "$VNODE" VT_READER
    }
    EXTRA_READY=lead_ready
    start "$OUT/virtual-remap.evemu" "$name" "$LSPEED"; local started=$?
    EXTRA_READY=
    if [ $started -ne 0 ]; then kill $CLIENT $REPLAY $VT_READER $VT_DAEMON 2>/dev/null; return; fi
    wait_for "^uinput: played" 1 "$OUT/$name.replay.txt" 900 || fail "lead: the replay did not finish: $(cat "$OUT/$name.replay.txt")"
    # The stand-in has read everything once it has at least the bench's events without a lead or
    # remapping (the eraser's proximities and the lead's lift reports only add to them) and the
    # pen's last proximity-out; removing the tablet before would discard what it had not read.
    all_read() { lines_at_least "$(tool_events "$expected")" "$vfile" && tail -1 "$vfile" | grep -q '"type":"proximity".*"state":"out"'; }
    wait_until all_read -- "$vfile" 120 || echo "e2e: lead: the stand-in read $(tool_events "$vfile") events (the bench without a lead: $(tool_events "$expected")) before the tablet went (compared below)"
    touch "$OUT/$name.end"
    wait $REPLAY || fail "lead: replay: $(cat "$OUT/$name.replay.txt")"
    finish_client "$name"
    lead_vremoved() { grep -q "^removed " "$vfile.err"; }
    wait_until lead_vremoved -- "$vfile" 120 || fail "lead: the stand-in never saw the virtual tablet $VNODE go with its tablet"
    kill $VT_READER 2>/dev/null; wait $VT_READER 2>/dev/null
    kill -TERM $VT_DAEMON; wait $VT_DAEMON

    if python3 - "$OUT/virtual-remap.evemu" "$expected" "$vfile" >"$dir/check.txt" <<'PY'
import json, math, sys
trace, want_path, got_path = sys.argv[1:4]
events = lambda path: [json.loads(l) for l in open(path) if l.startswith('{"type":')]
want, got = events(want_path), events(got_path)
failed = []
# From the trace: the last proximity's barrel buttons, as button-1 = right and button-2 = eraser make them, and its touches.
lines = [l.split() for l in open(trace) if l.startswith("E: ")]
last_in = max(i for i, l in enumerate(lines) if l[3] == "0140" and int(l[4]) == 1)
marks_want, touches = [], 0
for l in lines[last_in:]:
    if l[2] != "0001": continue
    code, value = int(l[3], 16), int(l[4])
    if code == 0x14b: marks_want.append("BTN_RIGHT " + ("pressed" if value else "released"))
    elif code == 0x14c: marks_want.append("eraser in" if value else "pen back")
    elif code == 0x14a and value: touches += 1
# At the stand-in: buttons by code, the eraser's proximity-ins and the pen's after them.
names = {273: "BTN_RIGHT", 272: "BTN_LEFT", 274: "BTN_MIDDLE", 331: "BTN_STYLUS", 332: "BTN_STYLUS2"}
marks_got, tool = [], None
for e in got:
    if e["type"] == "button": marks_got.append("%s %s" % (names.get(e["button"], e["button"]), e["state"]))
    elif e["type"] == "proximity" and e["state"] == "in":
        if e["tool"]["type"] == "eraser": marks_got.append("eraser in")
        elif tool == "eraser": marks_got.append("pen back")
        tool = e["tool"]["type"]
if marks_got != marks_want or not marks_want:
    failed.append("(e) buttons: the trace makes %s, the stand-in got %s" % (marks_want, marks_got))
# Strokes: contact positions from the tip-down on, and the tip-up's position.
def strokes(evs):
    out, cur = [], None
    for e in evs:
        if e["type"] == "tip" and e["tip"] == "down": cur = [(e["x"], e["y"])]
        elif e["type"] == "tip" and cur is not None: out.append((cur, (e["x"], e["y"]))); cur = None
        elif e["type"] == "proximity" and e["state"] == "out": cur = None
        elif cur is not None and e["tip"] == "down": cur.append((e["x"], e["y"]))
    return out
ws, gs = strokes(want)[-touches:], strokes(got)[-touches:]
if touches == 0 or len(ws) != touches or len(gs) != touches:
    failed.append("(f) strokes: the trace's last proximity touches %d times; the bench has %d strokes, the stand-in %d" % (touches, len(strokes(want)), len(strokes(got))))
ahead, along, compared = 0, 0.0, 0
for n, ((wc, wl), (gc, gl)) in enumerate(zip(ws, gs)):
    if gl != wl or gc[-1] != wc[-1]:
        failed.append("(f) stroke %d ends at %s, lifts at %s; without a lead %s, %s" % (n, gc[-1], gl, wc[-1], wl))
    # In contact, report by report (the lead's own lift report, last, aside): how far ahead along the motion.
    for i in range(1, min(len(wc), len(gc)) - 1):
        d = (gc[i][0] - wc[i][0], gc[i][1] - wc[i][1])
        m = (wc[i + 1][0] - wc[i - 1][0], wc[i + 1][1] - wc[i - 1][1])
        compared += 1
        if math.hypot(*d) > 0.01: ahead += 1
        if math.hypot(*m) > 0: along += (d[0] * m[0] + d[1] * m[1]) / math.hypot(*m)
if compared == 0 or ahead * 4 < compared or along <= 0:
    failed.append("(f) ahead: %d of %d contact reports more than 0.01 mm from the run without a lead, %.3f mm along the motion in all" % (ahead, compared, along))
for f in failed: print(f)
if failed: sys.exit(1)
print("(e) %s; (f) %d strokes end and lift exactly as without a lead (last contact %s), %d of %d contact reports ahead by more than 0.01 mm, %.4f mm along the motion on average"
      % (", ".join(marks_got), touches, ", ".join("(%.3f, %.3f)" % s[0][-1] for s in gs), ahead, compared, along / compared))
PY
    then echo "e2e: lead: the stand-in compositor on $VNODE: $(cat "$dir/check.txt"): ok"
    else fail "lead: the stand-in compositor on $VNODE: $(head -c 1500 "$dir/check.txt")"
    fi
}
