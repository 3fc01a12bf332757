#!/usr/bin/env bash
# concat-traces.sh FIRST SECOND > OUT: one trace of FIRST's device, SECOND's events 0.5 s after
# FIRST's last. Both must describe the same device (their lines other than events are equal).
# The first trace's proximity warms up every reader (libinput forces a proximity-out after 50 ms
# without events until a device has shown a real one, so a first proximity depends on timing).
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 FIRST SECOND" >&2; exit 2; }
cmp -s <(grep -v '^E:' "$1") <(grep -v '^E:' "$2") || { echo "concat-traces: $1 and $2 describe different devices" >&2; exit 1; }
awk 'FNR == 1 { file++ }
     file == 1 { if ($1 == "E:") last = $2; print; next }
     $1 == "E:" { if (shift == "") shift = $2 - last - 0.5; printf "E: %.6f %s %s %s\n", $2 - shift, $3, $4, $5 }' "$1" "$2"
