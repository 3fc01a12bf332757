#!/usr/bin/env bash
# Boots the newest Debian kernel in /boot under QEMU (software emulation: /dev/kvm here is
# not usable) with the host's files visible read-only, and runs one guest command.
# Usage: scripts/vm/run.sh OUT_DIR COMMAND...
#   OUT_DIR is writable inside the guest; COMMAND runs as root in the guest, from the repo root.
# Exits with the guest command's exit code.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 2 ] || { echo "usage: $0 OUT_DIR COMMAND..." >&2; exit 2; }
OUT=$(realpath -m "$1"); shift
mkdir -p "$OUT"
VNG=$(scripts/vm/setup.sh)
KVER=$(ls /lib/modules | sort -V | tail -1)
KERNEL=/boot/vmlinuz-$KVER
[ -r "$KERNEL" ] || { echo "vm: kernel $KERNEL not found" >&2; exit 1; }
# The command as one shell-quoted string, run from this directory inside the guest.
printf -v CMD '%q ' "$@"
# Replays run in real time inside a software-emulated guest: on a busy host the vCPU
# threads get descheduled for tens of ms, which changes libinput's 50 ms proximity timeout
# decisions. Give QEMU a higher priority when we may (root); VM_NICE=0 turns this off.
NICE=()
if [ "$(id -u)" -eq 0 ] && [ "${VM_NICE:--10}" != 0 ]; then NICE=(nice -n "${VM_NICE:--10}"); fi
# QEMU opens the guest's stdout/stderr as /proc/self/fd/1 and 2 and truncates them when they are
# files, which would erase whatever a caller (make test > log) had written before: hand it pipes.
PATH=$(dirname "$VNG"):$PATH "${NICE[@]}" "$VNG" --disable-kvm --memory "${VM_MEMORY:-1G}" --cpus "${VM_CPUS:-2}" \
    --rwdir="$OUT" --run "$KERNEL" --exec "cd $(printf %q "$PWD") && $CMD" \
    2> >(cat >&2) | cat
