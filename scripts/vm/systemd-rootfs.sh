#!/usr/bin/env bash
# Builds (once) the Debian 12 root filesystem that the systemd guest boots (scripts/vm/systemd.sh):
# mmdebstrap from the Debian package source apt uses on this machine, with systemd as init and
# no Swift, written as an ext4 image. Cached under .build-vm/: it is rebuilt only when this
# script changes (its hash is the cache key). Prints the image's path.
set -euo pipefail
cd "$(dirname "$0")/../.."
VM_DIR=${VM_DIR:-$PWD/.build-vm}
# What a Debian 12 machine with a desktop session has, minus the desktop: systemd as PID 1, udev,
# logind with a system bus (seats, sessions, uaccess ACLs), getty/login for a logged-in user, and
# the libraries penkit's package depends on. acl and procps let the guest script check ACLs and
# processes.
PACKAGES=systemd,systemd-sysv,udev,dbus,libpam-systemd,login,passwd,kmod,acl,procps,libinput10,libevdev2,libudev1,libwacom-common,libwacom9
KEY=$(cat "$0" | sha256sum | cut -c1-16)
IMAGE=$VM_DIR/systemd-rootfs-$KEY.img
if [ -s "$IMAGE" ]; then echo "$IMAGE"; exit 0; fi

command -v mmdebstrap >/dev/null || {
    echo "systemd rootfs: installing mmdebstrap" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap e2fsprogs >/dev/null 2>&1 \
        || { echo "systemd rootfs: apt-get install mmdebstrap failed" >&2; exit 1; }
}
mkdir -p "$VM_DIR"
rm -f "$VM_DIR"/systemd-rootfs-*.img
tree=$VM_DIR/systemd-rootfs.tree
rm -rf "$tree"
# The host's own apt sources (and its snapshot-friendly validity settings), so the guest gets the
# same package versions the host has.
sources=()
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -s "$f" ] && sources+=("$f")
done
started=$(date +%s)
echo "systemd rootfs: mmdebstrap bookworm (${#sources[@]} apt source files of this host)" >&2
mmdebstrap --quiet --variant=minbase --include="$PACKAGES" \
    --aptopt='Acquire::Check-Valid-Until "false"' --aptopt='Acquire::Check-Date "false"' \
    --customize-hook='echo penkit-guest >"$1/etc/hostname"' \
    --customize-hook='echo "127.0.1.1 penkit-guest" >>"$1/etc/hosts"' \
    --customize-hook='rm -f "$1"/etc/machine-id && : >"$1"/etc/machine-id' \
    bookworm "$tree" "${sources[@]}" >&2
# A sparse 2 GiB ext4 image; the guest writes to a throw-away qcow2 overlay of it.
mkfs.ext4 -q -F -L penkit-root -d "$tree" "$IMAGE.tmp" 2G >&2
rm -rf "$tree"
mv "$IMAGE.tmp" "$IMAGE"
echo "systemd rootfs: built in $(( $(date +%s) - started )) s: $IMAGE ($(du -h "$IMAGE" | cut -f1) used)" >&2
echo "$IMAGE"
