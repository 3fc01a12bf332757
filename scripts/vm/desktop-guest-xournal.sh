# Sourced by desktop-guest.sh: Xournal++ (Debian 12's 1.1, GTK 3) in the guest (issue 42), on the
# display servers in XOURNAL_SERVERS (default xorg) and the paths in XOURNAL_PATHS (default
# virtual). It plays XOURNAL_TRACE (scripts/vm/desktop.sh: a hover warm-up, an Intuos Pro's pen
# circle, then its eraser end circling over it) as play_path plays the drag, into a running
# Xournal++ (scripts/desktop/xournal-session.sh: a fresh config, the pen tool, a blank page of the
# output's size, zoom 100 %). Then, with its own shortcuts: Ctrl+S (what the eraser left) copied to
# OUT/xournalpp-SERVER-PATH.erased.xopp, Ctrl+Z (the erasing undone), Ctrl+S again (the ink before
# the eraser: OUT/xournalpp-SERVER-PATH.xopp), Ctrl+Q. The display server queues a key after the
# pen's events it has read, so each save comes after the strokes. The host judges both files
# (scripts/desktop/xournal-judge-runs.sh, scripts/desktop/xournal-results.py).
# On Xorg Xournal++ runs with xf86-input-wacom (DESKTOP_XORG_DRIVERS): GTK 3 makes a device whose
# name has "eraser" a GDK_SOURCE_ERASER, which Xournal++ takes as its eraser, and one with "pen" or
# "wacom" a GDK_SOURCE_PEN (with its pressure); the wacom driver names its devices "NAME stylus"
# and "NAME eraser". With Xorg's libinput driver the virtual tablet's eraser drew ink: that driver
# names a tool's device "NAME Eraser (0xSERIAL)" cut at 63 characters, and penkit's virtual tablet
# of an Intuos Pro M became "penkit virtual tablet: Wacom Co.,Ltd. Wacom Intuos Pro M Pen Er" (fixed since),
# a pen to GTK 3 (docs/virtual-tablet.md).

# run_xournal SERVER: Xournal++ on SERVER, each path in turn; a failure is reported with its reason.
run_xournal() {
    local server=$1 path name st session
    case " ${XOURNAL_SERVERS-} " in *" $server "*) ;; *) return 0 ;; esac
    [ -n "${XOURNAL_TRACE:-}" ] || { fail "xournalpp: no XOURNAL_TRACE in settings.sh"; return 1; }
    session=scripts/desktop/xournal-session.sh
    for path in ${XOURNAL_PATHS-virtual}; do
        name=xournalpp-$server-$path st=$RUN/xournal-$path
        # Xournal++ keeps no event log: play_path's wait for the app is then its log's quiet time.
        : >"$OUT/$name.applog"
        if ! XOURNAL_WAIT_SECONDS=$BOUND $session start "$st" "$OUT/$name.xopp" "$OUTPUT_SIZE" >"$OUT/$name.session.txt" 2>&1; then
            fail "$name: Xournal++ did not start: $(tail -3 "$OUT/$name.session.txt" | tr '\n' ' ')"
            $session quit "$st" >/dev/null 2>&1
            continue
        fi
        say "$name: $(grep '^xournal-ready' "$OUT/$name.session.txt")"
        TRACE=$XOURNAL_TRACE DEVICE_NAME=$(sed -n 's/^N: //p' "$XOURNAL_TRACE" | head -1) PLAY_SUFFIX=-play \
            play_path xournalpp "$server" "$path" "$OUT/$name.applog"
        if XOURNAL_WAIT_SECONDS=$BOUND $session save "$st" "$OUT/$name.erased.xopp" >>"$OUT/$name.session.txt" 2>&1 \
            && $session key "$st" ctrl+z >>"$OUT/$name.session.txt" 2>&1 \
            && XOURNAL_WAIT_SECONDS=$BOUND $session save "$st" >>"$OUT/$name.session.txt" 2>&1; then
            say "$name: saved: $(grep '^xournal-saved' "$OUT/$name.session.txt" | tr '\n' ' ')"
            echo "$server $path $OUTPUT_SIZE" >>"$OUT/xournal-played.txt"
        else
            fail "$name: the saves: $(tail -3 "$OUT/$name.session.txt" | tr '\n' ' ')"
        fi
        $session quit "$st" >>"$OUT/$name.session.txt" 2>&1 || fail "$name: quit: $(tail -1 "$OUT/$name.session.txt")"
    done
}
