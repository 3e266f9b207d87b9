#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""No fused multiply-add instruction anywhere in the library's code.

A fused a*b + c rounds once where the reference rounds twice, so one FMA
(from contraction the build forgot to forbid, or from an intrinsic) changes
results on that target only. The golden test would see the hash change; this
check says where: it disassembles the static library with the target's
objdump and lists every fused instruction with its function.

Exit 0: none; 1: some found; 77 (meson's skip): no pattern for this CPU family.
"""
import argparse
import re
import subprocess
import sys

# Fused multiply-add mnemonics per meson cpu_family. Chained (non-fused)
# multiply-accumulate such as ARMv7 VMLA rounds twice and is not listed.
FUSED = {
    "x86": r"vfn?m(add|sub)\w*|vfmaddsub\w*|vfmsubadd\w*",
    "x86_64": r"vfn?m(add|sub)\w*|vfmaddsub\w*|vfmsubadd\w*",
    "aarch64": r"fn?madd|fn?msub|fmla|fmls",
    "arm": r"vfn?m[as](\.\w+)?",
    "s390x": r"ma[ed]br?|ms[ed]br?|[vw]fn?m[as][sd]b",
    "ppc": r"fn?m(add|sub)s?|xs(n)?m(add|sub)[am][sd]p|xvn?m(add|sub)[am][sd]p|vn?maddfp|vnmsubfp",
    "ppc64": r"fn?m(add|sub)s?|xs(n)?m(add|sub)[am][sd]p|xvn?m(add|sub)[am][sd]p|vn?maddfp|vnmsubfp",
    "riscv64": r"fn?m(add|sub)\.[sd]|vfn?m(acc|add|sac|sub)\.\w+",
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--objdump", required=True)
    ap.add_argument("--cpu-family", required=True)
    ap.add_argument("objects", nargs="+", help="static libraries or object files")
    a = ap.parse_args()
    if a.cpu_family not in FUSED:
        print(f"no fused multiply-add pattern for cpu family {a.cpu_family}: skipped")
        return 77
    insn = re.compile(r"^\s*[0-9a-f]+:\s+(?:[0-9a-f]{2,8}\s)+\s*(" + FUSED[a.cpu_family] + r")\b")
    func = re.compile(r"^[0-9a-f]+ <([^>]+)>:")
    found = []
    lines = 0
    for obj in a.objects:
        out = subprocess.run([a.objdump, "-d", obj], check=True, capture_output=True,
                             text=True).stdout
        where = "?"
        for line in out.splitlines():
            lines += 1
            m = func.match(line)
            if m:
                where = m.group(1)
                continue
            m = insn.match(line)
            if m:
                found.append(f"{where}: {line.strip()}")
    if lines < 100:
        print("objdump printed almost nothing: the check could not have seen anything")
        return 1
    for f in found:
        print("FUSED:", f)
    print(f"{lines} lines of disassembly, {len(found)} fused multiply-add instruction(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
