#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The whole test suite: the default build, then the same tests under
# AddressSanitizer + UndefinedBehaviorSanitizer, with --werror.
# Prints "N passed, N failed" last; exits non-zero on any failure.
# -j N: parallel compile jobs (default: the CPUs online, nproc; ninja's own
# default, CPUs + 2, overloads a small machine).
set -uo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 1)
case "${1-}" in
  -j) jobs=${2-} ;;
  -j*) jobs=${1#-j} ;;
  "") ;;
  *) echo "test.sh: unknown argument '$1' (only -j N)" >&2; exit 2 ;;
esac
if ! [[ $jobs =~ ^[1-9][0-9]*$ ]]; then
  echo "test.sh: -j '$jobs': expected a number of jobs, 1 or more" >&2
  exit 2
fi
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
  if ! meson compile -C "$dir" -j "$jobs" >"$out/$name.build.log" 2>&1; then
    tail -40 "$out/$name.build.log"; status=1; return
  fi
  meson test -C "$dir" --print-errorlogs --num-processes 2 2>&1 | tail -n 14 || status=1
}

suite default --buildtype=debugoptimized
suite sanitize --buildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false \
  -Dc_args=-fno-sanitize-recover=all -Dbench=false

python3 scripts/count_tests.py "$out" || status=1
exit $status
