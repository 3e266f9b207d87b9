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
      The consumer sets no build type: compile_commands.json must show -O2
      on sgrt's sources and no -O on its own. With add_subdirectory, what a
      consumer asks for is followed (configured only): Debug (no -O),
      CMAKE_C_FLAGS=-O1, add_compile_options(-O1), and with Ninja
      Multi-Config -O2 in a configuration without flags of its own only.
  cmake_build.py readme ...  the FetchContent block of README.md, as
      written but for its GIT_REPOSITORY: a local git repository of this
      tree's files with the tag or branch the block names (which the
      checkout must have), in a consumer with no build type; the program
      builds and runs, and sgrt's sources get -O2.
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
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import tarfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "consumer"))
from buildcheck import (check_installed, check_links_sgrt, check_opt_levels,  # noqa: E402
                        cmake_command, cmake_scratch, exit_status, output, run)

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


def cmake_configure(a, src, build, options, build_type="Release"):
    # The library must build warning-free with this build's compiler.
    cmd = cmake_command(a, src, build, ["-DCMAKE_C_FLAGS=-Werror"] + options +
                        ([f"-DCMAKE_BUILD_TYPE={build_type}"] if build_type else []))
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
    work = cmake_scratch(a)
    if work is None:
        return None
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
        # Transform runs ("forced", "default", "model"), box runs ("boxes,
        # forced", ...), large-world runs and their sgrt_scene_hash values
        # ("large world hash, forced", ...), snapshot runs ("snapshots,
        # forced", ...) and skin runs ("skins, forced", ...) are hashed apart.
        scenarios = ("boxes, ", "large world, ", "large world hash, ", "snapshots, ", "skins, ")

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


# The files the CMake build reads, as a release archive would hold them.
RELEASE_FILES = ("CMakeLists.txt", "meson.build", "LICENSE", "cmake", "include", "src")


def tarball(root, dest, version):
    top = f"sgrt-{version}"
    with tarfile.open(dest, "w:gz") as tar:
        for name in RELEASE_FILES:
            tar.add(root / name, arcname=f"{top}/{name}",
                    filter=lambda info: None if "__pycache__" in info.name else info)


def subdirectory(a):
    work = cmake_scratch(a)
    if work is None:
        return None
    root = pathlib.Path(a.source_root).resolve()
    want_static = a.kind == "static"
    options = [f"-DSGRT_HOW={a.how}",
               f"-DBUILD_SHARED_LIBS={'OFF' if want_static else 'ON'}",
               f"-DSGRT_WANT_TYPE={'STATIC' if want_static else 'SHARED'}_LIBRARY"]
    if a.how == "FetchContent":
        archive = work / f"sgrt-{a.version}.tar.gz"
        tarball(root, archive, a.version)
        options.append(f"-DSGRT_URL={archive.as_uri()}")
        sgrt_root = work / "build" / "_deps" / "sgrt-src"
    else:
        options.append(f"-DSGRT_SOURCE_DIR={root}")
        sgrt_root = root
    # No build type, as a parent project often has none: sgrt's sources get
    # -O2, the parent's own none.
    build = work / "build"
    cmake_configure(a, HERE / "consumer", build, options, build_type=None)
    problems = []
    main_c = HERE.parent / "consumer" / "main.c"
    check_opt_levels(build, sgrt_root, main_c, "-O2", "", problems)
    exe = build / "consumer"
    # No LD_LIBRARY_PATH: a shared sgrt is found through the build tree's
    # run path, as CMake sets it for its own targets.
    run([exe, a.version])
    check_links_sgrt(a, exe, want_static, problems)
    if a.how == "add_subdirectory":
        # What the parent asks for is followed (configured, not built):
        # Debug (CMake's -g, no -O), an -O in CMAKE_C_FLAGS or in its
        # add_compile_options; with a
        # multi-config generator -O2 goes to the configurations without
        # flags of their own only.
        for name, extra, want in (("debug", ["-DCMAKE_BUILD_TYPE=Debug"], ""),
                                  ("cflags-O1", ["-DCMAKE_C_FLAGS=-O1"], "-O1"),
                                  ("options-O1", ["-DSGRT_PARENT_OPTIONS=-O1"], "-O1")):
            run(cmake_command(a, HERE / "consumer", work / name, options + extra))
            check_opt_levels(work / name, root, main_c, want, want, problems)
        if shutil.which("ninja"):
            multi = work / "multi-config"
            run(cmake_command(a, HERE / "consumer", multi, options + [
                "-G", "Ninja Multi-Config", "-DCMAKE_CONFIGURATION_TYPES=Debug;Release;Bare"]))
            check_opt_levels(multi, root, main_c, "", "", problems, config="Debug")
            check_opt_levels(multi, root, main_c, "-O3", "-O3", problems, config="Release")
            check_opt_levels(multi, root, main_c, "-O2", "", problems, config="Bare")
    return problems


def readme_snippet(readme):
    """The README's FetchContent block: its text, the repository and the
    ref it names."""
    blocks = re.findall(r"```cmake\n(.*?)```", readme.read_text(), re.S)
    found = [b for b in blocks if "FetchContent_Declare(sgrt" in b]
    if len(found) != 1:
        raise SystemExit(f"{readme}: {len(found)} cmake blocks with FetchContent_Declare(sgrt), "
                         "expected 1")
    text = found[0]
    repo = re.findall(r"^\s*GIT_REPOSITORY\s+(\S+)", text, re.M)
    ref = re.findall(r"^\s*GIT_TAG\s+([^\s)]+)", text, re.M)
    if len(repo) != 1 or len(ref) != 1:
        raise SystemExit(f"{readme}: the FetchContent block names {repo} and {ref}: expected "
                         "one GIT_REPOSITORY and one GIT_TAG")
    return text, repo[0], ref[0]


def readme(a):
    """The README's FetchContent block, as written but for its repository:
    a git repository of this tree's files with the ref the block names."""
    if not shutil.which("git"):
        print("git not found: skipped")
        return None
    work = cmake_scratch(a)
    if work is None:
        return None
    root = pathlib.Path(a.source_root).resolve()
    text, url, ref = readme_snippet(root / "README.md")
    print(f"README.md: GIT_REPOSITORY {url}, GIT_TAG {ref}")
    problems = []
    git = ["git", "-c", "user.name=sgrt", "-c", "user.email=sgrt@localhost",
           "-c", "init.defaultBranch=unused"]
    # The ref must be one the repository has: a tag or a branch of the
    # checkout (a remote's branch counts), wherever this is a checkout.
    is_tag = False
    if subprocess.run(["git", "-C", root, "rev-parse", "--git-dir"],
                      capture_output=True).returncode == 0:
        refs = output(["git", "-C", root, "for-each-ref", "--format=%(refname)"]).split()
        is_tag = f"refs/tags/{ref}" in refs
        if not is_tag and not any(r == f"refs/heads/{ref}" or
                                  (r.startswith("refs/remotes/") and r.endswith("/" + ref))
                                  for r in refs):
            problems.append(f"README.md's GIT_TAG {ref}: no such tag or branch in {root}")
            return problems
    tree = work / "tree"
    tree.mkdir()
    for name in RELEASE_FILES:
        if (root / name).is_dir():
            shutil.copytree(root / name, tree / name,
                            ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(root / name, tree / name)
    repo = work / "sgrt.git"
    run(git + ["init", "-q", tree])
    run(git + ["-C", tree, "add", "."])
    run(git + ["-C", tree, "commit", "-q", "-m", "sgrt"])
    run(git + ["-C", tree, "tag" if is_tag else "branch", ref])
    run(git + ["clone", "-q", "--bare", tree, repo])

    consumer = work / "consumer"
    consumer.mkdir()
    main_c = HERE.parent / "consumer" / "main.c"
    (consumer / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.16)\n"
        "project(readme_fetchcontent C)\n"
        f"add_executable(game \"{main_c}\")\n" +
        text.replace(url, repo.as_uri()))
    build = work / "build"
    run(cmake_command(a, consumer, build, []))
    run([a.cmake, "--build", build])
    run([build / "game", a.version])
    check_opt_levels(build, build / "_deps" / "sgrt-src", main_c, "-O2", "", problems)
    return problems


def install(a):
    work = cmake_scratch(a)
    if work is None:
        return None
    root = pathlib.Path(a.source_root)
    build = work / "cmake-build"
    cmake_configure(a, root, build, [f"-DBUILD_SHARED_LIBS={'OFF' if a.kind == 'static' else 'ON'}"])
    # The prefix given at install, not at configure: both descriptions must
    # follow it (sgrt.pc finds its prefix from its own place).
    stage = work / "stage"
    run([a.cmake, "--install", build, "--prefix", stage])
    problems = []
    check_installed(a, stage, stage, problems)
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["sources", "golden", "subdirectory", "readme", "install"])
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
             "readme": readme, "install": install}
    return exit_status(modes[a.mode], a)


if __name__ == "__main__":
    sys.exit(main())
