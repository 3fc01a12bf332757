#!/usr/bin/env bash
# Builds the trace readers', the replay schedule's and the client protocol's libFuzzer targets (targets of the main
# package, sources in Fuzz/Sources) with -sanitize=fuzzer in scratch dir .build-fuzz, apart from the normal build, and
# runs each for a bounded time, seeded from traces/ and the test corpus.
# usage: Fuzz/run.sh [SECONDS_PER_TARGET]      A finding fails the run; its input is kept in .build-fuzz/findings/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
swift=${SWIFT:-swift}
targets=(FuzzEvemuReader FuzzLibinputRecordReader FuzzReplayLoop FuzzClientProtocol)
flags=(--scratch-path .build-fuzz
       -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
       -Xcc -fsanitize=fuzzer-no-link,address)
mkdir -p .build-fuzz/findings
# Swift's crash backtracer trips over AddressSanitizer (and can hang the run); libFuzzer reports instead.
export SWIFT_BACKTRACE=enable=no
# Only the fuzz targets and what they link: the package's other products never see the sanitizer.
# The linker warns once per sanitizer symbol; keep the log, show it only on failure.
: >.build-fuzz/build.log
for target in "${targets[@]}"; do
    if ! "$swift" build "${flags[@]}" --product "$target" >>.build-fuzz/build.log 2>&1; then
        grep -v 'Cannot export local symbol' .build-fuzz/build.log | tail -40
        exit 1
    fi
done
bin=$("$swift" build "${flags[@]}" --show-bin-path)

run() {
    local target=$1; shift
    local corpus
    corpus=$(mktemp -d)
    cp "$@" "$corpus"/
    echo "fuzz: $target for ${seconds}s, $(ls "$corpus" | wc -l) seeds"
    # -max_len keeps each run fast; seeds longer than that are fuzzed by their beginnings.
    "$bin/$target" "$corpus" -max_total_time="$seconds" -max_len=16384 -timeout=10 -rss_limit_mb=4096 \
        -artifact_prefix=.build-fuzz/findings/"$target"- -print_final_stats=1 2>&1 \
        | grep -E '^(#[0-9]+[[:space:]]+(INITED|DONE)|stat::number_of_executed_units|==[0-9]+==|SUMMARY|.*(Fatal error|deadly signal|Test unit written|Timeout|out-of-memory))' || true
    local status=${PIPESTATUS[0]}
    rm -rf "$corpus"
    return "$status"
}

# Two targets at a time: each fuzzer is one process on one core, and the machine has two. Each
# keeps its full time; their outputs are printed whole, one after the other.
pids=() logs=() failed=0
start() { local log; log=$(mktemp); run "$@" >"$log" 2>&1 & pids+=($!); logs+=("$log"); }
finish() {
    local i
    for i in "${!pids[@]}"; do
        wait "${pids[$i]}" || failed=1
        cat "${logs[$i]}"; rm -f "${logs[$i]}"
    done
    pids=() logs=()
}
start FuzzEvemuReader traces/*.evemu Tests/Fixtures/malformed/*.evemu
start FuzzLibinputRecordReader Tests/Fixtures/libinput-record/*.yml Tests/Fixtures/malformed/*.yml
finish
start FuzzReplayLoop traces/*.evemu Tests/Fixtures/malformed/*.evemu
start FuzzClientProtocol Fuzz/Seeds/client-protocol/* Tests/Fixtures/e2e/*.jsonl
finish
exit "$failed"
