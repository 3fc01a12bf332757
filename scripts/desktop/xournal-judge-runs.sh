#!/usr/bin/env bash
# The host's judge of each Xournal++ run of the desktop guest (scripts/vm/desktop-guest-xournal.sh
# lists them in OUT/xournal-played.txt): scripts/desktop/xournal-results.py on the file saved after
# the eraser and the one saved after Ctrl+Z, against the expected events of XOURNAL_TRACE's path.
#     xournal-judge-runs.sh OUT PENKIT CURVE
# Writes OUT/xournalpp-SERVER-PATH.result (the row) and .result.err; appends each failure to
# OUT/failures.txt; exits 1 when a run failed or none was played though XOURNAL_SERVERS names one.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=$1 penkit=$2 curve=$3 status=0
server= path= size= name= expected=
. "$out/settings.sh"
wanted=
for server in ${XOURNAL_SERVERS-}; do case " ${DESKTOP_SERVERS:-sway xorg} " in *" $server "*) wanted=$server ;; esac; done
if [ -n "$wanted" ] && [ -n "${XOURNAL_PATHS-virtual}" ] && [ ! -s "$out/xournal-played.txt" ]; then
    echo "desktop: FAIL: xournalpp: no run was saved (the guest's failures say why)" >>"$out/failures.txt"
    exit 1
fi
while read -r server path size; do
    name=xournalpp-$server-$path
    expected=$out/xournal.virtual.expected.jsonl; [ "$path" = direct ] && expected=$out/xournal.direct.expected.jsonl
    python3 scripts/desktop/xournal-results.py --xopp "$out/$name.erased.xopp" --before-eraser "$out/$name.xopp" \
        --expected "$expected" --trace "$out/xournal.evemu" --output-size "$size" --server "$server" --path "$path" \
        --penkit "$penkit" --curve "$curve" >"$out/$name.result" 2>"$out/$name.result.err" \
        || { echo "desktop: FAIL: $name: $(cat "$out/$name.result.err")" >>"$out/failures.txt"; status=1; }
done < <(cat "$out/xournal-played.txt" 2>/dev/null)
exit $status
