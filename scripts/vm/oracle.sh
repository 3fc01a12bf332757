#!/usr/bin/env bash
# make oracle: regenerates Tests/Fixtures/libinput/ by replaying every trace in traces/
# through uinput into real libinput 1.22, inside the Debian kernel booted under QEMU.
set -euo pipefail
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
$SWIFT build --product penkit ${BUILD_FLAGS:-} >&2
BIN=$($SWIFT build --show-bin-path ${BUILD_FLAGS:-})/penkit
OUT=$PWD/.build-vm/oracle
DEST=Tests/Fixtures/libinput
rm -rf "$OUT" && mkdir -p "$OUT" "$DEST"
started=$(date +%s)
status=0
scripts/vm/run.sh "$OUT" scripts/vm/oracle-guest.sh "$BIN" "$OUT" traces/*.evemu || status=$?
echo "oracle: VM run took $(( $(date +%s) - started )) s (boot included), exit $status" >&2
shopt -s nullglob
files=("$OUT"/*.jsonl "$OUT"/*.log)
if ((${#files[@]})); then
    cp "${files[@]}" "$DEST"/
    cp "$OUT/summary.tsv" "$DEST/SUMMARY.tsv"
    echo "oracle: wrote ${#files[@]} files to $DEST" >&2
fi
exit $status
