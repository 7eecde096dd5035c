#!/usr/bin/env python3
"""abba.py: whole processes measured side by side, in ABBA order.

    scripts/abba.py [--rounds N] [--runs K] [--anchor LABEL] LABEL=COMMAND ...

Every round runs each COMMAND (split as a shell would, without a shell) K
times in a row, the commands in the given order in even rounds and in the
reverse order in odd ones (ABBA: a drift of the machine hits all alike).
Each run is one process, its standard streams on /dev/null; per run it
takes the wall time (from fork to reaping), the process's own CPU time
(user + system, from its rusage: wait4) and its peak resident set size
(ru_maxrss). Per round and command it keeps the mean of the K runs; it
prints per command the min, median and max over the rounds, and, against
the anchor (the first command unless --anchor names one), the ratio of
each figure computed per round, with its min, median and max over the
rounds. Not a test: figures depend on the machine and its load (printed
at the start and the end).
"""

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import time


def run_once(argv):
    """One process: (wall s, CPU s, max RSS KiB)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"abba.py: {shlex.join(argv)} exited {p.returncode}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss


def spread(xs, fmt):
    xs = sorted(xs)
    return f"min {fmt(xs[0])}, median {fmt(statistics.median(xs))}, max {fmt(xs[-1])}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=6, help="ABBA rounds (default 6)")
    ap.add_argument("--runs", type=int, default=1, help="runs of each command per round (default 1)")
    ap.add_argument("--anchor", help="label of the command the others are compared with (default: the first)")
    ap.add_argument("commands", nargs="+", metavar="LABEL=COMMAND")
    a = ap.parse_args()
    cmds = []
    for c in a.commands:
        label, sep, cmd = c.partition("=")
        if not sep or not label or not cmd:
            ap.error(f"{c!r} is not LABEL=COMMAND")
        cmds.append((label, shlex.split(cmd)))
    labels = [l for l, _ in cmds]
    anchor = a.anchor or labels[0]
    if anchor not in labels:
        ap.error(f"--anchor {anchor!r} is none of the labels {labels}")
    if a.rounds < 1 or a.runs < 1:
        ap.error("--rounds and --runs must be at least 1")

    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {a.rounds} rounds (ABBA), {a.runs} run(s) of each command per round")
    for label, argv in cmds:
        print(f"  {label}: {shlex.join(argv)}")
    per = {l: {"wall": [], "cpu": [], "rss": []} for l in labels}
    for r in range(a.rounds):
        order = cmds if r % 2 == 0 else cmds[::-1]
        for label, argv in order:
            runs = [run_once(argv) for _ in range(a.runs)]
            for k, i in (("wall", 0), ("cpu", 1), ("rss", 2)):
                per[label][k].append(statistics.fmean(x[i] for x in runs))
    print(f"load average at end:   {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    ms = lambda x: f"{x * 1e3:.2f} ms"
    mb = lambda x: f"{x / 1024:.1f} MiB"
    ratio = lambda x: f"{x:.2f}"
    print("\nper run (mean of the runs of a round; over the rounds):")
    for l in labels:
        print(f"  {l}:")
        print(f"    wall     {spread(per[l]['wall'], ms)}")
        print(f"    own CPU  {spread(per[l]['cpu'], ms)}")
        print(f"    max RSS  {spread(per[l]['rss'], mb)}")
    others = [l for l in labels if l != anchor]
    if others:
        print(f"\nratios to {anchor} (per round; over the rounds):")
        for l in others:
            print(f"  {l} / {anchor}:")
            for k, name in (("wall", "wall"), ("cpu", "own CPU"), ("rss", "max RSS")):
                rs = [x / y for x, y in zip(per[l][k], per[anchor][k]) if y > 0]
                print(f"    {name:<8} {spread(rs, ratio) if rs else 'n/a (anchor figure 0)'}")


if __name__ == "__main__":
    main()
