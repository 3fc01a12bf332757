#!/usr/bin/env bash
# Installs what booting the Debian kernel under QEMU needs: Debian packages (quiet and
# idempotent: nothing happens when all are present) and virtme-ng in a venv under
# .build-vm/ (Debian's pip refuses system-wide installs).
# Prints the path of `vng` on success; exits non-zero with a reason otherwise.
set -euo pipefail
cd "$(dirname "$0")/../.."
VM_DIR=${VM_DIR:-$PWD/.build-vm}
DEBS=(qemu-system-x86 linux-image-amd64 udev kmod busybox-static evemu-tools libinput-tools python3-venv)

missing=()
for p in "${DEBS[@]}"; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "vm setup: installing ${missing[*]}" >&2
    SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1 \
        || { echo "vm setup: apt-get install ${missing[*]} failed" >&2; exit 1; }
fi

VENV=$VM_DIR/venv
if [ ! -x "$VENV/bin/vng" ]; then
    echo "vm setup: installing virtme-ng into $VENV" >&2
    mkdir -p "$VM_DIR"
    python3 -m venv "$VENV" >&2
    "$VENV/bin/pip" install -q virtme-ng >&2 || { echo "vm setup: pip install virtme-ng failed" >&2; exit 1; }
fi
ls /boot/vmlinuz-* >/dev/null 2>&1 || { echo "vm setup: no kernel in /boot" >&2; exit 1; }
echo "$VENV/bin/vng"
