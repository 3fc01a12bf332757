#!/usr/bin/env bash
# make systemd-vm: penkit as users get it, in a guest that boots systemd as PID 1 on a Debian 12
# root filesystem with no Swift (scripts/vm/systemd-rootfs.sh, cached under .build-vm/). The guest
# installs the package that `make deb` built and checks, through real systemd, udev and logind
# (scripts/vm/systemd-guest.sh says what):
#   the system units: socket activation, strokes for a member of the penkit group, refusal of a
#   non-member, watchdog restart of a stopped penkitd, SIGHUP reload, journal priorities,
#   `systemd-analyze security` exposure, no non-tablet device held;
#   the user units for a user logged in at the seat, whom uaccess alone gives the tablet.
# The guest writes to a throw-away overlay of the cached image; results land in .build-vm/systemd/.
# SYSTEMD_VM_DEB=path uses that package instead of building one.
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$(date +%s)
VNG=$(scripts/vm/setup.sh)
command -v qemu-img >/dev/null || {
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends qemu-utils >/dev/null 2>&1 \
        || { echo "systemd-vm: apt-get install qemu-utils failed" >&2; exit 1; }
}
image=$(scripts/vm/systemd-rootfs.sh)
deb=${SYSTEMD_VM_DEB:-}
if [ -z "$deb" ]; then
    make --no-print-directory deb >&2
    deb=.build-deb/penkit_$(dpkg-parsechangelog -S Version)_amd64.deb
fi
[ -s "$deb" ] || { echo "systemd-vm: no package at $deb" >&2; exit 1; }
out=$PWD/.build-vm/systemd
rm -rf "$out" && mkdir -p "$out"
# The guest sees only its own disk and this folder: the package, the guest script and a trace.
cp "$deb" "$out/penkit.deb"
cp scripts/vm/systemd-guest.sh "$out/"
cp "${SYSTEMD_VM_TRACE:-traces/wacom-intuos4-6x9-stylus-drag.evemu}" "$out/trace.evemu"
qemu-img create -q -f qcow2 -b "$image" -F raw "$out/root.qcow2"
KVER=$(ls /lib/modules | sort -V | tail -1)
prepared=$(date +%s)
status=0
# As run.sh: pipes for QEMU's output; a higher priority when we may.
NICE=()
if [ "$(id -u)" -eq 0 ] && [ "${VM_NICE:--10}" != 0 ]; then NICE=(nice -n "${VM_NICE:--10}"); fi
PATH=$(dirname "$VNG"):$PATH "${NICE[@]}" "$VNG" --disable-kvm --memory "${VM_MEMORY:-1G}" --cpus "${VM_CPUS:-2}" \
    --root-disk "$out/root.qcow2" --root-fstype ext4 --rw --systemd --rwdir="$out" \
    --run "/boot/vmlinuz-$KVER" --exec "$out/systemd-guest.sh $out" \
    2> >(cat >&2) | cat || status=$?
rm -f "$out/root.qcow2"
# The guest's own verdict file: vng's exit code alone cannot tell a failed check from a lost guest.
verdict=$(cat "$out/verdict" 2>/dev/null || echo "no verdict (the guest did not finish)")
echo "systemd-vm: preparation $((prepared - started)) s (rootfs, package), VM $(( $(date +%s) - prepared )) s (boot included): $verdict"
[ "$status" -eq 0 ] && [ "$verdict" = "all checks passed" ] || { echo "systemd-vm: FAIL" >&2; exit 1; }
