#!/usr/bin/env bash
# Runs as root inside the systemd guest (scripts/vm/systemd.sh). Usage: systemd-guest.sh OUT_DIR
# OUT_DIR holds penkit.deb and trace.evemu; results go there (OUT_DIR/verdict says whether every
# check passed). Checks, in order:
#   1. systemd is PID 1 and nothing of Swift is installed; the package installs (dpkg -i), its
#      scripts create the penkit group, udev applies its rule;
#   2. system units: penkit.socket enabled and listening, penkit.service not running; a client in
#      the penkit group (found through discovery: no $PENKIT_SOCKET, no user service) starts it by
#      connecting and receives the strokes of a trace played through uinput; a client outside the
#      group is refused; a keyboard is never opened; `penkit doctor --json`, run by the client's
#      user with a tablet and the keyboard attached, names the tablet read, the keyboard not a
#      tablet and the virtual tablet (issue 31); `systemd-analyze security` <= 1.0; SIGHUP
#      (systemctl reload) re-reads the config in the same process; the journal has penkitd's
#      lines at their priorities; the watchdog restarts a SIGSTOPped penkitd; with
#      `virtual-tablet = on` (issue 28) the service makes a virtual tablet for the played tablet
#      and grabs it, with /dev/uinput given to group penkit-uinput (the service's user alone),
#      allowed by the unit, and the exposure still reported;
#   3. user units: a user logged in at the seat (an autologin getty on tty2), not in the penkit
#      group, whose tablet access comes from uaccess alone, starts penkitd through
#      `systemctl --user` socket activation and receives the strokes;
#   4. purge (issue 28): the quirk and the uinput rule go, /dev/uinput is root's alone again, no
#      penkitd runs, and a tablet played afterwards reaches a libinput context directly (a copy of
#      penkit kept from the package plays and reads it).
# Every wait is on a condition with a generous bound that only ends a broken run.
set -uo pipefail
main() {
OUT=$1
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
failures=0
fail() { echo "systemd-guest: FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "systemd-guest: ok: $*"; }
# The node a `penkit replay --uinput` log names: its first line only. Once a reader opens the
# node (here logind opens keyboards), the log names it again, "opened by a reader".
node_in() { sed -n 's/^uinput: \(\/dev\/input\/event[0-9]*\) ".*/\1/p' "$1" | head -n 1; }
count() { local n; n=$(grep -c -- "$1" "$2" 2>/dev/null); echo "${n:-0}"; }
# wait_until SECONDS COMMAND...: polls COMMAND every 0.2 s until it succeeds or SECONDS pass.
wait_until() {
    local limit=$((SECONDS + $1)); shift
    until "$@"; do [ $SECONDS -ge $limit ] && return 1; sleep 0.2; done
}

# --- 1. the guest and the package ---
# virtme-ng's init binds a generated file over /etc/shadow (for its own logins): take it away so
# that the package's user and the test users are created in the guest's real files.
while mountpoint -q /etc/shadow; do umount /etc/shadow || break; done
for f in /etc/passwd /etc/group /etc/gshadow; do mountpoint -q "$f" && umount "$f"; done
# It also mounts fresh file systems over parts of /var, where journald may keep its files: keep
# the journal in /run instead, so journalctl reads what journald writes.
findmnt -rn -o TARGET,FSTYPE >"$OUT/mounts.txt"
mkdir -p /etc/systemd/journald.conf.d
printf '[Journal]\nStorage=volatile\n' >/etc/systemd/journald.conf.d/penkit-guest.conf
systemctl restart systemd-journald
[ "$(cat /proc/1/comm)" = systemd ] && ok "PID 1 is systemd ($(systemctl --version | head -1))" || fail "PID 1 is $(cat /proc/1/comm)"
booted() { case $(systemctl is-system-running 2>/dev/null) in running|degraded) return 0;; *) return 1;; esac; }
wait_until 600 booted
echo "systemd-guest: system state $(systemctl is-system-running), up $(cut -d' ' -f1 /proc/uptime) s"
if ls /usr/lib/swift /usr/share/swift >/dev/null 2>&1 || find / -xdev -name 'libswiftCore.so*' 2>/dev/null | grep -q .; then
    fail "the guest has a Swift runtime installed"
else ok "no Swift runtime in the guest"; fi
if dpkg -i "$OUT/penkit.deb" >"$OUT/dpkg.log" 2>&1; then ok "dpkg -i penkit.deb ($(dpkg-query -W -f='${Version}' penkit))"
else fail "dpkg -i: $(tail -5 "$OUT/dpkg.log")"; finish; return; fi
if ldd /usr/bin/penkitd | grep -qi swift; then fail "penkitd links Swift libraries: $(ldd /usr/bin/penkitd | grep -i swift)"
else ok "penkitd needs no Swift library ($(ldd /usr/bin/penkitd | wc -l) shared objects, all from Debian)"; fi
[ "$(/usr/bin/penkitd --version)" = "$(dpkg-query -W -f='${Version}' penkit)" ] && ok "penkitd --version $(/usr/bin/penkitd --version) = the package's" \
    || fail "penkitd --version $(/usr/bin/penkitd --version), package $(dpkg-query -W -f='${Version}' penkit)"
getent group penkit >/dev/null && ok "the package created group penkit" || fail "no penkit group after install"
useradd --create-home --groups penkit alice && useradd --create-home mallory && useradd --create-home carol
getent group penkit-admin >/dev/null && ok "the package created group penkit-admin (who may change settings)" || fail "no penkit-admin group after install"
useradd --create-home --groups penkit,penkit-admin erin
modprobe uinput
# The virtual tablet's packaging (issue 28): /dev/uinput belongs to group penkit-uinput, whose only
# member is the service's user (not group penkit, whose members are the socket's clients: uinput
# would let them inject keystrokes); the unit allows it to the service alone; the package ships
# the virtual tablet's libinput quirk where libinput reads quirks.
udevadm settle --timeout=120
members=$(getent group penkit-uinput | cut -d: -f4)
[ "$members" = penkit ] && ok "group penkit-uinput's only member: $members" || fail "group penkit-uinput: '$(getent group penkit-uinput)'"
[ "$(stat -c '%U:%G %a' /dev/uinput 2>/dev/null)" = "root:penkit-uinput 660" ] && ok "/dev/uinput root:penkit-uinput 0660 (udev rule)" \
    || fail "/dev/uinput: $(stat -c '%U:%G %a' /dev/uinput 2>&1)"
if runuser -u alice -- sh -c ': </dev/uinput' 2>/dev/null; then fail "alice (group penkit, a socket client) can open /dev/uinput"
else ok "alice (group penkit) cannot open /dev/uinput"; fi
systemctl show -P DeviceAllow penkit.service | grep -q '/dev/uinput rw' && ok "penkit.service: DeviceAllow $(systemctl show -P DeviceAllow penkit.service | tr "\n" " ")" \
    || fail "penkit.service DeviceAllow: $(systemctl show -P DeviceAllow penkit.service | tr "\n" " ")"
[ -s /usr/share/libinput/70-penkit-virtual-tablet.quirks ] && ok "the virtual tablet's quirk: $(dpkg -S /usr/share/libinput/70-penkit-virtual-tablet.quirks)" \
    || fail "no /usr/share/libinput/70-penkit-virtual-tablet.quirks"
[ -s /usr/share/X11/xorg.conf.d/75-penkit-virtual-tablet.conf ] && ok "the virtual tablet's xf86-input-wacom options: $(dpkg -S /usr/share/X11/xorg.conf.d/75-penkit-virtual-tablet.conf)" \
    || fail "no /usr/share/X11/xorg.conf.d/75-penkit-virtual-tablet.conf"
# The system service runs with the virtual tablet on.
printf '\n# e2e guest: the virtual tablet\nvirtual-tablet = on\n' >>/etc/penkit/penkitd.conf

# --- 2. the system units ---
systemctl enable --now penkit.socket >"$OUT/enable.log" 2>&1 || fail "systemctl enable --now penkit.socket: $(cat "$OUT/enable.log")"
[ "$(stat -c '%U:%G %a' /run/penkit/penkit.sock 2>/dev/null)" = "root:penkit 660" ] && ok "socket /run/penkit/penkit.sock root:penkit 0660" \
    || fail "socket: $(stat -c '%U:%G %a' /run/penkit/penkit.sock 2>&1)"
systemctl is-active --quiet penkit.service && fail "penkit.service runs before any client connected" \
    || ok "penkit.service inactive until a client connects"

# A trace through uinput, started once the client has seen the tablet; NODE is its event node.
play() {   # play NAME CLIENT_LOG
    local name=$1 log=$2
    # The device comes after the client's hello: a client that connected later would find the
    # tablet in the hello's devices, never as the device "added" waited for below.
    wait_until 300 grep -q '"type":"hello"' "$log" || { fail "$name: the client got no hello"; return 1; }
    rm -f "$OUT/$name.go" "$OUT/$name.end"
    PENKIT_UINPUT_START_FILE=$OUT/$name.go PENKIT_UINPUT_END_FILE=$OUT/$name.end \
        penkit replay "$OUT/trace.evemu" --uinput >"$OUT/$name.replay.txt" 2>&1 &
    REPLAY=$!
    wait_until 120 grep -q '^uinput: /dev/input/event' "$OUT/$name.replay.txt" || { fail "$name: no uinput device: $(cat "$OUT/$name.replay.txt")"; return 1; }
    NODE=$(node_in "$OUT/$name.replay.txt")
    wait_until 300 grep -q "\"change\":\"added\".*\"source\":\"$NODE\"" "$log" || {
        fail "$name: the client never saw $NODE added; penkitd: $(journalctl -u penkit.service -o cat --no-pager | tail -3 | tr '\n' ' ')"
        kill $REPLAY 2>/dev/null; return 1; }
    # The node's owner, mode and ACL while the reader has it (the device goes when the replay ends).
    { stat -c 'owner %U:%G mode %a' "$NODE"; getfacl -p "$NODE" 2>/dev/null; } >"$OUT/$name.acl"
    [ -z "${PLAY_HOOK:-}" ] || "$PLAY_HOOK"
    touch "$OUT/$name.go"
    wait_until 600 grep -q '^uinput: played' "$OUT/$name.replay.txt" || fail "$name: the replay did not finish"
    wait_until 120 grep -q '"type":"stroke"' "$log" || fail "$name: no finalized stroke reached the client"
    touch "$OUT/$name.end"; wait $REPLAY
}

# alice is in the penkit group; with no $PENKIT_SOCKET and no user service, discovery finds the system socket.
runuser -u alice -- env -u XDG_RUNTIME_DIR penkit events --json >"$OUT/alice.jsonl" 2>"$OUT/alice.err" &
ALICE=$!
wait_until 300 systemctl is-active --quiet penkit.service && ok "the first connection started penkit.service (socket activation)" \
    || fail "penkit.service did not start on connection: $(systemctl status penkit.service --no-pager 2>&1 | tail -5)"
wait_until 300 grep -q '"type":"hello"' "$OUT/alice.jsonl" || fail "alice got no hello: $(cat "$OUT/alice.err")"
grep -q "\"serverVersion\":\"$(dpkg-query -W -f='${Version}' penkit)\"" "$OUT/alice.jsonl" && ok "hello reports serverVersion $(dpkg-query -W -f='${Version}' penkit)" \
    || fail "hello: $(head -1 "$OUT/alice.jsonl")"
MAIN=$(systemctl show -P MainPID penkit.service)
echo "systemd-guest: penkitd runs as $(ps -o user=,group= -p "$MAIN") (pid $MAIN)"
if play system "$OUT/alice.jsonl"; then
    strokes=$(count '"type":"stroke"' "$OUT/alice.jsonl")
    ok "alice (group penkit) received $strokes stroke(s) and $(count '"type":"frame"' "$OUT/alice.jsonl") frames from the system service ($NODE $(head -1 "$OUT/system.acl"))"
fi
# The service made a virtual tablet for the uinput "hardware" tablet and grabbed it (the journal
# keeps its lines after the tablet has gone).
journalctl -u penkit.service -o cat --no-pager >"$OUT/virtual.journal.txt" 2>&1
trace_name=$(sed -n 's/^N: //p' "$OUT/trace.evemu" | head -1)
created=$(grep "virtual tablet created" "$OUT/virtual.journal.txt" | grep -F "name=penkit virtual tablet: " | grep -F "real=$trace_name" | tail -1)
if [ -n "$created" ] && grep -q "tablet grabbed" "$OUT/virtual.journal.txt"; then
    ok "the service made the virtual tablet: $created; $(grep 'tablet grabbed' "$OUT/virtual.journal.txt" | tail -1)"
else fail "no virtual tablet for $trace_name: $(grep -iE 'virtual|grab|uinput' "$OUT/virtual.journal.txt" | tail -4 | tr '\n' ' ')"
fi
kill $ALICE 2>/dev/null; wait $ALICE 2>/dev/null

# mallory is not in the group: the socket refuses her, and the CLI says so in one line (not a usage error).
runuser -u mallory -- env -u XDG_RUNTIME_DIR penkit devices >"$OUT/mallory.out" 2>"$OUT/mallory.err"; code=$?
if [ $code -ne 0 ] && [ $code -ne 64 ] && grep -q "permission denied" "$OUT/mallory.err" && [ "$(wc -l <"$OUT/mallory.err")" -eq 1 ]; then
    ok "mallory (not in group penkit) refused, exit $code: $(cat "$OUT/mallory.err")"
else fail "mallory: exit $code, $(cat "$OUT/mallory.out" "$OUT/mallory.err")"; fi

# A keyboard: penkitd must never open it, and udev must not give it to the penkit group.
printf '%s\n' '# EVEMU 1.3' 'N: penkit guest keyboard' 'I: 0003 1234 5678 0001' 'P: 00 00 00 00 00 00 00 00' \
    'B: 00 03 00 00 00 00 00 00 00' 'B: 01 fe ff ff ff 00 00 00 00' 'E: 0.000000 0001 001e 1' 'E: 0.000000 0000 0000 0' \
    'E: 0.050000 0001 001e 0' 'E: 0.050000 0000 0000 0' >"$OUT/keyboard.evemu"
# logind opens keyboards, and a replay plays once a reader opens its node and then removes the
# device: a start file that is never created keeps the device until the replay is killed.
rm -f "$OUT/keyboard.never"
PENKIT_UINPUT_START_FILE=$OUT/keyboard.never penkit replay "$OUT/keyboard.evemu" --uinput >"$OUT/keyboard.replay.txt" 2>&1 &
KBD=$!
wait_until 120 grep -q '^uinput: /dev/input/event' "$OUT/keyboard.replay.txt" || fail "keyboard: no uinput device: $(cat "$OUT/keyboard.replay.txt")"
kbd=$(node_in "$OUT/keyboard.replay.txt")
wait_until 120 test -c "$kbd" || fail "keyboard: $kbd never appeared"
udevadm settle --timeout=120
# penkitd has had the keyboard's udev event by now if it were going to act on it: its own tablet
# check answers within the same event, and this waits for udev to finish the device's rules first.
wait_until 30 sh -c "udevadm info -q property -n $kbd | grep -q ID_INPUT_KEY"
MAIN=$(systemctl show -P MainPID penkit.service)
held=$(ls -l /proc/"$MAIN"/fd 2>/dev/null | sed -n 's|.* -> \(/dev/input/.*\)|\1|p' | sort -u)
nontablet=
for node in $held; do
    udevadm info -q property -n "$node" | grep -qx 'ID_INPUT_TABLET=1' || nontablet="$nontablet $node"
done
if [ -n "$nontablet" ]; then fail "penkitd holds non-tablet nodes:$nontablet"
elif [ -z "$kbd" ] || [ ! -c "$kbd" ]; then fail "keyboard: no device to check (${kbd:-no node}): $(tr '\n' ' ' <"$OUT/keyboard.replay.txt")"
else ok "penkitd (pid $MAIN) holds only tablets (${held:-none open now}), not the keyboard $kbd ($(stat -c 'group %G, mode %a' "$kbd"); $(udevadm info -q property -n "$kbd" | grep -E '^ID_INPUT_(KEYBOARD|TABLET)=' | tr '\n' ' '))"
fi
[ "$(stat -c %G "$kbd" 2>/dev/null)" != penkit ] || fail "the keyboard $kbd belongs to group penkit"

# penkit doctor under the system service (issue 31), as alice (group penkit), with a tablet and
# the keyboard attached: its --json names the tablet as read, the keyboard as not a tablet, and
# the virtual tablet apps get (which penkitd makes once it has the tablet: asked until it says so).
doctor_json() { runuser -u alice -- env -u XDG_RUNTIME_DIR penkit doctor --json >"$OUT/doctor.json" 2>"$OUT/doctor.err"; }
doctor_names_virtual() { doctor_json; grep -qF '"message":"apps get penkit'"'"'s pen through ' "$OUT/doctor.json"; }
doctor_check() {
    wait_until 60 doctor_names_virtual && ok "doctor (alice): $(grep -o '"message":"apps get penkit[^"]*"' "$OUT/doctor.json")" \
        || fail "doctor: no virtual tablet named: $(head -c 2000 "$OUT/doctor.json") $(cat "$OUT/doctor.err")"
    if grep -qF "\"message\":\"penkitd reads the tablet $NODE " "$OUT/doctor.json"; then ok "doctor (alice): names $NODE as a tablet penkitd reads"
    else fail "doctor: $NODE not named as read: $(head -c 2000 "$OUT/doctor.json") $(cat "$OUT/doctor.err")"; fi
    if grep -F "\"message\":\"$kbd " "$OUT/doctor.json" | grep -qF "is a keyboard, not a tablet"; then ok "doctor (alice): names the keyboard $kbd as not a tablet"
    else fail "doctor: the keyboard $kbd not named as not a tablet: $(head -c 2000 "$OUT/doctor.json")"; fi
    grep -qF '"origin":"config file /etc/penkit/penkitd.conf:' "$OUT/doctor.json" && ok "doctor (alice): settings with their origin in /etc/penkit/penkitd.conf" \
        || fail "doctor: no setting from /etc/penkit/penkitd.conf: $(head -c 2000 "$OUT/doctor.json")"
}
runuser -u alice -- env -u XDG_RUNTIME_DIR penkit events --json >"$OUT/alice-doctor.jsonl" 2>"$OUT/alice-doctor.err" &
ALICE=$!
PLAY_HOOK=doctor_check play doctor "$OUT/alice-doctor.jsonl" || true
kill $ALICE 2>/dev/null; wait $ALICE 2>/dev/null
kill $KBD 2>/dev/null; wait $KBD 2>/dev/null

# systemd's own exposure score of the running unit.
systemd-analyze security penkit.service --no-pager >"$OUT/security.txt" 2>&1
score=$(sed -n 's/.*Overall exposure level for penkit.service: \([0-9.]*\).*/\1/p' "$OUT/security.txt")
if [ -n "$score" ] && awk -v s="$score" 'BEGIN { exit !(s <= 1.0) }'; then ok "systemd-analyze security penkit.service: $score"
else fail "exposure ${score:-unknown}: $(tail -3 "$OUT/security.txt")"; fi

# SIGHUP: `systemctl reload` re-reads the config in the same process.
before=$(systemctl show -P MainPID penkit.service)
sed -i 's/^#log-level = info/log-level = debug/' /etc/penkit/penkitd.conf
if systemctl reload penkit.service && wait_until 120 sh -c "journalctl -u penkit.service -o cat | grep -qi 'reload'"; then
    [ "$(systemctl show -P MainPID penkit.service)" = "$before" ] && ok "systemctl reload: $(journalctl -u penkit.service -o cat | grep -i reload | tail -1) (same pid $before)" \
        || fail "reload changed the pid"
else fail "reload: $(journalctl -u penkit.service -o cat --no-pager | tail -3)"; fi

# The journal stores penkitd's lines with their priorities (sd-daemon <N> prefixes), not all at 6:
# the reload's notice must be PRIORITY 5, and no line may keep a literal <N>.
journalctl -u penkit.service -o json --no-pager _PID="$before" >"$OUT/journal.json" 2>/dev/null
priorities=$(sed -n 's/.*"PRIORITY":"\([0-9]\)".*/\1/p' "$OUT/journal.json" | sort | uniq -c | tr -s ' \n' ' ')
if grep 'configuration reloaded' "$OUT/journal.json" | grep -q '"PRIORITY":"5"' && ! grep -q '"MESSAGE":"<[0-7]>' "$OUT/journal.json"; then
    ok "journal: the reload notice at PRIORITY 5; penkitd's lines by priority (count priority): $priorities"
else fail "journal priorities: $priorities; $(grep 'reloaded' "$OUT/journal.json" | head -c 600)"; fi

# The watchdog: a stopped penkitd misses its keep-alive and systemd restarts it.
kill -STOP "$before"
if wait_until 300 sh -c "p=\$(systemctl show -P MainPID penkit.service); [ -n \"\$p\" ] && [ \"\$p\" != 0 ] && [ \"\$p\" != $before ] && systemctl is-active --quiet penkit.service"; then
    ok "watchdog: SIGSTOPped pid $before replaced by $(systemctl show -P MainPID penkit.service) ($(journalctl -u penkit.service -o cat | grep -i watchdog | tail -1))"
else fail "watchdog: $(systemctl status penkit.service --no-pager 2>&1 | tail -5)"; fi
runuser -u alice -- env -u XDG_RUNTIME_DIR penkit devices >"$OUT/alice-after.txt" 2>&1 && ok "clients connect again after the restart" \
    || fail "after the restart: $(cat "$OUT/alice-after.txt")"

# Settings over the socket (penkit settings): refused to alice (group penkit only), saved by erin
# (penkit-admin) in the hardened unit's state directory, applied by a reload, kept over a restart.
# (The JSON escapes the path's slashes: the origin is matched up to them.)
runuser -u alice -- env -u XDG_RUNTIME_DIR penkit settings set action-double-press-ms 400 >"$OUT/settings-alice.txt" 2>&1; code=$?
[ "$code" = 77 ] && grep -q settings_refused "$OUT/settings-alice.txt" && ok "alice may not change settings (exit 77): $(cat "$OUT/settings-alice.txt")" \
    || fail "alice's settings change: exit $code, $(cat "$OUT/settings-alice.txt")"
settings_origin() { runuser -u alice -- env -u XDG_RUNTIME_DIR penkit settings get action-double-press-ms --json 2>&1; }
if runuser -u erin -- env -u XDG_RUNTIME_DIR penkit settings set action-double-press-ms 400 >"$OUT/settings-erin.txt" 2>&1 \
    && wait_until 60 sh -c "runuser -u alice -- env -u XDG_RUNTIME_DIR penkit settings get action-double-press-ms --json | grep -q '\"origin\":\"override .*settings.conf:'"; then
    ok "erin (penkit-admin) changed a setting: $(cat "$OUT/settings-erin.txt"); alice reads $(settings_origin)"
else fail "erin's settings change: $(cat "$OUT/settings-erin.txt"); get: $(settings_origin); $(journalctl -u penkit.service -o cat --no-pager | grep -i settings | tail -2)"; fi
systemctl restart penkit.service
settings_origin | grep -q '"value":"400"' && ok "the change survives a restart of penkit.service: $(settings_origin)" \
    || fail "after a restart: $(settings_origin)"
systemctl disable --now penkit.socket penkit.service >/dev/null 2>&1

# --- 3. the user units, for a user logged in at the seat ---
cat >/etc/systemd/system/penkit-guest-login.service <<'UNIT'
[Unit]
Description=carol logged in on tty2 (penkit guest test)
[Service]
ExecStart=-/sbin/agetty --autologin carol --noclear tty2 linux
Type=idle
UNIT
systemctl daemon-reload
systemctl start penkit-guest-login.service
uid=$(id -u carol)
wait_until 300 sh -c "loginctl show-user carol -p State 2>/dev/null | grep -q ." || fail "carol has no login session: $(loginctl list-sessions --no-pager)"
session=$(loginctl list-sessions --no-legend --no-pager | awk '$3 == "carol" { print $1; exit }')
loginctl activate "$session" 2>/dev/null
wait_until 120 sh -c "loginctl show-session $session -p Active --value | grep -qx yes" && ok "carol's session $session is active on seat0 ($(loginctl show-session "$session" -p TTY --value))" \
    || fail "session $session not active: $(loginctl show-session "$session" --no-pager 2>&1 | tr '\n' ' ')"
wait_until 120 test -S "/run/user/$uid/systemd/private" || fail "carol's user manager did not start"
as_carol() { runuser -u carol -- env XDG_RUNTIME_DIR="/run/user/$uid" DBUS_SESSION_BUS_ADDRESS="unix:path=/run/user/$uid/bus" "$@"; }
as_carol systemctl --user enable --now penkit.socket >"$OUT/user-enable.log" 2>&1 || fail "systemctl --user enable --now penkit.socket: $(cat "$OUT/user-enable.log")"
# discovery: the user's socket comes before the system one (which is off now anyway)
as_carol penkit events --json >"$OUT/carol.jsonl" 2>"$OUT/carol.err" &
CAROL=$!
wait_until 300 sh -c "runuser -u carol -- env XDG_RUNTIME_DIR=/run/user/$uid systemctl --user is-active --quiet penkit.service" \
    && ok "carol's first connection started her penkit.service (user socket activation)" \
    || { fail "user penkit.service did not start: $(cat "$OUT/carol.err") $(journalctl -b --no-pager _UID="$uid" | grep -i penkit | tail -4 | tr '\n' ' ')"; finish; return; }
wait_until 300 grep -q '"type":"hello"' "$OUT/carol.jsonl" || fail "carol got no hello: $(cat "$OUT/carol.err")"
if play user "$OUT/carol.jsonl"; then
    ok "carol (not in group penkit) received $(count '"type":"stroke"' "$OUT/carol.jsonl") stroke(s) from her user service"
    if grep -q '^user:carol:rw' "$OUT/user.acl"; then ok "uaccess gave carol the tablet: $NODE $(head -1 "$OUT/user.acl"), ACL $(grep '^user:carol' "$OUT/user.acl")"
    else fail "no uaccess ACL for carol on $NODE: $(tr '\n' ' ' <"$OUT/user.acl")"; fi
fi
kill $CAROL 2>/dev/null; wait $CAROL 2>/dev/null
as_carol systemd-analyze --user security penkit.service --no-pager >"$OUT/user-security.txt" 2>&1
echo "systemd-guest: user unit exposure: $(grep 'Overall exposure' "$OUT/user-security.txt")"
as_carol systemctl --user disable --now penkit.socket penkit.service >/dev/null 2>&1

# --- 4. purge: the tablet works as before (issue 28) ---
# A copy of penkit outlives the package, to play a tablet and read it with libinput afterwards.
cp /usr/bin/penkit "$OUT/penkit-kept"
if dpkg --purge penkit >"$OUT/purge.log" 2>&1; then ok "dpkg --purge penkit"; else fail "dpkg --purge: $(tail -3 "$OUT/purge.log")"; fi
udevadm settle --timeout=120
if [ ! -e /usr/share/libinput/70-penkit-virtual-tablet.quirks ] && [ ! -e /usr/lib/udev/rules.d/70-penkit-uinput.rules ] \
    && [ ! -e /usr/share/X11/xorg.conf.d/75-penkit-virtual-tablet.conf ]; then
    ok "purge removed the virtual tablet's quirk, its Xorg options and the uinput rule"
else fail "after purge: $(ls /usr/share/libinput/70-penkit-* /usr/share/X11/xorg.conf.d/75-penkit-* /usr/lib/udev/rules.d/70-penkit-* 2>&1 | tr '\n' ' ')"; fi
[ "$(stat -c '%U:%G %a' /dev/uinput)" = "root:root 600" ] && ok "/dev/uinput back to root:root 0600" || fail "/dev/uinput after purge: $(stat -c '%U:%G %a' /dev/uinput)"
pgrep -x penkitd >/dev/null && fail "a penkitd still runs after purge: $(pgrep -a penkitd)" || ok "no penkitd runs after purge"
rm -f "$OUT/after.go" "$OUT/after.end"
PENKIT_UINPUT_START_FILE=$OUT/after.go PENKIT_UINPUT_END_FILE=$OUT/after.end \
    "$OUT/penkit-kept" replay "$OUT/trace.evemu" --uinput >"$OUT/after.replay.txt" 2>&1 &
AFTER=$!
if wait_until 120 grep -q '^uinput: /dev/input/event' "$OUT/after.replay.txt" && node=$(node_in "$OUT/after.replay.txt") && wait_until 120 test -c "$node"; then
    "$OUT/penkit-kept" libinput-events --device "$node" >"$OUT/after.events.jsonl" 2>"$OUT/after.events.err" &
    READER=$!
    wait_until 300 grep -q "^added " "$OUT/after.events.err" || fail "after purge: libinput did not add $node: $(tail -2 "$OUT/after.events.err")"
    touch "$OUT/after.go"
    wait_until 600 grep -q '^uinput: played' "$OUT/after.replay.txt" || fail "after purge: the replay did not finish"
    wait_until 120 grep -q '"type":"proximity".*"state":"out"' "$OUT/after.events.jsonl"
    touch "$OUT/after.end"; wait $AFTER
    kill $READER 2>/dev/null; wait $READER 2>/dev/null
    if grep -q '"type":"tip".*"state":"down"' "$OUT/after.events.jsonl"; then
        ok "after purge a tablet reaches libinput directly: $node, $(grep -c '"type":' "$OUT/after.events.jsonl") tablet-tool events, tip down and up"
    else fail "after purge libinput saw no tip down on $node: $(head -c 300 "$OUT/after.events.jsonl")"; fi
else fail "after purge: no uinput tablet: $(cat "$OUT/after.replay.txt")"; kill $AFTER 2>/dev/null
fi
finish
}

finish() {
    journalctl -b --no-pager >"$OUT/journal.txt" 2>&1
    if [ "$failures" -eq 0 ]; then echo "all checks passed" >"$OUT/verdict"
    else echo "$failures check(s) failed" >"$OUT/verdict"; fi
    echo "systemd-guest: $(cat "$OUT/verdict")"
}
main "$@"; [ -f "$1/verdict" ] && [ "$(cat "$1/verdict")" = "all checks passed" ]
