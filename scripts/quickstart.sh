#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The main job: install what is missing, build (release), run the benchmark.
# With no argument, its verdict: sgrt against the naive pointer tree and the
# best hand-written code, one screen, in seconds; the tables it measured go
# to build/bench-report.txt. Arguments go to the benchmark: --full for every
# table (a few minutes), --help for the rest; but a first -j N sets the
# build's parallel jobs (default: the CPUs online, nproc; ninja's own
# default, CPUs + 2, overloads a small machine).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 1)
case "${1-}" in
  -j) jobs=${2-}; shift $(( $# < 2 ? $# : 2 )) ;;
  -j*) jobs=${1#-j}; shift ;;
esac
if ! [[ $jobs =~ ^[1-9][0-9]*$ ]]; then
  echo "quickstart.sh: -j '$jobs': expected a number of jobs, 1 or more" >&2
  exit 2
fi
bash scripts/deps.sh
[ -d build/meson-private ] || meson setup build --buildtype=release >/dev/null
meson compile -C build -j "$jobs" >/dev/null
exec build/bench/sgrt_bench "$@"
