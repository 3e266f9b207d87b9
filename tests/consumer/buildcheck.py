# SPDX-License-Identifier: MIT
"""What sgrt's build checks share (tests/consumer/consumer.py for meson's
side, tests/cmake/cmake_build.py for CMake's): commands and scratch
directories, what a program links, the optimisation level sgrt's sources
were compiled with, and tests/consumer/cmake/ built against an installed
sgrt through find_package and pkg-config."""
import json
import os
import pathlib
import shlex
import shutil
import subprocess

SKIP = 77
HERE = pathlib.Path(__file__).resolve().parent


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


def cmake_scratch(a):
    """The scratch directory a.work, emptied, for a check that needs cmake;
    None, said, where there is no cmake (the check is skipped)."""
    if not a.cmake:
        print("cmake not found: skipped")
        return None
    return fresh(a.work)


def cmake_command(a, src, build, options):
    """`cmake -S src -B build` with this build's C compiler, Ninja where
    there is one (unless options name a generator) and compile_commands.json."""
    cmd = [a.cmake, "-S", src, "-B", build, "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"] + options
    if a.cc:
        cmd.append(f"-DCMAKE_C_COMPILER={shlex.split(a.cc)[-1]}")
    if shutil.which("ninja") and not any(str(o).startswith("-G") for o in options):
        cmd += ["-G", "Ninja"]
    return cmd


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


def opt_level(args):
    """The optimisation option that wins on a compile line (the last -O or
    /O one), "" when there is none (the compiler's default, -O0)."""
    level = ""
    for arg in args:
        if arg.startswith(("-O", "/O")):
            level = arg
    return level


def check_opt_levels(build, sgrt_root, consumer_source, want_sgrt, want_consumer, problems,
                     config=None):
    """build/compile_commands.json: every file of sgrt's src/ compiled with
    want_sgrt as its optimisation option and with -ffp-contract=off, the
    consumer's own consumer_source with want_consumer ("" for none). config:
    with a multi-config generator, only that configuration's lines."""
    label = f"{build.name}{f' ({config})' if config else ''}"
    src = (pathlib.Path(sgrt_root) / "src").resolve()
    consumer_source = pathlib.Path(consumer_source).resolve()
    sgrt_files, consumer_seen = 0, False
    for entry in json.loads((build / "compile_commands.json").read_text()):
        args = entry.get("arguments") or shlex.split(entry["command"])
        if config and f'-DCMAKE_INTDIR="{config}"' not in args:
            continue
        path = (pathlib.Path(entry["directory"]) / entry["file"]).resolve()
        level = opt_level(args)
        if path.is_relative_to(src):
            sgrt_files += 1
            if level != want_sgrt:
                problems.append(f"{label}: {path.relative_to(src.parent)} compiled with "
                                f"'{level or 'no -O'}', expected '{want_sgrt or 'no -O'}'")
            if "-ffp-contract=off" not in args:
                problems.append(f"{label}: {path.relative_to(src.parent)} compiled without "
                                "-ffp-contract=off")
        elif path == consumer_source:
            consumer_seen = True
            if level != want_consumer:
                problems.append(f"{label}: the consumer's {path.name} compiled with "
                                f"'{level or 'no -O'}', expected '{want_consumer or 'no -O'}'")
    print(f"{label}: {sgrt_files} sgrt sources with '{want_sgrt or 'no -O'}', the consumer's "
          f"with '{want_consumer or 'no -O'}'")
    if sgrt_files < 10:
        problems.append(f"{label}: {sgrt_files} sgrt sources in compile_commands.json")
    if not consumer_seen:
        problems.append(f"{label}: {consumer_source.name} not in compile_commands.json")


def check_installed(a, stage, prefix, problems, libdir=None, flags="", pc_prefix=None):
    """The sgrt installed under the staging directory stage, as a project
    takes it: tests/consumer/cmake/ configured with CMAKE_PREFIX_PATH=prefix
    finds the staged package at the exact version, sgrt::sgrt is the kind
    a.kind names, the program builds and runs (and, given a.cxx, main.cpp
    through the installed sgrt.hpp); then the same program built with the
    staged sgrt.pc's flags (given a.pkg_config). libdir: where the package
    files must lie (else wherever they are under stage); flags: compile and
    link flags the installed library needs; pc_prefix: the prefix sgrt.pc is
    told, where it cannot find it from its own place."""
    configs = list(stage.glob("**/cmake/sgrt/sgrtConfig.cmake"))
    pcs = list(stage.glob("**/pkgconfig/sgrt.pc"))
    if libdir is not None:
        configs = [c for c in configs if c.parent.parent.parent == libdir]
        pcs = [p for p in pcs if p.parent.parent == libdir]
    where = libdir if libdir is not None else stage
    for f in ("sgrtConfig.cmake", "sgrtConfigVersion.cmake"):
        if not configs or not (configs[0].parent / f).is_file():
            problems.append(f"not installed: cmake/sgrt/{f} under {where}")
    if not pcs:
        problems.append(f"not installed: pkgconfig/sgrt.pc under {where}")
    headers = list(stage.glob("**/sgrt.h"))
    if len(headers) != 1 or not (headers[0].parent / "sgrt.hpp").is_file():
        problems.append(f"not installed: sgrt.hpp beside sgrt.h ({headers})")
    if problems:
        return

    work = stage.parent
    want_static = a.kind == "static"
    build = work / "consumer-build"
    options = ["-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_PREFIX_PATH={prefix}",
               f"-DSGRT_WANT_VERSION={a.version}",
               f"-DSGRT_WANT_TYPE={'STATIC' if want_static else 'SHARED'}_LIBRARY",
               f"-DCMAKE_C_FLAGS={flags}", f"-DCMAKE_EXE_LINKER_FLAGS={flags}"]
    if a.cxx:
        options += ["-DSGRT_CONSUMER_CXX=ON", f"-DCMAKE_CXX_COMPILER={shlex.split(a.cxx)[-1]}",
                    f"-DCMAKE_CXX_FLAGS={flags}"]
    run(cmake_command(a, HERE / "cmake", build, options))
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
        env["PKG_CONFIG_LIBDIR"] = str(pcs[0].parent)
        env.pop("PKG_CONFIG_PATH", None)
        pc = [a.pkg_config] + ([f"--define-variable=prefix={pc_prefix}"] if pc_prefix else [])
        version = output(pc + ["--modversion", "sgrt"], env=env).strip()
        if version != a.version:
            problems.append(f"pkg-config --modversion sgrt: {version}, expected {a.version}")
        pc_flags = shlex.split(output(pc + ["--cflags", "--libs"] +
                                      (["--static"] if want_static else []) + ["sgrt"], env=env))
        print(f"pkg-config --cflags --libs sgrt: {' '.join(pc_flags)}")
        pc_exe = work / "pc-consumer"
        run(shlex.split(a.cc or "cc") + ["-std=c11", HERE / "main.c", "-o", pc_exe] +
            shlex.split(flags) + pc_flags)
        run_env = dict(os.environ)
        run_env["LD_LIBRARY_PATH"] = str(pcs[0].parent.parent)
        run([pc_exe, a.version], env=run_env)
        check_links_sgrt(a, pc_exe, want_static, problems)


def exit_status(check, a):
    """Runs check(a), which returns its problems, or None for a skip; prints
    them and returns the test's exit status."""
    try:
        problems = check(a)
    except subprocess.CalledProcessError as e:
        print(f"FAILED: {e}")
        return 1
    if problems is None:
        return SKIP
    for p in problems:
        print(f"FAILED: {p}")
    print("ok" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0
