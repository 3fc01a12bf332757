#!/usr/bin/env bash
# Runs inside the VM (see scripts/vm/oracle.sh): replays traces through uinput into real
# libinput and writes the fixtures to OUT_DIR.  Usage: oracle-guest.sh PENKIT OUT_DIR TRACE...
set -euo pipefail
PENKIT=$1 OUT=$2; shift 2
modprobe uinput
pgrep -x systemd-udevd >/dev/null || { echo "oracle: systemd-udevd is not running in the guest; libinput would reject every device" >&2; exit 1; }
echo "guest: kernel $(uname -r), up $(cut -d' ' -f1 /proc/uptime) s, libinput $(pkg-config --modversion libinput 2>/dev/null || echo '?')"
# The summary table goes to the console and into OUT; exit with penkit's status.
"$PENKIT" oracle --nosmooth --out "$OUT" "$@" | tee "$OUT/summary.tsv"
exit "${PIPESTATUS[0]}"
