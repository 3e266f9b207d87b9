#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install what building and testing sgrt needs on Debian 12 (run as root, or
# with sudo available). Extra package groups: "ports", "hostile", "gl", "assimp",
# "plot".
set -euo pipefail
# libcglm-dev: the benchmark's flat peer multiplies with cglm's glm_mat4_mul
# when it is there, the strongest flat array to measure sgrt against.
# libxxhash-dev: xxhash.h, whose XXH3 sgrt_scene_hash inlines.
pkgs=(meson ninja-build gcc pkg-config libsimde-dev libxxhash-dev python3 cmake libcglm-dev)
for group in "$@"; do
  case "$group" in
    ports)   pkgs+=(clang g++ qemu-user gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf
                    gcc-s390x-linux-gnu gcc-i686-linux-gnu binutils
                    g++-aarch64-linux-gnu g++-arm-linux-gnueabihf g++-s390x-linux-gnu
                    g++-i686-linux-gnu clang-14
                    gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 wine wine64) ;;
    hostile) pkgs+=(clang libclang-rt-14-dev valgrind) ;;
    gl)      pkgs+=(libegl-dev libgles-dev libgl-dev libegl-mesa0 libgl1-mesa-dri libpng-dev
                    libglfw3-dev libglx-mesa0 xvfb xauth) ;;
    assimp)  pkgs+=(libassimp-dev assimp-testmodels) ;;
    plot)    pkgs+=(gnuplot-nox) ;;
    *) echo "deps.sh: unknown group '$group'" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "installing: ${missing[*]}"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
