#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The whole test suite: the default build, then the same tests under
# AddressSanitizer + UndefinedBehaviorSanitizer, with --werror.
# Prints "N passed, N failed" last; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh gl assimp || exit 1
out=${SGRT_TEST_DIR:-build-test}
mkdir -p "$out"
status=0

suite() { # name, meson setup args...
  local name=$1; shift
  local dir="$out/$name"
  echo "== $name: meson setup $*"
  # A directory without build.ninja is a setup that failed: start it again.
  if [ ! -f "$dir/build.ninja" ]; then
    rm -rf "$dir"
    meson setup "$dir" --werror "$@" >"$out/$name.setup.log" 2>&1 || { cat "$out/$name.setup.log"; status=1; return; }
  fi
  if ! meson compile -C "$dir" >"$out/$name.build.log" 2>&1; then
    tail -40 "$out/$name.build.log"; status=1; return
  fi
  meson test -C "$dir" --print-errorlogs --num-processes 2 2>&1 | tail -n 14 || status=1
}

suite default --buildtype=debugoptimized
suite sanitize --buildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false \
  -Dc_args=-fno-sanitize-recover=all -Dbench=false

python3 scripts/count_tests.py "$out" || status=1
exit $status
