#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Port CI: build sgrt for every target of docs/porting.md and run the whole
# test suite on each (emulated targets under qemu-user, Windows under wine,
# through the cross files' exe_wrapper). Prints one line per target (tests
# passed / failed, golden hash) and "N passed, N failed" last; exits non-zero
# on any failure.
#
#   .ci/ports.sh                  every target
#   .ci/ports.sh aarch64 armhf    only these (names from the table below)
#
# Environment: SGRT_PORTS_DIR (default build-ports-ci) holds one build per
# target; SGRT_PORTS_NO_INSTALL=1 skips the package installation.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${SGRT_PORTS_DIR:-build-ports-ci}
mkdir -p "$out"

# name | environment (for setup, build and test; @dir@ is the target's build
# directory) | meson setup arguments. The emulated targets run a smaller
# randomized differential test (every test still runs). Wine keeps its
# prefix (its C: drive and registry) in the build directory, created before
# the setup (which runs a test program) so that no test races to create it.
targets=(
  "x86_64-sse2|                          |"
  "x86_64-v3|                            |-Dc_args=-march=x86-64-v3"
  "x86_64-scalar|                        |-Dsimd=scalar"
  "x86_64-clang14|CC=clang-14 CXX=clang++-14|"
  "aarch64|                              |--cross-file cross/aarch64-linux-gnu.ini -Ddiff_ops=20000"
  "armhf|                                |--cross-file cross/arm-linux-gnueabihf.ini -Ddiff_ops=20000"
  "s390x|                                |--cross-file cross/s390x-linux-gnu.ini -Ddiff_ops=20000"
  "i686|                                 |--cross-file cross/i686-linux-gnu.ini -Ddiff_ops=20000"
  "x86_64-mingw-wine|WINEDEBUG=-all WINEPREFIX=@dir@/wineprefix|--cross-file cross/x86_64-w64-mingw32.ini -Ddiff_ops=20000"
)

if [ "${SGRT_PORTS_NO_INSTALL:-0}" != 1 ]; then
  bash scripts/deps.sh ports || exit 1
  # C++ cross compilers: the header is also compiled as C++ on every target.
  extra=()
  for p in g++-aarch64-linux-gnu g++-arm-linux-gnueabihf g++-s390x-linux-gnu g++-i686-linux-gnu \
           g++-mingw-w64-x86-64 clang-14; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || extra+=("$p")
  done
  if [ ${#extra[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    echo "installing: ${extra[*]}"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${extra[@]}" >/dev/null || exit 1
  fi
fi

# SIMDe is architecture-independent headers in /usr/include, which Debian's
# cross compilers search last: check that each one sees them.
for cc in aarch64-linux-gnu-gcc arm-linux-gnueabihf-gcc s390x-linux-gnu-gcc i686-linux-gnu-gcc; do
  if command -v "$cc" >/dev/null &&
     ! echo '#include <simde/x86/sse.h>' | "$cc" -E -x c - -o /dev/null 2>/dev/null; then
    echo "ports: $cc cannot find <simde/x86/sse.h>" >&2
    exit 1
  fi
done

want=("$@")
selected() {
  [ ${#want[@]} -eq 0 ] && return 0
  local w
  for w in "${want[@]}"; do [ "$w" = "$1" ] && return 0; done
  return 1
}

# Counts from a build's meson-logs/testlog.json: "passed failed skipped golden".
summarize() {
  python3 - "$1/meson-logs/testlog.json" <<'EOF'
import json, sys
p = f = s = 0
golden = "not run"
try:
    lines = open(sys.argv[1]).read().splitlines()
except OSError:
    lines = []
for line in lines:
    if not line.strip():
        continue
    t = json.loads(line)
    r = t.get("result")
    if r in ("OK", "EXPECTEDFAIL"):
        p += 1
    elif r == "SKIP":
        s += 1
    else:
        f += 1
    if t.get("name", "").split("/")[-1].strip() == "golden":
        runs = [l.split() for l in (t.get("stdout") or "").splitlines() if " kernel " in l]
        ok = r == "OK" and runs and all(l[-1] == "match" for l in runs)
        tables = sorted({l[-2].rstrip(":") for l in runs if l[0] != "model"})
        golden = ("match " if ok else "MISMATCH ") + "+".join(tables)
print(p, f, s, golden)
EOF
}

# Stop a row's persistent wine server (nothing for the other rows).
wine_stop() {
  case "$1" in
    # shellcheck disable=SC2086
    *WINEPREFIX=*) env $1 wineserver -k 2>/dev/null; env $1 wineserver -w ;;
  esac
}

status=0
report=()
start_all=$SECONDS
for t in "${targets[@]}"; do
  IFS='|' read -r name envs args <<<"$t"
  name=$(echo $name)
  selected "$name" || continue
  dir="$out/$name"
  start=$SECONDS
  mkdir -p "$dir"
  envs=${envs//@dir@/$(cd "$dir" && pwd)}
  echo "== $name: ${envs:+$(echo $envs) }meson setup $(echo $args)"
  # shellcheck disable=SC2086 # word splitting of the table's fields is intended
  case "$envs" in
    *WINEPREFIX=*)
      env $envs wineboot -i >"$out/$name.wineboot.log" 2>&1 || {
        tail -20 "$out/$name.wineboot.log"; status=1; report+=("$name: wineboot FAILED"); continue; }
      # One persistent server for the whole row, its services started by
      # one program before any test: without it the server exits between
      # programs, and two tests starting at once (meson runs 2) race to
      # start it and its services; the loser dies with "wine client error:
      # recvmsg: Connection reset by peer" or hangs until its timeout.
      env $envs wineserver -w
      env $envs wineserver -p </dev/null >/dev/null 2>&1
      env $envs wine cmd /c exit </dev/null >/dev/null 2>&1 ;;
  esac
  # shellcheck disable=SC2086
  if [ -d "$dir/meson-private" ]; then
    env $envs meson setup --reconfigure "$dir" --werror $args >"$out/$name.setup.log" 2>&1
  else
    env $envs meson setup "$dir" --werror $args >"$out/$name.setup.log" 2>&1
  fi || {
    tail -20 "$out/$name.setup.log"; status=1; report+=("$name: setup FAILED"); wine_stop "$envs"; continue; }
  # shellcheck disable=SC2086
  if ! env $envs meson compile -C "$dir" >"$out/$name.build.log" 2>&1; then
    grep -E 'error|warning' "$out/$name.build.log" | head -20
    status=1; report+=("$name: build FAILED (see $out/$name.build.log)"); wine_stop "$envs"; continue
  fi
  # shellcheck disable=SC2086
  env $envs meson test -C "$dir" --print-errorlogs --num-processes 2 >"$out/$name.test.log" 2>&1 || {
    status=1; sed -n '/^Summary of Failures/,$p' "$out/$name.test.log"; }
  # The persistent server started above: stop it and wait for it to go.
  # shellcheck disable=SC2086
  wine_stop "$envs"
  read -r passed failed skipped golden <<<"$(summarize "$dir")"
  line=$(printf '%-15s %3d passed, %d failed, %d skipped; golden: %s; %ds' "$name" "$passed" \
         "$failed" "$skipped" "$golden" $((SECONDS - start)))
  [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ] || status=1
  case "$golden" in match*) ;; *) status=1 ;; esac
  echo "$line"
  report+=("$line")
done

echo "== ports summary ($((SECONDS - start_all))s)"
printf '%s\n' "${report[@]}"
python3 scripts/count_tests.py "$out" || status=1
exit $status
