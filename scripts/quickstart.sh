#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The main job: install what is missing, build (release), run the benchmark.
# With no argument, its verdict: sgrt against the naive pointer tree and the
# best hand-written code, one screen, in seconds; the tables it measured go
# to build/bench-report.txt. Arguments go to the benchmark: --full for every
# table (a few minutes), --help for the rest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
[ -d build/meson-private ] || meson setup build --buildtype=release >/dev/null
meson compile -C build >/dev/null
exec build/bench/sgrt_bench "$@"
