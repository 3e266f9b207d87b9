#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The C++ layer covers the C API: include/sgrt.hpp against include/sgrt.h.

    check_cpp_layer.py ROOT
    check_cpp_layer.py --self-test

Every function that sgrt.h declares with SGRT_API must be either called by
sgrt.hpp's code (its name followed by "(" outside comments and strings) or
named in one of sgrt.hpp's comments by a line of the form

    `sgrt_name`: not wrapped, <why, in a few words>

A function named so must not be called as well (the note would be stale),
and every name so noted must be one sgrt.h declares. Each failure names the
function; the exit status is 1 when there is one. --self-test runs the rule
on made-up headers (a function missing, a stale note, an unknown one) and
fails unless it finds exactly those."""
import os
import re
import sys

DECL = re.compile(r"\bSGRT_API\b[^;{}]*?\b(sgrt_\w+)\s*\(")
NOTE = re.compile(r"`(sgrt_\w+)`: not wrapped, (\S+(?:[ \t]+\S+){2,})")
# Comments and string or character literals, in one pass so that a "//"
# inside a string or a quote inside a comment cannot mislead.
TOKENS = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def split(text):
    """(code with comments and literals blanked, the comments' text)."""
    comments = []

    def blank(m):
        if m.group(0).startswith("/"):
            comments.append(m.group(0))
        return " "

    return TOKENS.sub(blank, text), "\n".join(comments)


def declared(header):
    code, _ = split(header)
    code = "\n".join(l for l in code.splitlines() if not l.lstrip().startswith("#"))
    names = DECL.findall(code)
    if len(names) != len(re.findall(r"\bSGRT_API\b", code)):
        sys.exit("sgrt.h: an SGRT_API declaration this script cannot read")
    return names


def problems(header, layer):
    names = declared(header)
    code, comments = split(layer)
    called = {n for n in names if re.search(r"\b" + n + r"\s*\(", code)}
    noted = {}
    for name, why in NOTE.findall(comments):
        noted[name] = why
    out = []
    for n in names:
        if n not in called and n not in noted:
            out.append(f"{n}: neither called by sgrt.hpp nor noted there as not wrapped")
    for n in sorted(noted):
        if n not in names:
            out.append(f"{n}: noted as not wrapped in sgrt.hpp, but sgrt.h declares no such function")
        elif n in called:
            out.append(f"{n}: noted as not wrapped in sgrt.hpp, but sgrt.hpp calls it")
    return names, called, noted, out


def self_test():
    header = """
/* SGRT_API in a comment: not a declaration */
#define SGRT_API
SGRT_API int sgrt_called(void);
SGRT_NODISCARD SGRT_API sgrt_result sgrt_noted(const sgrt_scene *s,
                                                int x);
SGRT_API void sgrt_missing(void);
SGRT_API void sgrt_stale(void);
SGRT_API void sgrt_in_string(void);
"""
    layer = """
// `sgrt_noted`: not wrapped, the reason in a few words
/* `sgrt_stale`: not wrapped, a note left behind here
   `sgrt_unknown`: not wrapped, a function nobody declares */
inline int a() { return sgrt_called(); }
inline void b() { sgrt_stale(); }
inline const char *c() { return "sgrt_in_string()"; } // sgrt_missing()
"""
    names, called, noted, out = problems(header, layer)
    want = {"sgrt_missing", "sgrt_in_string", "sgrt_stale", "sgrt_unknown"}
    got = {line.split(":")[0] for line in out}
    ok = (names == ["sgrt_called", "sgrt_noted", "sgrt_missing", "sgrt_stale", "sgrt_in_string"]
          and called == {"sgrt_called", "sgrt_stale"} and set(noted) == {"sgrt_noted",
          "sgrt_stale", "sgrt_unknown"} and got == want and len(out) == 4)
    for line in out:
        print("found: " + line)
    print("self-test " + ("passed" if ok else f"FAILED: expected problems with {sorted(want)}"))
    return 0 if ok else 1


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        sys.exit(__doc__)
    root = argv[1]
    with open(os.path.join(root, "include", "sgrt.h"), encoding="utf-8") as f:
        header = f.read()
    with open(os.path.join(root, "include", "sgrt.hpp"), encoding="utf-8") as f:
        layer = f.read()
    names, called, noted, out = problems(header, layer)
    for line in out:
        print(line)
    print(f"sgrt.h declares {len(names)} functions: {len(called)} called by sgrt.hpp, "
          f"{len(noted)} noted as not wrapped; {len(out)} problem(s)")
    return 1 if out or len(names) < 60 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
