#!/usr/bin/env python3
"""Start-up before and after: `tilebox-cli list` and `tilebox --version` (which reads the
catalogue and the player's variant files as the app's start does), of two builds, in turn.

    tools/start-time.py OLD_DIR NEW_DIR [--rounds 6] [--runs 100]

Each DIR holds release binaries `tilebox-cli` and `tilebox` (copy them out of target/release
of each build). Every round runs each command --runs times for each build, one build after the
other, with an empty data directory, and prints the CPU time (user + system) a run took; the
last lines give each build's median over the rounds and the ratio new / old. CPU time, not the
wall clock, so that another process on the machine weighs less.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile


def cpu_of_children():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_runs(command, runs, env):
    before = cpu_of_children()
    for _ in range(runs):
        subprocess.run(command, env=env, stdout=subprocess.PIPE, check=True)
    return (cpu_of_children() - before) / runs * 1000.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--runs", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        env = dict(os.environ, XDG_DATA_HOME=data, HOME=data)
        commands = {
            "list": lambda d: [os.path.join(d, "tilebox-cli"), "list"],
            "start": lambda d: [os.path.join(d, "tilebox"), "--version"],
        }
        times = {(name, which): [] for name in commands for which in ("old", "new")}
        for round_no in range(1, args.rounds + 1):
            for name, command in commands.items():
                for which, folder in (("old", args.old), ("new", args.new)):
                    ms = time_runs(command(folder), args.runs, env)
                    times[(name, which)].append(ms)
                    print(f"round {round_no} {name:5} {which}: {ms:.2f} ms a run", flush=True)
        for name in commands:
            old = statistics.median(times[(name, "old")])
            new = statistics.median(times[(name, "new")])
            print(f"{name}: old {old:.2f} ms, new {new:.2f} ms (median of rounds), new/old {new / old:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
