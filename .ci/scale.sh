#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Scale stage of CI (docs/testing.md): a release build running
# tests/test_scale.c with --full sizes -- churn among a million live nodes,
# shrinking two million to one, growth from an odd capacity to six million,
# a million-deep chain -- checking slots in use, memory and results, and
# printing the figures (times are printed, never asserted); then
# tests/test_wrap.c --full: a batch of 2^32 - 1 entries, which must end
# (its input is a few MiB of memfd mapped over 80 GiB of address space).
# Needs about 2 GB of memory and three minutes. Build directory: build-scale under
# SGRT_SCALE_DIR (default: SGRT_TEST_DIR, else the repository root).
# Writes a "scale pass|fail" line for scripts/count_tests.py and exits
# non-zero on failure.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh || exit 1
out=${SGRT_SCALE_DIR:-${SGRT_TEST_DIR:-.}}
dir="$out/build-scale"
mkdir -p "$out/build-hostile-results"
results="$out/build-hostile-results/scale.results"
rm -rf "$dir"
if ! meson setup "$dir" --werror --buildtype=release -Dbench=false -Dexamples=false \
       >"$out/scale-setup.log" 2>&1 ||
   ! meson compile -C "$dir" tests/test_scale tests/test_wrap >"$out/scale-build.log" 2>&1; then
  tail -30 "$out/scale-setup.log" "$out/scale-build.log"
  echo "scale fail" >"$results"
  exit 1
fi
start=$(date +%s)
if "$dir/tests/test_scale" --full 2>&1 | tee "$dir/scale.log" &&
   "$dir/tests/test_wrap" --full 2>&1 | tee -a "$dir/scale.log"; then
  echo "scale pass" >"$results"
  echo "scale: passed in $(( $(date +%s) - start )) s"
else
  echo "scale fail" >"$results"
  echo "scale: FAILED (log: $dir/scale.log)"
  exit 1
fi
