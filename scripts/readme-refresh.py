#!/usr/bin/env python3
"""Refreshes the example outputs in README.md.

Every fenced block whose info string starts with "console" holds commands
("$ CMD") each followed by its output; this script runs each command (in sh,
from the repository root, with a freshly built chrono first on PATH) and
replaces the output below it with the real one. `go test ./cmd/chrono -run
README` then checks the result (exactly, for "console exact" blocks).

    scripts/readme-refresh.py            # every example
    scripts/readme-refresh.py 'stats'    # only commands containing 'stats'
"""
import os
import subprocess
import sys
import tempfile

only = sys.argv[1] if len(sys.argv) > 1 else None
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
bindir = tempfile.mkdtemp()
subprocess.run(["go", "build", "-o", os.path.join(bindir, "chrono"), "./cmd/chrono"], cwd=root, check=True)
env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"])

src = open(os.path.join(root, "README.md")).read().split("\n")
out, in_block, want_rc = [], False, 0
i = 0
while i < len(src):
    line = src[i]
    if line.startswith("```"):
        info = line[3:].split()
        in_block = (not in_block) and info[:1] == ["console"]
        # "console exact exit=N": the block's commands are expected to exit N.
        want_rc = next((int(w[5:]) for w in info if w.startswith("exit=")), 0) if in_block else 0
        out.append(line)
        i += 1
        continue
    if in_block and line.startswith("$ ") and (only is None or only in line):
        out.append(line)
        cmd = line[2:]
        p = subprocess.run(cmd, shell=True, cwd=root, env=env, capture_output=True, text=True)
        if p.returncode != want_rc:
            sys.exit(f"readme-refresh: {cmd!r} exited {p.returncode}:\n{p.stderr}")
        out.extend(p.stdout.rstrip("\n").split("\n"))
        i += 1
        # Skip the old output, up to the next command or the end of the block.
        while i < len(src) and not src[i].startswith("$ ") and not src[i].startswith("```"):
            i += 1
        continue
    out.append(line)
    i += 1
open(os.path.join(root, "README.md"), "w").write("\n".join(out))
print("README.md refreshed; check it with: go test ./cmd/chrono -run README")
