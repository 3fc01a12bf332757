# Sourced by desktop-guest.sh: the eraser end and the barrel buttons (issue 42), a second played
# trace for each app on each path in TOOLS_PATHS (scripts/vm/desktop.sh cuts it: a pen tap that
# warms the readers up, the eraser end's tap, two pen taps, and a proximity with BTN_STYLUS2 then
# BTN_STYLUS pressed and released in hover before a tap). It plays as play_path plays the drag, as a device of its own (the Cintiq
# 22HDT's), into OUT/APP-SERVER-PATH-tools.log, judged on the host by scripts/desktop/tool_buttons.py
# (the row's `eraser` and `buttons`).

# play_tools APP SERVER PATH: the tools trace on PATH for APP's log.
play_tools() {
    [ -n "${TOOLS_TRACE:-}" ] || return 0
    case " ${TOOLS_PATHS-virtual direct} " in *" $3 "*) ;; *) return 0 ;; esac
    # (Assignments before a function call hold for that call only.)
    TRACE=$TOOLS_TRACE DEVICE_NAME=$(sed -n 's/^N: //p' "$TOOLS_TRACE" | head -1) PLAY_SUFFIX=-tools UP_PATTERN=tools_up_pattern \
        play_path "$1" "$2" "$3" "$OUT/$1-$2.log"
}
# What an app's log says once a barrel button is down (the app is done with the trace when the pen
# leaves after it: only the last proximity has barrel buttons).
tools_up_pattern() { case $1 in chromium) echo '"kind":"pen".*"b":[246],' ;; gtk) echo '"signal": "down".*"button": [23]' ;; esac; }
