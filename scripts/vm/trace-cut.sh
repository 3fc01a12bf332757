#!/usr/bin/env bash
# trace-cut.sh TRACE FROM TO > OUT: TRACE's device and its events whose time (the recording's own,
# as written in TRACE) is within [FROM, TO]: whole frames, as a piece from the middle of a
# recording. Cut at proximity boundaries (FROM at a BTN_TOOL_* press, TO at a release) so that the
# piece starts and ends with the pen away. The desktop guest's eraser and barrel-button piece
# (scripts/vm/desktop.sh says which).
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 TRACE FROM TO" >&2; exit 2; }
awk -v from="$2" -v to="$3" '
    $1 != "E:" { if (!started) print; next }
    { started = 1 }
    $2 + 0 >= from + 0 && $2 + 0 <= to + 0 { print; n++ }
    END { if (!n) { print "trace-cut: no events of " FILENAME " within [" from ", " to "]" > "/dev/stderr"; exit 1 } }' "$1"
