#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""sgrt's CMake build (CMakeLists.txt) against its meson build (suite 'cmake').

  cmake_build.py sources ...  the library's source files in CMakeLists.txt
      are the ones src/meson.build compiles, no more, no fewer. Needs no
      cmake.
  cmake_build.py golden --simd auto|scalar ...  the library configured and
      built by CMake (static, SGRT_SIMD as given) in a scratch directory;
      tests/ports/test_golden.c compiled and linked against it. It must match
      golden.h, and its `--print` output (every kernel the build has, each
      forced, then a default scene, then the ARMv7 NEON model, 11 checkpoint
      hashes each) must equal the meson build's: the same text when SGRT_SIMD
      is this build's -Dsimd (same kernels, same bits); otherwise the same
      hashes for every run, and with scalar a default scene on the reference.
  cmake_build.py subdirectory --how add_subdirectory|FetchContent ...
      tests/cmake/consumer/ builds sgrt from source inside itself (the source
      tree, or a tarball of the files the CMake build reads through
      FetchContent's URL) and links sgrt::sgrt; the program runs, links the
      library kind asked for, and sgrt defines only library targets there.
  cmake_build.py install --kind shared|static ...  the CMake build installed
      with `cmake --install --prefix` into a staging directory, then
      tests/consumer/cmake/ finds it with find_package(sgrt <version> EXACT
      CONFIG) as it finds meson's install, sgrt.hpp lies beside sgrt.h, and
      the program builds and runs (and, given --cxx, main.cpp through
      sgrt.hpp); then the same program built with the staged sgrt.pc's
      flags.

Every mode but `sources` exits 77 (skip) without cmake. Scratch files go to
--work, emptied first and kept, for a failure's post-mortem.
"""
import argparse
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import tarfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "consumer"))
from consumer import SKIP, check_links_sgrt, fresh, output, run  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent


def sources(a):
    """The .c files of src/meson.build against those of CMakeLists.txt."""
    root = pathlib.Path(a.source_root)
    meson_text = (root / "src" / "meson.build").read_text()
    meson_text = "\n".join(line.split("#", 1)[0] for line in meson_text.splitlines())
    in_meson = {"src/" + f for f in re.findall(r"'([^']+\.c)'", meson_text)}
    cmake_text = (root / "CMakeLists.txt").read_text()
    cmake_text = "\n".join(line.split("#", 1)[0] for line in cmake_text.splitlines())
    in_cmake = set(re.findall(r"(?<![\w/])src/[\w/.-]+\.c\b", cmake_text))
    print(f"src/meson.build: {len(in_meson)} files; CMakeLists.txt: {len(in_cmake)} files")
    problems = []
    for f in sorted(in_meson - in_cmake):
        problems.append(f"{f} is in src/meson.build, not in CMakeLists.txt")
    for f in sorted(in_cmake - in_meson):
        problems.append(f"{f} is in CMakeLists.txt, not in src/meson.build")
    for f in sorted(in_meson | in_cmake):
        if not (root / f).is_file():
            problems.append(f"{f} does not exist")
    if len(in_meson) < 10:
        problems.append("fewer than 10 files found in src/meson.build: is the parser out of date?")
    return problems


def cmake_configure(a, src, build, options):
    cmd = [a.cmake, "-S", src, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
           # The library must build warning-free with this build's compiler.
           "-DCMAKE_C_FLAGS=-Werror"] + options
    if a.cc:
        cmd.append(f"-DCMAKE_C_COMPILER={shlex.split(a.cc)[-1]}")
    if shutil.which("ninja"):
        cmd += ["-G", "Ninja"]
    run(cmd)
    run([a.cmake, "--build", build])


def parse_print(text):
    """test_golden --print: [(run label, kernel, [hashes])]."""
    runs = []
    for line in text.splitlines():
        m = re.match(r"/\* ([\w, ]+): kernel (.*) \*/$", line)
        if m:
            runs.append((m.group(1), m.group(2), []))
        elif runs and re.match(r"\s+0x[0-9a-f]{16}ull,$", line):
            runs[-1][2].append(line.strip())
    return runs


def golden(a):
    if not a.cmake:
        print("cmake not found: skipped")
        return None
    work = fresh(a.work)
    root = pathlib.Path(a.source_root)
    build = work / "cmake-build"
    cmake_configure(a, root, build, [f"-DSGRT_SIMD={a.simd}", "-DBUILD_SHARED_LIBS=OFF"])
    lib = build / "libsgrt.a"
    if not lib.is_file():
        return [f"CMake built no {lib}"]
    # The golden program reaches into the library (it forces each kernel), so
    # it links the static library and sees src/'s headers, as in meson.
    exe = work / "test_golden_cmake"
    run(shlex.split(a.cc or "cc") + ["-std=c11", "-O2"] + shlex.split(a.fp_args) +
        ["-I", root / "include", "-I", root / "src", "-I", root / "tests" / "ports",
         root / "tests" / "ports" / "test_golden.c", lib, "-lm", "-o", exe])

    problems = []
    print(f"== golden.h against the CMake build (SGRT_SIMD={a.simd})", flush=True)
    try:
        run([exe])
    except subprocess.CalledProcessError as e:  # its output above says which hashes
        problems.append(f"the CMake build does not match golden.h: {e}")
    cmake_text = output([exe, "--print"])
    meson_text = output([a.meson_golden, "--print"])
    cmake_runs = parse_print(cmake_text)
    meson_runs = parse_print(meson_text)
    for name, runs in (("CMake", cmake_runs), ("meson", meson_runs)):
        print(f"{name}: " + ", ".join(f"{label} {kernel}" for label, kernel, _ in runs))
        if not runs or any(len(h) == 0 for _, _, h in runs):
            problems.append(f"no hashes read from the {name} build's test_golden --print")
    if problems:
        return problems

    if a.simd == a.meson_simd:
        # Same configuration: the same kernels, forced in the same order, and
        # the same bits at every checkpoint.
        if cmake_text != meson_text:
            problems.append(f"test_golden --print differs between the CMake and meson builds "
                            f"(simd {a.simd}): see {work}")
            (work / "cmake.print").write_text(cmake_text)
            (work / "meson.print").write_text(meson_text)
        else:
            print(f"identical: {len(cmake_runs)} runs x {len(cmake_runs[0][2])} checkpoint "
                  f"hashes, kernels {' '.join(k for _, k, _ in cmake_runs)}")
    else:
        # Another configuration than meson's: other kernels, the same bits.
        # Transform runs ("forced", "default", "model") and box runs
        # ("boxes, forced", ...) are hashed apart.
        scenarios = ("boxes, ", "large world, ")

        def scenario(label):
            return next((p for p in scenarios if label.startswith(p)), "")

        def expected(prefix, model):
            """The meson build's hashes of a scenario ("" the main one)."""
            if model:
                return [h for label, k, h in meson_runs if label == prefix + "model"][0]
            return [h for label, k, h in meson_runs
                    if scenario(label) == prefix and not label.endswith("model")][0]
        ieee = expected("", False)
        for label, kernel, hashes in cmake_runs:
            want = expected(scenario(label), label.endswith("model"))
            if hashes != want:
                problems.append(f"CMake build, {label} run, kernel {kernel}: hashes differ "
                                "from the meson build's")
        default = [k for label, k, _ in cmake_runs if label == "default"]
        if a.simd == "scalar" and default != ["scalar"]:
            problems.append(f"SGRT_SIMD=scalar: a default scene runs {default}, not the reference")
        if not problems:
            print(f"same hashes as meson's: {len(cmake_runs)} runs x {len(ieee)} checkpoints")
    return problems


def tarball(root, dest, version):
    """The files the CMake build reads, as a release archive would hold them."""
    top = f"sgrt-{version}"
    with tarfile.open(dest, "w:gz") as tar:
        for name in ("CMakeLists.txt", "meson.build", "LICENSE", "cmake", "include", "src"):
            tar.add(root / name, arcname=f"{top}/{name}",
                    filter=lambda info: None if "__pycache__" in info.name else info)


def subdirectory(a):
    if not a.cmake:
        print("cmake not found: skipped")
        return None
    work = fresh(a.work)
    root = pathlib.Path(a.source_root).resolve()
    want_static = a.kind == "static"
    options = [f"-DSGRT_HOW={a.how}",
               f"-DBUILD_SHARED_LIBS={'OFF' if want_static else 'ON'}",
               f"-DSGRT_WANT_TYPE={'STATIC' if want_static else 'SHARED'}_LIBRARY"]
    if a.how == "FetchContent":
        archive = work / f"sgrt-{a.version}.tar.gz"
        tarball(root, archive, a.version)
        options.append(f"-DSGRT_URL={archive.as_uri()}")
    else:
        options.append(f"-DSGRT_SOURCE_DIR={root}")
    build = work / "build"
    cmake_configure(a, HERE / "consumer", build, options)
    exe = build / "consumer"
    # No LD_LIBRARY_PATH: a shared sgrt is found through the build tree's
    # run path, as CMake sets it for its own targets.
    run([exe, a.version])
    problems = []
    check_links_sgrt(a, exe, want_static, problems)
    return problems


def install(a):
    if not a.cmake:
        print("cmake not found: skipped")
        return None
    work = fresh(a.work)
    root = pathlib.Path(a.source_root)
    want_static = a.kind == "static"
    build = work / "cmake-build"
    cmake_configure(a, root, build, [f"-DBUILD_SHARED_LIBS={'OFF' if want_static else 'ON'}"])
    # The prefix given at install, not at configure: both descriptions must
    # follow it.
    stage = work / "stage"
    run([a.cmake, "--install", build, "--prefix", stage])
    problems = []
    config_dirs = list(stage.glob("**/cmake/sgrt"))
    for f in ("sgrtConfig.cmake", "sgrtConfigVersion.cmake"):
        if not config_dirs or not (config_dirs[0] / f).is_file():
            problems.append(f"not installed: cmake/sgrt/{f}")
    pcs = list(stage.glob("**/pkgconfig/sgrt.pc"))
    if not pcs:
        problems.append("not installed: pkgconfig/sgrt.pc")
    headers = list(stage.glob("**/sgrt.h"))
    if len(headers) != 1 or not (headers[0].parent / "sgrt.hpp").is_file():
        problems.append(f"not installed: sgrt.hpp beside sgrt.h ({headers})")
    if problems:
        return problems

    consumer_build = work / "consumer-build"
    cmd = [a.cmake, "-S", HERE.parent / "consumer" / "cmake", "-B", consumer_build,
           "-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_PREFIX_PATH={stage}",
           f"-DSGRT_WANT_VERSION={a.version}",
           f"-DSGRT_WANT_TYPE={'STATIC' if want_static else 'SHARED'}_LIBRARY"]
    if a.cc:
        cmd.append(f"-DCMAKE_C_COMPILER={shlex.split(a.cc)[-1]}")
    if a.cxx:
        cmd += ["-DSGRT_CONSUMER_CXX=ON", f"-DCMAKE_CXX_COMPILER={shlex.split(a.cxx)[-1]}"]
    if shutil.which("ninja"):
        cmd += ["-G", "Ninja"]
    run(cmd)
    cache = (consumer_build / "CMakeCache.txt").read_text()
    sgrt_dir = [l.split("=", 1)[1] for l in cache.splitlines() if l.startswith("sgrt_DIR:")]
    if not sgrt_dir or not pathlib.Path(sgrt_dir[0]).resolve().is_relative_to(stage.resolve()):
        problems.append(f"find_package found sgrt in {sgrt_dir}, not in {stage}")
    run([a.cmake, "--build", consumer_build])
    exe = consumer_build / "consumer"
    run([exe, a.version])
    check_links_sgrt(a, exe, want_static, problems)
    if a.cxx:
        run([consumer_build / "consumer_cpp", a.version])
        check_links_sgrt(a, consumer_build / "consumer_cpp", want_static, problems)

    if a.pkg_config:
        env = dict(os.environ)
        env["PKG_CONFIG_LIBDIR"] = str(pcs[0].parent)
        env.pop("PKG_CONFIG_PATH", None)
        # No --define-variable: the file finds its prefix from its own place.
        version = output([a.pkg_config, "--modversion", "sgrt"], env=env).strip()
        if version != a.version:
            problems.append(f"pkg-config --modversion sgrt: {version}, expected {a.version}")
        flags = shlex.split(output([a.pkg_config, "--cflags", "--libs"] +
                                   (["--static"] if want_static else []) + ["sgrt"], env=env))
        print(f"pkg-config --cflags --libs sgrt: {' '.join(flags)}")
        pc_exe = work / "pc-consumer"
        run(shlex.split(a.cc or "cc") + ["-std=c11", HERE.parent / "consumer" / "main.c",
                                         "-o", pc_exe] + flags)
        run_env = dict(os.environ)
        run_env["LD_LIBRARY_PATH"] = str(pcs[0].parent.parent)
        run([pc_exe, a.version], env=run_env)
        check_links_sgrt(a, pc_exe, want_static, problems)
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["sources", "golden", "subdirectory", "install"])
    ap.add_argument("--source-root", required=True, help="sgrt's source tree")
    ap.add_argument("--work", help="scratch directory (emptied first)")
    ap.add_argument("--cmake", default="")
    ap.add_argument("--cc", default="", help="the C compiler command of this build")
    ap.add_argument("--cxx", default="", help="install: the C++ compiler command of this "
                    "build (none: no C++ consumer)")
    ap.add_argument("--version", help="the version the library must report")
    ap.add_argument("--soversion")
    ap.add_argument("--readelf", default="")
    ap.add_argument("--nm", default="")
    ap.add_argument("--pkg-config", default="")
    ap.add_argument("--simd", choices=["auto", "scalar"], help="golden: SGRT_SIMD")
    ap.add_argument("--meson-simd", help="golden: this meson build's -Dsimd")
    ap.add_argument("--meson-golden", help="golden: test_golden built by meson")
    ap.add_argument("--fp-args", default="", help="golden: meson's floating-point flags")
    ap.add_argument("--how", choices=["add_subdirectory", "FetchContent"])
    ap.add_argument("--kind", choices=["shared", "static"], default="static")
    a = ap.parse_args()
    modes = {"sources": sources, "golden": golden, "subdirectory": subdirectory,
             "install": install}
    try:
        problems = modes[a.mode](a)
    except subprocess.CalledProcessError as e:
        print(f"FAILED: {e}")
        return 1
    if problems is None:
        return SKIP
    for p in problems:
        print(f"FAILED: {p}")
    print("ok" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
