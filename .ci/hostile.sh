#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Hostile-input stage of CI (docs/testing.md):
#   1. fuzz      clang, ASan+UBSan, libFuzzer: the checked-in corpus, then
#                SGRT_FUZZ_SECONDS (default 180) of fuzzing; the unit and
#                fuzz suites in the same build;
#   2. valgrind  gcc debug build, every test under memcheck (leaks are
#                errors), the differential test reduced with -Ddiff_ops;
#   3. tsan      ThreadSanitizer build running test_threads, test_parallel, test_prev,
#                test_bounds (the parallel update with boxes on two threads).
# Build directories: build-fuzz, build-valgrind, build-tsan under
# SGRT_HOSTILE_DIR (default: SGRT_TEST_DIR, else the repository root).
# SGRT_FUZZ_SECONDS sets the fuzzing time.
# Prints a summary (fuzz executions, valgrind error and leak totals) and
# exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh hostile || exit 1

out=${SGRT_HOSTILE_DIR:-${SGRT_TEST_DIR:-.}}
fuzz_seconds=${SGRT_FUZZ_SECONDS:-180}
# Per-stage pass/fail lines for scripts/count_tests.py, in a directory that
# .gitignore's /build*/ covers.
mkdir -p "$out/build-hostile-results"
results="$out/build-hostile-results/hostile.results"
: >"$results"
status=0
summary=()

record() { # name, pass|fail, summary line
  echo "$1 $2" >>"$results"
  summary+=("$(printf '%-9s %-4s %s' "$1" "$2" "$3")")
  [ "$2" = pass ] || status=1
}

setup() { # dir, meson setup args... (fresh each time: flags must not linger)
  local dir=$1; shift
  rm -rf "$dir"
  mkdir -p "$dir"
  echo "== meson setup $dir $*"
  if ! meson setup "$dir" --werror -Dbench=false -Dexamples=false "$@" >"$dir/hostile-setup.log" 2>&1; then
    cat "$dir/hostile-setup.log"
    return 1
  fi
  if ! meson compile -C "$dir" >"$dir/hostile-build.log" 2>&1; then
    tail -40 "$dir/hostile-build.log"
    return 1
  fi
}

# ---- 1. fuzzing ---------------------------------------------------------------
fz="$out/build-fuzz"
if CC=clang setup "$fz" -Dfuzz=true --buildtype=debugoptimized \
     -Db_sanitize=address,undefined -Db_lundef=false \
     "-Dc_args=-fsanitize=fuzzer-no-link -fno-sanitize-recover=all"; then
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  if meson test -C "$fz" --suite unit --suite fuzz --print-errorlogs --num-processes 2 \
       >"$fz/hostile-test.log" 2>&1; then
    record asan-suite pass "$(grep -E '^Ok:' "$fz/hostile-test.log" | tr -s ' ') tests, clang ASan+UBSan"
  else
    tail -30 "$fz/hostile-test.log"
    record asan-suite fail "see $fz/hostile-test.log"
  fi
  # New inputs go to a scratch directory; the checked-in corpus is only read.
  work="$fz/corpus-work"
  mkdir -p "$work" "$fz/artifacts"
  if "$fz/tests/fuzz/fuzz_ops" -runs=0 -artifact_prefix="$fz/artifacts/" tests/fuzz/corpus \
       tests/fuzz/corpus_short >"$fz/hostile-corpus.log" 2>&1; then
    record corpus pass "$(($(ls tests/fuzz/corpus | wc -l) + $(ls tests/fuzz/corpus_short | wc -l))) corpus inputs replayed"
  else
    tail -30 "$fz/hostile-corpus.log"
    record corpus fail "see $fz/hostile-corpus.log"
  fi
  # Two regimes of the operations harness (scripts/fuzz.sh): a third of the
  # time on programs of at most 64 bytes from their own corpus (breadth, a
  # thousand executions a second), the rest on whole programs (depth); then
  # a sixth as long again on hostile snapshots for restore and load.
  short_seconds=$((fuzz_seconds / 3))
  long_seconds=$((fuzz_seconds - short_seconds))
  restore_seconds=$((fuzz_seconds / 6))
  fuzz_phase() { # name, program, seconds, corpus, extra options...
    local name=$1 prog=$2 secs=$3 corpus=$4
    shift 4
    mkdir -p "$work-$name"
    "$fz/tests/fuzz/$prog" -max_total_time="$secs" -print_final_stats=1 "$@" \
        -artifact_prefix="$fz/artifacts/" "$work-$name" "$corpus" >"$fz/hostile-fuzz-$name.log" 2>&1
    local rc=$?
    local execs rate
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$fz/hostile-fuzz-$name.log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$fz/hostile-fuzz-$name.log" | tail -1)
    if [ $rc -eq 0 ]; then
      record "fuzz-$name" pass "${execs:-?} executions in ${secs} s (${rate:-?} a second) without a finding"
    else
      grep -E 'fuzz_(ops|restore):|ERROR|runtime error|SUMMARY' "$fz/hostile-fuzz-$name.log" | head -20
      record "fuzz-$name" fail "finding after ${execs:-?} executions: $(ls "$fz/artifacts" | head -1) (log $fz/hostile-fuzz-$name.log)"
    fi
  }
  fuzz_phase short fuzz_ops "$short_seconds" tests/fuzz/corpus_short -max_len=64
  fuzz_phase long fuzz_ops "$long_seconds" tests/fuzz/corpus
  fuzz_phase restore fuzz_restore "$restore_seconds" tests/fuzz/corpus_restore
else
  record fuzz fail "clang fuzz build failed"
fi

# ---- 2. valgrind memcheck -------------------------------------------------------
vg="$out/build-valgrind"
if setup "$vg" -Dfuzz=true --buildtype=debug -Ddiff_ops=2000; then
  vg_abs=$(cd "$vg" && pwd)
  wrapper="valgrind --error-exitcode=1 --leak-check=full \
--show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible \
--track-origins=yes --log-file=$vg_abs/valgrind-%p.log"
  # The corpus under memcheck: the seeds and one in 16 of the kept inputs
  # (tests/fuzz/replay_main.c); the ASan build above replays all of them.
  if SGRT_FUZZ_REPLAY_SAMPLE=16 meson test -C "$vg" --suite unit --suite fuzz --wrapper "$wrapper" \
       --timeout-multiplier 20 --print-errorlogs --num-processes 2 >"$vg/hostile-test.log" 2>&1; then
    vg_ok=pass
  else
    tail -30 "$vg/hostile-test.log"
    vg_ok=fail
  fi
  # One log per process: sum the "ERROR SUMMARY", leak and heap lines.
  vg_sum() { # sed expression capturing a number
    cat "$vg"/valgrind-*.log 2>/dev/null | sed -n "$1" | tr -d , | awk '{s += $1} END {print s + 0}'
  }
  procs=$(ls "$vg"/valgrind-*.log 2>/dev/null | wc -l)
  errors=$(vg_sum 's/.*ERROR SUMMARY: \([0-9,]*\) errors.*/\1/p')
  lost=$(vg_sum 's/.*definitely lost: \([0-9,]*\) bytes.*/\1/p')
  in_use=$(vg_sum 's/.*in use at exit: \([0-9,]*\) bytes.*/\1/p')
  allocs=$(vg_sum 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p')
  tests=$(grep -E '^Ok:' "$vg/hostile-test.log" | awk '{print $2}')
  [ "$errors" = 0 ] && [ "$lost" = 0 ] && [ "$procs" -gt 0 ] || vg_ok=fail
  record valgrind $vg_ok "${tests:-0} tests, $procs processes under memcheck: $errors errors, $lost bytes definitely lost, $in_use bytes in use at exit, $allocs heap allocations (-Ddiff_ops=2000)"
  [ $vg_ok = pass ] || grep -l -E 'ERROR SUMMARY: [1-9]|definitely lost' "$vg"/valgrind-*.log | head -5
else
  record valgrind fail "build failed"
fi

# ---- 3. ThreadSanitizer ----------------------------------------------------------
ts="$out/build-tsan"
if CC=clang setup "$ts" --buildtype=debugoptimized -Db_sanitize=thread -Db_lundef=false; then
  export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
  if meson test -C "$ts" threads parallel prev bounds --print-errorlogs >"$ts/hostile-test.log" 2>&1 &&
     ! grep -q 'WARNING: ThreadSanitizer' "$ts/meson-logs/testlog.txt"; then
    record tsan pass "test_threads, test_parallel, test_prev and test_bounds clean under -fsanitize=thread"
  else
    tail -40 "$ts/hostile-test.log"
    record tsan fail "see $ts/meson-logs/testlog.txt"
  fi
else
  record tsan fail "build failed"
fi

echo "== hostile summary"
printf '%s\n' "${summary[@]}"
exit $status
