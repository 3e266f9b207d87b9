#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The README's Usage example against examples/usage.c.

    check_readme_usage.py ROOT

The first C code block after the heading "## Usage" in ROOT/README.md must
be exactly ROOT/examples/usage.c (less its SPDX line), which the examples suite builds and runs:
the program a reader copies is the one that is tested. Exit status 1, with
the first differing line, when they differ."""
import re
import sys

root = sys.argv[1]
readme = open(f"{root}/README.md", encoding="utf-8").read()
match = re.search(r"^## Usage\n.*?```c\n(.*?)```", readme, re.S | re.M)
if not match:
    print("README.md: no C code block under '## Usage'")
    sys.exit(1)
block = match.group(1).splitlines()
source = open(f"{root}/examples/usage.c", encoding="utf-8").read().splitlines()
if source and source[0].startswith("/* SPDX-License-Identifier:"):
    source = source[1:]  # the licence line stays in the file, not in the README
for i, (a, b) in enumerate(zip(block, source), 1):
    if a != b:
        print(f"line {i}: README has\n  {a}\nexamples/usage.c has\n  {b}")
        sys.exit(1)
if len(block) != len(source):
    print(f"README's block has {len(block)} lines, examples/usage.c {len(source)}")
    sys.exit(1)
print(f"README's Usage block is examples/usage.c ({len(source)} lines)")
