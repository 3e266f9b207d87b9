#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every source file carries the licence line.

    check_spdx.py ROOT

Walks the source, build and script files under ROOT (C, C++, Python, shell,
meson, CMake, cross and template files; not the fuzz corpus, not build
directories) and requires "SPDX-License-Identifier: MIT" in the first three
lines of each. Exit status 1, naming every file without it."""
import os
import sys

root = sys.argv[1]
SUFFIXES = (".c", ".h", ".cpp", ".hpp", ".py", ".sh", ".build", ".ini", ".in", ".cmake")
NAMES = ("CMakeLists.txt", "meson_options.txt", "run")
DIRS = ("src", "include", "tests", "bench", "examples", "scripts", "cmake", "cross", ".ci")
checked, missing = 0, []
candidates = [os.path.join(root, f) for f in ("meson.build", "meson_options.txt", "CMakeLists.txt")]
for d in DIRS:
    for base, dirs, files in os.walk(os.path.join(root, d)):
        dirs[:] = [x for x in dirs if x != "corpus" and not x.startswith("build")]
        candidates += [os.path.join(base, f) for f in files
                       if f.endswith(SUFFIXES) or f in NAMES]
for path in candidates:
    if not os.path.isfile(path):
        continue
    with open(path, encoding="utf-8", errors="replace") as fh:
        head = [fh.readline() for _ in range(3)]
    checked += 1
    if not any("SPDX-License-Identifier: MIT" in line for line in head):
        missing.append(os.path.relpath(path, root))
for m in missing:
    print(f"{m}: no 'SPDX-License-Identifier: MIT' in its first three lines")
print(f"{checked} files checked, {len(missing)} without the licence line")
sys.exit(1 if missing or checked < 100 else 0)
