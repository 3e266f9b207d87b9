#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The "Where things are" table of docs/design.md against the tree.

    check_design_map.py ROOT [--pending DIR/]...

The rule, on the first table after the heading "## Where things are":

  * every backticked path in a row's first column must exist, relative to
    ROOT: a file, or a folder when it ends with "/";
  * in the second column of a row whose first column is one folder, every
    backticked plain file name (no "/", with a dot: `ref.c`) names a file
    in that folder and must exist;
  * every file under src/, tests/, bench/ and examples/ (names starting
    with "." aside) must be covered: named in a first column, under a
    folder named in a first column, or named in the second column of a
    folder row as above;
  * no file under src/ holds more than MAX_SRC_LINES lines (a file that
    grows past it is split by what it owns, and its row says so).

Each failure is printed with the row or file concerned; the exit status is
1 when there is one. --pending DIR/ reports the failures under DIR/ (listed
paths and uncovered files) without failing on them, for rows that are being
rewritten; once DIR/ has none, it fails until --pending DIR/ is dropped."""
import os
import re
import sys

TOPS = ("src", "tests", "bench", "examples")
HEADING = "## Where things are"
MAX_SRC_LINES = 450
PLAIN_FILE = re.compile(r"^[A-Za-z0-9_+-][A-Za-z0-9_.+-]*\.[A-Za-z0-9_+-]+$")


def table_rows(text):
    """The cells of the table's body rows, with their line numbers."""
    lines = text.splitlines()
    try:
        start = next(i for i, l in enumerate(lines) if l.strip() == HEADING)
    except StopIteration:
        sys.exit(f"docs/design.md: no heading '{HEADING}'")
    rows, in_table = [], False
    for n, line in enumerate(lines[start + 1:], start + 2):
        if not line.startswith("|"):
            if in_table:
                break
            continue
        in_table = True
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or set(cells[0]) <= set("-: "):
            continue  # the separator row
        rows.append((n, cells))
    return rows[1:]  # the header row


def tree_files(root):
    for top in TOPS:
        for d, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(x for x in dirs if not x.startswith("."))
            for f in sorted(files):
                if not f.startswith("."):
                    yield os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/")


def main(argv):
    args = argv[1:]
    pending = []
    while "--pending" in args:
        i = args.index("--pending")
        pending.append(args[i + 1])
        del args[i : i + 2]
    if len(args) != 1:
        sys.exit(__doc__)
    root = args[0]
    with open(os.path.join(root, "docs", "design.md"), encoding="utf-8") as f:
        rows = table_rows(f.read())

    problems = []  # (path it is about, message)
    folders, files = set(), set()
    for n, cells in rows:
        listed = re.findall(r"`([^`]+)`", cells[0])
        if not listed:
            problems.append(("", f"design.md:{n}: a row with no backticked path"))
        for p in listed:
            ok = os.path.isdir(os.path.join(root, p)) if p.endswith("/") else \
                os.path.isfile(os.path.join(root, p))
            if not ok:
                problems.append((p, f"design.md:{n}: `{p}` does not exist"))
            (folders if p.endswith("/") else files).add(p)
        if len(listed) == 1 and listed[0].endswith("/"):
            for name in re.findall(r"`([^`]+)`", cells[1]):
                if not PLAIN_FILE.match(name):
                    continue
                p = listed[0] + name
                if not os.path.isfile(os.path.join(root, p)):
                    problems.append((p, f"design.md:{n}: `{name}` is not a file in {listed[0]}"))
                files.add(p)
    for p in tree_files(root):
        if p not in files and not any(p.startswith(d) for d in folders):
            problems.append((p, f"{p}: not in the map"))

    for p in tree_files(root):
        if p.startswith("src/") and p.endswith((".c", ".h")):
            with open(os.path.join(root, p), encoding="utf-8") as f:
                lines = sum(1 for _ in f)
            if lines > MAX_SRC_LINES:
                problems.append((p, f"{p}: {lines} lines, over {MAX_SRC_LINES}"))

    def is_pending(path):
        return any(path.startswith(d) for d in pending)

    failing = [m for p, m in problems if not is_pending(p)]
    for p, m in problems:
        print(("pending: " if is_pending(p) else "") + m)
    for d in pending:
        if not any(p.startswith(d) for p, _ in problems):
            failing.append(f"--pending {d}: the map is right under {d} now; drop the option")
            print(failing[-1])
    print(f"{len(rows)} rows, {len(failing)} problem(s)")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
