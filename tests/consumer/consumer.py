#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""sgrt as its users' build systems see it (suite 'consumer').

  consumer.py subproject ...  tests/consumer/meson/ set up as a meson project
      with subprojects/sgrt linked to the source tree and
      -Ddefault_library=static: the program builds and runs, links sgrt
      statically (no libsgrt.so among its NEEDED entries, sgrt's functions
      defined in it), and sgrt as a subproject defines no test, benchmark or
      program of its own. With buildtype=plain, which names no optimisation
      level, sgrt's sources are compiled with -O2 and the consumer's main.c
      with none (compile_commands.json); a level the consumer names is
      followed: buildtype=debug (-O0, said in the setup log), and plain with
      -Dc_args=-O1.
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
import sys

from buildcheck import (HERE, check_installed, check_links_sgrt, check_opt_levels,
                        cmake_scratch, exit_status, fresh, output, run)


def subproject(a):
    work = fresh(a.work)
    src = work / "src"
    (src / "subprojects").mkdir(parents=True)
    shutil.copy(HERE / "meson" / "meson.build", src / "meson.build")
    shutil.copy(HERE / "main.c", src / "main.c")
    os.symlink(pathlib.Path(a.source_root).resolve(), src / "subprojects" / "sgrt",
               target_is_directory=True)
    meson = shlex.split(a.meson)
    env = dict(os.environ)
    if a.cc:
        env["CC"] = a.cc
    env.pop("CFLAGS", None)

    def setup(name, options):
        """meson setup of the consumer; its output, which it also prints."""
        cmd = meson + ["setup", work / name, src, "--werror", "-Ddefault_library=static",
                       "--force-fallback-for=sgrt"] + options
        print("+ " + " ".join(shlex.quote(str(c)) for c in cmd), flush=True)
        text = output(cmd, env=env)
        print(text, flush=True)
        return text

    # Options that would build sgrt's tests, benchmarks and examples, were
    # they honoured in a subproject. buildtype=plain names no optimisation
    # level: sgrt must add -O2 to its own sources, and only to them.
    build = work / "build"
    setup("build", ["--buildtype=plain", "-Dsgrt:tests=true", "-Dsgrt:bench=true",
                    "-Dsgrt:examples=true"])
    problems = []
    check_opt_levels(build, a.source_root, src / "main.c", "-O2", "", problems)
    run(meson + ["compile", "-C", build], env=env)
    exe = build / "consumer"
    run([exe, a.version])
    # A level the parent asks for is followed: meson's default buildtype
    # (debug, -O0), said in the log, and an -O in c_args with plain.
    text = setup("build-debug", ["--buildtype=debug"])
    check_opt_levels(work / "build-debug", a.source_root, src / "main.c", "-O0", "-O0", problems)
    if "optimization=0: sgrt is compiled without optimisation" not in text:
        problems.append("buildtype=debug: the setup log does not say that sgrt is unoptimised")
    setup("build-plain-O1", ["--buildtype=plain", "-Dc_args=-O1"])
    check_opt_levels(work / "build-plain-O1", a.source_root, src / "main.c", "-O1", "-O1",
                     problems)

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
    work = cmake_scratch(a)
    if work is None:
        return None
    meson = shlex.split(a.meson)
    stage = work / "stage"
    run(meson + ["install", "-C", a.build_root, "--no-rebuild", "--quiet", "--destdir", stage])
    prefix = pathlib.Path(str(stage) + str(pathlib.PurePosixPath(a.prefix)))
    # meson keeps libdir relative to the prefix unless it lies outside it.
    libdir = pathlib.Path(str(stage) + a.libdir) if os.path.isabs(a.libdir) else prefix / a.libdir
    problems = []
    # sgrt.pc names the absolute prefix it was configured with.
    check_installed(a, stage, prefix, problems, libdir=libdir, flags=a.flags or "",
                    pc_prefix=prefix)
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
    return exit_status(subproject if a.mode == "subproject" else cmake, a)


if __name__ == "__main__":
    sys.exit(main())
