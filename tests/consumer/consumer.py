#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""sgrt as its users' build systems see it (suite 'consumer').

  consumer.py subproject ...  tests/consumer/meson/ set up as a meson project
      with subprojects/sgrt linked to the source tree and
      -Ddefault_library=static: the program builds and runs, links sgrt
      statically (no libsgrt.so among its NEEDED entries, sgrt's functions
      defined in it), and sgrt as a subproject defines no test, benchmark or
      program of its own.
  consumer.py cmake ...  `meson install --destdir` of this build into a
      staging directory, then tests/consumer/cmake/ configured with
      CMAKE_PREFIX_PATH there: find_package(sgrt CONFIG) finds the staged
      package at the exact version, sgrt::sgrt is the library that
      default_library installed, the program builds and runs (and, given
      --cxx, main.cpp through the installed sgrt.hpp). Then the same
      program built with the staged pkg-config file's flags. Exit 77 (skip)
      without cmake.

Scratch files go to --work, emptied first and kept, for a failure's
post-mortem.
"""
import argparse
import json
import os
import pathlib
import shlex
import shutil
import subprocess
import sys

SKIP = 77


def run(cmd, **kw):
    print("+ " + " ".join(shlex.quote(str(c)) for c in cmd), flush=True)
    return subprocess.run([str(c) for c in cmd], check=True, **kw)


def output(cmd, **kw):
    return subprocess.run([str(c) for c in cmd], check=True, capture_output=True, text=True,
                          **kw).stdout


def fresh(path):
    path = pathlib.Path(path)
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    return path


def needed(readelf, exe):
    """The NEEDED entries of an ELF file's dynamic section."""
    names = []
    for line in output([readelf, "-d", exe]).splitlines():
        if "(NEEDED)" in line and "[" in line:
            names.append(line.split("[", 1)[1].rstrip("]").strip())
    return names


def defined_functions(nm, exe):
    names = set()
    for line in output([nm, "-P", "--defined-only", exe]).splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[1] in ("T", "t"):
            names.add(parts[0])
    return names


def check_links_sgrt(a, exe, want_static, problems):
    """Static: no libsgrt.so needed and sgrt's code inside; shared: the
    soversion's name needed."""
    if a.readelf:
        libs = needed(a.readelf, exe)
        print(f"{exe.name}: NEEDED {' '.join(libs) or '(none)'}")
        sgrt_libs = [n for n in libs if n.startswith("libsgrt")]
        if want_static and sgrt_libs:
            problems.append(f"{exe.name} needs {sgrt_libs}: not linked statically")
        if not want_static and sgrt_libs != [f"libsgrt.so.{a.soversion}"]:
            problems.append(f"{exe.name} needs {sgrt_libs}, expected libsgrt.so.{a.soversion}")
    if a.nm and want_static:
        funcs = defined_functions(a.nm, exe)
        for f in ("sgrt_scene_create", "sgrt_scene_update", "sgrt_version"):
            if f not in funcs:
                problems.append(f"{exe.name} does not define {f}: sgrt not linked in")


def subproject(a):
    work = fresh(a.work)
    src = work / "src"
    (src / "subprojects").mkdir(parents=True)
    here = pathlib.Path(__file__).resolve().parent
    shutil.copy(here / "meson" / "meson.build", src / "meson.build")
    shutil.copy(here / "main.c", src / "main.c")
    os.symlink(pathlib.Path(a.source_root).resolve(), src / "subprojects" / "sgrt",
               target_is_directory=True)
    build = work / "build"
    meson = shlex.split(a.meson)
    env = dict(os.environ)
    if a.cc:
        env["CC"] = a.cc
    # Options that would build sgrt's tests, benchmarks and examples, were
    # they honoured in a subproject.
    run(meson + ["setup", build, src, "--werror", "--buildtype=plain",
                 "-Ddefault_library=static", "--force-fallback-for=sgrt",
                 "-Dsgrt:tests=true", "-Dsgrt:bench=true", "-Dsgrt:examples=true"], env=env)
    run(meson + ["compile", "-C", build], env=env)
    exe = build / "consumer"
    run([exe, a.version])

    problems = []
    check_links_sgrt(a, exe, True, problems)
    targets = json.loads(output(meson + ["introspect", "--targets", build]))
    sgrt_targets = [t for t in targets if t.get("subproject") == "sgrt"]
    for t in sgrt_targets:
        print(f"sgrt target: {t['name']} ({t['type']})")
    if not any(t["name"] == "sgrt" and t["type"] == "static library" for t in sgrt_targets):
        problems.append("no static library 'sgrt' among the subproject's targets")
    for t in sgrt_targets:
        if t["type"] not in ("static library", "shared library"):
            problems.append(f"subproject target {t['name']} is a {t['type']}: "
                            "only the library must be built")
        elif t["type"] == "shared library":
            problems.append(f"subproject builds the shared library {t['name']} "
                            "with default_library=static")
    for kind in ("tests", "benchmarks"):
        defined = json.loads(output(meson + ["introspect", "--" + kind, build]))
        for t in defined:
            problems.append(f"the consumer build has the {kind[:-1]} {t['name']} "
                            f"({', '.join(t.get('suite', []))})")
    return problems


def cmake(a):
    if not a.cmake:
        print("cmake not found: skipped")
        return None
    work = fresh(a.work)
    meson = shlex.split(a.meson)
    stage = work / "stage"
    run(meson + ["install", "-C", a.build_root, "--no-rebuild", "--quiet", "--destdir", stage])
    prefix = pathlib.Path(str(stage) + str(pathlib.PurePosixPath(a.prefix)))
    # meson keeps libdir relative to the prefix unless it lies outside it.
    libdir = pathlib.Path(str(stage) + a.libdir) if os.path.isabs(a.libdir) else prefix / a.libdir
    problems = []
    for f in ("sgrtConfig.cmake", "sgrtConfigVersion.cmake"):
        if not (libdir / "cmake" / "sgrt" / f).is_file():
            problems.append(f"not installed: {libdir / 'cmake' / 'sgrt' / f}")
    headers = list(stage.glob("**/sgrt.h"))
    if len(headers) != 1 or not (headers[0].parent / "sgrt.hpp").is_file():
        problems.append(f"not installed: sgrt.hpp beside sgrt.h ({headers})")
    if problems:
        return problems

    want_static = a.kind == "static"
    flags = a.flags or ""
    build = work / "cmake-build"
    here = pathlib.Path(__file__).resolve().parent
    cmd = [a.cmake, "-S", here / "cmake", "-B", build, "-DCMAKE_BUILD_TYPE=Release",
           f"-DCMAKE_PREFIX_PATH={prefix}",
           f"-DSGRT_WANT_VERSION={a.version}",
           f"-DSGRT_WANT_TYPE={'STATIC' if want_static else 'SHARED'}_LIBRARY",
           f"-DCMAKE_C_FLAGS={flags}", f"-DCMAKE_EXE_LINKER_FLAGS={flags}"]
    if a.cc:
        cmd.append(f"-DCMAKE_C_COMPILER={shlex.split(a.cc)[-1]}")
    if a.cxx:
        cmd += ["-DSGRT_CONSUMER_CXX=ON", f"-DCMAKE_CXX_COMPILER={shlex.split(a.cxx)[-1]}",
                f"-DCMAKE_CXX_FLAGS={flags}"]
    if shutil.which("ninja"):
        cmd += ["-G", "Ninja"]
    run(cmd)
    cache = (build / "CMakeCache.txt").read_text()
    sgrt_dir = [l.split("=", 1)[1] for l in cache.splitlines() if l.startswith("sgrt_DIR:")]
    if not sgrt_dir or not pathlib.Path(sgrt_dir[0]).resolve().is_relative_to(stage.resolve()):
        problems.append(f"find_package found sgrt in {sgrt_dir}, not in {stage}")
    run([a.cmake, "--build", build])
    exe = build / "consumer"
    # No LD_LIBRARY_PATH: the imported target's location gives the program
    # its run path to the staged library.
    run([exe, a.version])
    check_links_sgrt(a, exe, want_static, problems)
    if a.cxx:
        run([build / "consumer_cpp", a.version])
        check_links_sgrt(a, build / "consumer_cpp", want_static, problems)

    if a.pkg_config:
        env = dict(os.environ)
        env["PKG_CONFIG_LIBDIR"] = str(libdir / "pkgconfig")
        env.pop("PKG_CONFIG_PATH", None)
        pc = [a.pkg_config, f"--define-variable=prefix={prefix}"]
        version = output(pc + ["--modversion", "sgrt"], env=env).strip()
        if version != a.version:
            problems.append(f"pkg-config --modversion sgrt: {version}, expected {a.version}")
        pc_flags = shlex.split(output(pc + ["--cflags", "--libs"] +
                                      (["--static"] if want_static else []) + ["sgrt"], env=env))
        print(f"pkg-config --cflags --libs sgrt: {' '.join(pc_flags)}")
        pc_exe = work / "pc-consumer"
        run(shlex.split(a.cc or "cc") + ["-std=c11", here / "main.c", "-o", pc_exe] +
            shlex.split(flags) + pc_flags)
        run_env = dict(os.environ)
        run_env["LD_LIBRARY_PATH"] = str(libdir)
        run([pc_exe, a.version], env=run_env)
        check_links_sgrt(a, pc_exe, want_static, problems)
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["subproject", "cmake"])
    ap.add_argument("--meson", required=True, help="the meson command")
    ap.add_argument("--work", required=True, help="scratch directory (emptied first)")
    ap.add_argument("--version", required=True, help="the version the library must report")
    ap.add_argument("--soversion", required=True)
    ap.add_argument("--cc", default="", help="the C compiler command of this build")
    ap.add_argument("--cxx", default="", help="cmake: the C++ compiler command of this build "
                    "(none: no C++ consumer)")
    ap.add_argument("--readelf", default="")
    ap.add_argument("--nm", default="")
    ap.add_argument("--source-root", help="subproject: sgrt's source tree")
    ap.add_argument("--build-root", help="cmake: this build, to install")
    ap.add_argument("--prefix", help="cmake: this build's prefix")
    ap.add_argument("--libdir", help="cmake: this build's libdir")
    ap.add_argument("--kind", help="cmake: this build's default_library")
    ap.add_argument("--flags", default="", help="cmake: compile and link flags the installed "
                    "library needs (sanitizers, coverage)")
    ap.add_argument("--cmake", default="")
    ap.add_argument("--pkg-config", default="")
    a = ap.parse_args()
    try:
        problems = subproject(a) if a.mode == "subproject" else cmake(a)
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
