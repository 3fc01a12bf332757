#!/usr/bin/env bash
# trace-head.sh TRACE SECONDS > OUT: TRACE's device, its events of the first SECONDS, then its
# last frame (the proximity-out) 8 ms after the last one kept: a short proximity that ends as the
# recording ended. The desktop guest's warm-up (scripts/vm/desktop.sh says why a hover one).
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 TRACE SECONDS" >&2; exit 2; }
awk -v span="$2" '
    $1 != "E:" { if (!started) print; next }
    { started = 1; if (first == "") first = $2
      if ($2 - first < span) { print; kept = $2; next }
      if ($2 != lastTime) { n = 0; lastTime = $2 }
      tail[++n] = $0 }
    END {
      if (kept == "" || n == 0) { print "trace-head: nothing to cut (" span " s of " FILENAME ")" > "/dev/stderr"; exit 1 }
      for (i = 1; i <= n; i++) { split(tail[i], f, " "); printf "E: %.6f %s %s %s\n", kept + 0.008, f[3], f[4], f[5] }
    }' "$1"
