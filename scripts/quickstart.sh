#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The main job: install what is missing, build (release), run the benchmark
# against the naive traversal on the default scene set.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
[ -d build/meson-private ] || meson setup build --buildtype=release >/dev/null
meson compile -C build >/dev/null
exec build/bench/sgrt_bench "$@"
