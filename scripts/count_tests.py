#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Sum meson test results under the given directories (every
meson-logs/testlog.json found) plus extra result files (*.results: one
"name pass|fail" per line), print "N passed, N failed", exit 1 on failure."""
import json
import pathlib
import sys

passed = failed = 0
for root in sys.argv[1:] or ["."]:
    for log in sorted(pathlib.Path(root).glob("**/meson-logs/testlog.json")):
        for line in log.read_text().splitlines():
            if not line.strip():
                continue
            res = json.loads(line).get("result")
            if res in ("OK", "EXPECTEDFAIL"):
                passed += 1
            elif res != "SKIP":
                failed += 1
    for extra in sorted(pathlib.Path(root).glob("**/*.results")):
        for line in extra.read_text().splitlines():
            parts = line.split()
            if len(parts) >= 2:
                if parts[-1] == "pass":
                    passed += 1
                else:
                    failed += 1
print(f"{passed} passed, {failed} failed")
sys.exit(0 if failed == 0 and passed > 0 else 1)
