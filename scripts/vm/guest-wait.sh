# A guest's wait on a condition that also gives up when a log stops growing (sourced by
# e2e-guest.sh and desktop-guest.sh; BOUND, in seconds, only ends a broken run).
# wait_until CONDITION... -- FILE QUIET: CONDITION holds (0), or FILE has not grown for QUIET
# seconds or the bound passed (1).
wait_until() {
    local cond=() file quiet size=-1 since=$SECONDS cap=$((SECONDS + BOUND)) now
    while [ "$1" != -- ]; do cond+=("$1"); shift; done
    file=$2 quiet=$3
    while [ $SECONDS -lt $cap ]; do
        "${cond[@]}" && return 0
        now=$(stat -c %s "$file" 2>/dev/null || echo 0)
        if [ "$now" != "$size" ]; then size=$now since=$SECONDS; fi
        [ $((SECONDS - since)) -ge "$quiet" ] && return 1
        sleep 0.2
    done
    return 1
}
