#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The library asks nothing of the platform but a few C library functions.

Checks, for a build of sgrt:
  * the external undefined symbols of the static library (undefined in some
    member and defined in none) and the dynamic undefined symbols of the
    shared library are all in ALLOWED (or compiler-runtime helpers, below);
  * the shared library exports exactly the functions that include/sgrt.h
    declares with SGRT_API (--header);
  * src/ includes no system header outside the C11 freestanding set, string.h,
    stdlib.h in the one file that holds the default allocator,
    stdatomic.h in the one that keeps a kernel for sgrt_trs_to_matrices and
    in the one that keeps what the CPU runs and in the skins' header
    (their words shared by a parallel update's tasks), and
    xxhash.h (inlined XXH3) in the one that hashes a scene and the one that
    compiles it for wider ISAs.

A Windows DLL (PE) has no dynamic symbol table: its imports and exports are
read with the target's objdump (--objdump). Every DLL that MinGW-w64 links
imports what its startup code needs (critical sections, TLS, the
pseudo-relocation fix-ups, their error message): --baseline names a DLL with
nothing but one function, linked the same way, and its imports are allowed.

So the library builds for consoles and bare-metal targets: no OS calls, no
threads, no stdio. Run as a meson test; exits 1 with the offending names.
"""
import argparse
import pathlib
import re
import subprocess
import sys

# The C library, and why each is needed.
ALLOWED = {
    "memcpy": "string.h: copies of matrices and arrays",
    "memmove": "string.h: overlapping moves in storage",
    "memset": "string.h: clearing bitfields and new storage",
    "memcmp": "string.h: bit-identical comparison of locals",
    # clang turns memcmp(...) == 0 into bcmp, only for targets whose C
    # library it knows to have one (glibc, Darwin); elsewhere it keeps memcmp.
    "bcmp": "clang's form of memcmp(...) == 0 (see above)",
    "aligned_alloc": "stdlib.h: the default allocator (replaced by sgrt_allocator)",
    "free": "stdlib.h: the default allocator (replaced by sgrt_allocator)",
    # The Windows C runtime has no aligned_alloc (src/alloc.c).
    "_aligned_malloc": "malloc.h: the default allocator on Windows",
    "_aligned_free": "malloc.h: the default allocator on Windows",
}

# Compiler runtime (libgcc / compiler-rt): integer helpers the compiler may
# call where the target lacks an instruction (popcount without POPCNT, 64-bit
# division on 32-bit targets, division on ARMv7-A). They are part of every
# toolchain, freestanding ones included, and touch no OS.
RUNTIME = re.compile(
    r"^(__popcount[sd]i2|__(ctz|clz|ffs|parity)[sd]i2|__u?(div|mod)di3|__udivmoddi4|__divmoddi4"
    r"|__aeabi_u?idiv(mod)?|__aeabi_u?ldivmod|__aeabi_[lu]?[ls]r|__aeabi_llsl|__aeabi_lasr"
    r"|__aeabi_uldivmod)$")

# Hardened toolchains (-fstack-protector by default) add the canary check,
# which the C runtime provides on every target that enables it.
HARDENING = {"__stack_chk_fail", "__stack_chk_guard", "__stack_chk_fail_local"}

# Defined by the linker for position-independent code, not by a library.
LINKER = {"_GLOBAL_OFFSET_TABLE_", "__dso_handle"}

# Pulled into a shared object from libgcc.a by the helpers above, per
# target: on ARM, __aeabi_uidivmod's division-by-zero path (__aeabi_idiv0 in
# _dvmd_lnx.o) calls raise(SIGFPE). Not called by the library's code (the
# static library check sees the library's own references); a freestanding
# runtime supplies its own __aeabi_idiv0.
RUNTIME_PULLED = {"arm": {"raise"}}

# Weak references that crtbeginS.o adds to every shared object; not ours.
CRT_WEAK = {"__cxa_finalize", "_ITM_registerTMCloneTable", "_ITM_deregisterTMCloneTable",
            "__gmon_start__", "_Jv_RegisterClasses"}

# Instrumented builds (sanitizers, coverage) call their runtimes.
INSTRUMENTED = re.compile(r"^(__asan_|__ubsan_|__tsan_|__msan_|__lsan_|__sanitizer_|__gcov_"
                          r"|__llvm_gcov|__llvm_profile|__emutls_)")

FREESTANDING = {"float.h", "iso646.h", "limits.h", "stdalign.h", "stdarg.h", "stdbool.h",
                "stddef.h", "stdint.h", "stdnoreturn.h",
                # GCC's and clang's own header: the CPUID instruction inline, no OS.
                "cpuid.h"}
HOSTED_ALLOWED = {"string.h": None, "stdlib.h": {"alloc.c"},
                  # Windows and MSVC only (_aligned_malloc, _BitScanForward,
                  # __cpuidex, _xgetbv): compiler intrinsics and the default
                  # allocator, inside #if branches no other target compiles.
                  "malloc.h": {"alloc.c"}, "intrin.h": {"bits.h", "select.c", "skin.h"},
                  "immintrin.h": {"select.c"},
                  # C11 atomics, the compiler's own header: the kernel that
                  # sgrt_trs_to_matrices keeps, in a pointer, what the CPU
                  # runs, in a 32-bit word, each used only where it is
                  # lock-free (no libatomic call; the symbols say so), and
                  # the 32-bit words a skin's after hooks share between the
                  # tasks of a parallel update.
                  "stdatomic.h": {"trs_matrices.c", "select.c", "skin.h"},
                  # xxHash's XXH3, inlined for sgrt_scene_hash: it includes
                  # stdlib.h and string.h itself, but only memcpy is used (its
                  # state allocators are static and never emitted: the
                  # symbol checks above say so).
                  # and in the files that compile it for AVX2 and AVX-512
                  # (their shared body, xxh3_wide.h).
                  "xxhash.h": {"hash.c", "xxh3_wide.h"}}


def nm_lines(nm, args):
    out = subprocess.run([nm] + args, check=True, capture_output=True, text=True).stdout
    return out.splitlines()


def strip_version(name):
    return name.split("@", 1)[0]


def strip_import(name):
    """A call through a DLL's import table refers to __imp_<name> (PE)."""
    return name[len("__imp_"):] if name.startswith("__imp_") else name


def is_pe(path):
    with open(path, "rb") as f:
        return f.read(2) == b"MZ"


def pe_tables(objdump, dll):
    """(imports as {dll name: set of names}, set of exported names)."""
    out = subprocess.run([objdump, "-p", dll], check=True, capture_output=True,
                         text=True).stdout
    imports, exports = {}, set()
    current = None
    in_exports = False
    for line in out.splitlines():
        m = re.match(r"\s*DLL Name: (\S+)", line)
        if m:
            current = imports.setdefault(m.group(1), set())
            in_exports = False
            continue
        if line.startswith("[Ordinal/Name Pointer] Table"):
            in_exports, current = True, None
            continue
        if not line.strip():
            in_exports = False
            continue
        if in_exports:
            m = re.match(r"\s*\[\s*\d+\]\s+(\S+)", line)
            if m:
                exports.add(m.group(1))
        elif current is not None:
            # "vma  hint  name": imports by ordinal have no name.
            m = re.match(r"\s*[0-9a-fA-F]+\s+\d+\s+(\S+)$", line)
            if m:
                current.add(m.group(1))
    return imports, exports


def api_functions(header):
    """The functions include/sgrt.h declares with SGRT_API."""
    text = pathlib.Path(header).read_text()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    names = set(re.findall(r"^\s*(?:SGRT_NODISCARD\s+)?SGRT_API\b[^;(]*?\b(sgrt_\w+)\s*\(",
                           text, flags=re.M))
    return names


def static_external_undefined(nm, archive):
    defined, undefined = set(), set()
    for line in nm_lines(nm, ["-P", archive]):
        # "name type [value size]"; member headers end in ':' and are skipped.
        parts = line.split()
        if len(parts) < 2 or line.endswith(":"):
            continue
        name, kind = parts[0], parts[1]
        if kind in ("U", "w", "v"):
            undefined.add(strip_import(name))
        else:
            defined.add(name)
    return undefined - defined


def shared_undefined(nm, shlib, cpu_family, objdump=None, baseline=None):
    if is_pe(shlib):
        imports, _ = pe_tables(objdump, shlib)
        startup = set()
        if baseline:
            for names in pe_tables(objdump, baseline)[0].values():
                startup |= names
        print(f"shared library imports from: {' '.join(sorted(imports))}"
              f" ({len(startup)} names imported by every DLL of this toolchain)")
        return {n for names in imports.values() for n in names} - startup
    names = set()
    pulled = RUNTIME_PULLED.get(cpu_family, set())
    for line in nm_lines(nm, ["-D", "-P", "--undefined-only", shlib]):
        parts = line.split()
        if parts:
            name = strip_version(parts[0])
            if name not in CRT_WEAK and name not in pulled:
                names.add(name)
    return names


# Defined by the linker in some ELF toolchains' dynamic symbol tables.
LINKER_EXPORTS = {"_init", "_fini", "_edata", "_end", "__bss_start"}


def shared_exports(nm, shlib, objdump=None):
    if is_pe(shlib):
        return pe_tables(objdump, shlib)[1]
    names = set()
    for line in nm_lines(nm, ["-D", "-P", "--defined-only", shlib]):
        parts = line.split()
        if parts and strip_version(parts[0]) not in LINKER_EXPORTS:
            names.add(strip_version(parts[0]))
    return names


def allowed(name, instrumented):
    if name in ALLOWED or name in HARDENING or name in LINKER or RUNTIME.match(name):
        return True
    return instrumented and bool(INSTRUMENTED.match(name))


def check_includes(src):
    bad = []
    for f in sorted(pathlib.Path(src).rglob("*.[ch]")):
        for n, line in enumerate(f.read_text().splitlines(), 1):
            m = re.match(r'\s*#\s*include\s*<([^>]+)>', line)
            if not m:
                continue
            h = m.group(1)
            if h in FREESTANDING or h.startswith("simde/"):
                continue
            if h in HOSTED_ALLOWED and (HOSTED_ALLOWED[h] is None or f.name in HOSTED_ALLOWED[h]):
                continue
            bad.append(f"{f.name}:{n}: #include <{h}>")
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nm", required=True)
    ap.add_argument("--static", help="libsgrt.a (skipped for LTO builds)")
    ap.add_argument("--shared", help="libsgrt.so")
    ap.add_argument("--src", help="src/ directory to scan for includes")
    ap.add_argument("--header", help="include/sgrt.h: the shared library exports its SGRT_API "
                                     "functions, and nothing else")
    ap.add_argument("--objdump", help="the target's objdump (a Windows DLL's tables)")
    ap.add_argument("--baseline", help="Windows: a DLL with nothing in it, linked the same way")
    ap.add_argument("--cpu-family", default="", help="meson's host cpu_family")
    ap.add_argument("--instrumented", action="store_true",
                    help="sanitizer or coverage build: allow their runtime calls")
    a = ap.parse_args()

    failures = 0
    checked = 0
    for label, names in (("static library", static_external_undefined(a.nm, a.static) if a.static else None),
                         ("shared library", shared_undefined(a.nm, a.shared, a.cpu_family, a.objdump,
                                                             a.baseline) if a.shared else None)):
        if names is None:
            continue
        checked += 1
        bad = sorted(n for n in names if not allowed(n, a.instrumented))
        print(f"{label}: {len(names)} external symbols: {' '.join(sorted(names))}")
        if not names:
            print(f"{label}: no undefined symbols at all: the check could not have seen anything")
            failures += 1
        for n in bad:
            print(f"{label}: NOT ALLOWED: {n}")
        failures += len(bad)
    if a.shared and a.header:
        checked += 1
        api = api_functions(a.header)
        exported = {n for n in shared_exports(a.nm, a.shared, a.objdump)
                    if not (a.instrumented and INSTRUMENTED.match(n))}
        print(f"shared library: exports {len(exported)} symbols; the header declares "
              f"{len(api)} API functions")
        if not api:
            print("no SGRT_API function found in the header: the check could not have seen anything")
            failures += 1
        for n in sorted(api - exported):
            print(f"shared library: NOT EXPORTED: {n}")
        for n in sorted(exported - api):
            print(f"shared library: EXPORTED BUT NOT API: {n}")
        failures += len(api ^ exported)
    if a.src:
        checked += 1
        bad = check_includes(a.src)
        for b in bad:
            print(f"NOT ALLOWED: {b}")
        failures += len(bad)
    if checked == 0:
        print("nothing to check")
        return 1
    print("ok" if failures == 0 else f"{failures} problem(s)")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
