#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every fuzz target (or the ones named) for SECONDS each, outside CI:
#
#   bash scripts/fuzz.sh SECONDS [target...]      targets: ops ops_short restore (default: all)
#
# ops_short is the operations harness on programs of at most 64 bytes (a
# handful of calls, libFuzzer -max_len=64) with a corpus of its own: such
# programs run a thousand times a second or more where whole programs (up
# to 128 calls, scenes of thousands of nodes) run tens of times; the two
# regimes explore breadth and depth. restore feeds sgrt_scene_restore and
# sgrt_scene_load hostile snapshots.
#
# Builds build-fuzz as CI does (clang, ASan+UBSan, libFuzzer) if it is not
# there, runs each target on its checked-in corpus plus a work directory kept
# between runs (build-fuzz/fuzz-work/<target>), merges the inputs that add
# coverage into the checked-in corpus (libFuzzer -merge=1: only new
# coverage, so it stays small), and prints per target the executions,
# exec/s, coverage (cov:, ft:) at the start and the end, and the findings
# (crash-, leak-, timeout-, oom- files in build-fuzz/fuzz-artifacts/<target>).
#
# One process at a time, at the lowest priority (SGRT_FUZZ_NICE, default 19):
# the machine may be shared. SGRT_FUZZ_DIR sets the build directory.
# Exits non-zero when a target finds something or fails to run.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

usage() {
    echo "usage: bash scripts/fuzz.sh SECONDS [target...]  (targets: ${all_targets[*]})" >&2
    exit 2
}
all_targets=(ops ops_short restore)
# The checked-in corpus of each target, its program and its extra options.
corpus_of() {
    case $1 in
    ops) echo tests/fuzz/corpus ;;
    ops_short) echo tests/fuzz/corpus_short ;;
    restore) echo tests/fuzz/corpus_restore ;;
    *) return 1 ;;
    esac
}
program_of() {
    case $1 in
    ops_short) echo ops ;;
    *) echo "$1" ;;
    esac
}
options_of() {
    case $1 in
    ops_short) echo -max_len=64 ;;
    esac
}

[ $# -ge 1 ] || usage
seconds=$1
shift
case $seconds in
'' | *[!0-9]*) usage ;;
esac
[ "$seconds" -gt 0 ] || usage
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
    corpus_of "$t" >/dev/null || { echo "fuzz.sh: no target '$t'" >&2; usage; }
done

bd=${SGRT_FUZZ_DIR:-build-fuzz}
nice_level=${SGRT_FUZZ_NICE:-19}
if [ ! -f "$bd/build.ninja" ]; then
    echo "== meson setup $bd (clang, ASan+UBSan, libFuzzer)"
    CC=clang meson setup "$bd" -Dfuzz=true -Dbench=false -Dexamples=false \
        --buildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false \
        "-Dc_args=-fsanitize=fuzzer-no-link -fno-sanitize-recover=all" >/dev/null || exit 1
fi
build=()
for t in "${targets[@]}"; do build+=("tests/fuzz/fuzz_$(program_of "$t")"); done
ninja -C "$bd" -j2 "${build[@]}" >"$bd/fuzz-build.log" 2>&1 || { tail -30 "$bd/fuzz-build.log"; exit 1; }

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
report=()
for t in "${targets[@]}"; do
    prog="$bd/tests/fuzz/fuzz_$(program_of "$t")"
    corpus=$(corpus_of "$t")
    read -r -a extra <<<"$(options_of "$t")"
    mkdir -p "$corpus"
    work="$bd/fuzz-work/$t"
    art="$bd/fuzz-artifacts/$t"
    log="$bd/fuzz-$t.log"
    mkdir -p "$work" "$art"
    before=$(ls "$art" | wc -l)
    seeds=$(ls "$corpus" | wc -l)
    echo "== fuzz_$t: $seconds s, corpus $corpus ($seeds files) + $work ($(ls "$work" | wc -l) files)"
    nice -n "$nice_level" "$prog" -max_total_time="$seconds" -print_final_stats=1 \
        "${extra[@]}" -artifact_prefix="$art/" "$work" "$corpus" >"$log" 2>&1
    rc=$?
    start=$(grep -m1 -E '^#[0-9]+[[:space:]]+INITED' "$log" | grep -oE 'cov: [0-9]+ ft: [0-9]+')
    end=$(grep -E '^#[0-9]+[[:space:]]+(DONE|NEW|REDUCE|pulse)' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+')
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    found=$(($(ls "$art" | wc -l) - before))
    # New coverage into the checked-in corpus (with -merge=1 a crash in an
    # input stops nothing: libFuzzer restarts past it).
    added=0
    if [ "$found" -eq 0 ] && [ $rc -eq 0 ]; then
        n0=$(ls "$corpus" | wc -l)
        if nice -n "$nice_level" "$prog" -merge=1 "${extra[@]}" -artifact_prefix="$art/" "$corpus" "$work" \
            >"$bd/fuzz-$t-merge.log" 2>&1; then
            added=$(($(ls "$corpus" | wc -l) - n0))
        else
            echo "fuzz.sh: merge of $t failed: see $bd/fuzz-$t-merge.log" >&2
            status=1
        fi
    fi
    line=$(printf 'fuzz_%s: %s executions in %s s (%s exec/s); start %s, end %s; %s new corpus files; findings: %s' \
        "$t" "${execs:-?}" "$seconds" "${rate:-?}" "${start:-?}" "${end:-?}" "$added" "$found")
    if [ "$found" -gt 0 ] || [ $rc -ne 0 ]; then
        status=1
        grep -E '==ERROR|runtime error|SUMMARY|fuzz_(ops|restore): ' "$log" | head -10
        line+=" ($(ls -t "$art" | head -1), exit $rc, log $log)"
    fi
    echo "$line"
    report+=("$line")
done
echo "== fuzz summary"
printf '%s\n' "${report[@]}"
exit $status
