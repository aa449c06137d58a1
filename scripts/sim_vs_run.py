#!/usr/bin/env python3
"""Run one kernel file with `tilec run` and `tilec sim` on the same seeded inputs.

    scripts/sim_vs_run.py FILE [tilec options...] [--tilec build/tilec]

The options (-k, -a, -d, --fill, --seed, -i, --pass-config, ...) go to both
commands. A race-free kernel's outputs must be byte for byte the same: the
simulator's values come from the executor running the split, synchronised
per-core programs, `tilec run`'s from the language's reference semantics. Prints
one line: races, cycles, the syncs executed, and for each output whether the
two agree. Exit status 0 when the simulator is clean and every output agrees.
"""
import json
import os
import subprocess
import sys
import tempfile


def main():
    args = sys.argv[1:]
    tilec = "build/tilec"
    if "--tilec" in args:
        i = args.index("--tilec")
        tilec = args[i + 1]
        del args[i:i + 2]
    if not args or args[0].startswith("-"):
        sys.exit(__doc__)
    path, opts = args[0], args[1:]
    with tempfile.TemporaryDirectory() as tmp:
        run_dir, sim_dir = os.path.join(tmp, "run"), os.path.join(tmp, "sim")
        report = os.path.join(tmp, "sim.json")
        run = subprocess.run([tilec, "run", path, *opts, "-o", run_dir],
                             capture_output=True, text=True)
        sim = subprocess.run([tilec, "sim", path, *opts, "-o", sim_dir, "--json", report],
                             capture_output=True, text=True)
        if run.returncode != 0 or not os.path.exists(report):
            sys.stderr.write(run.stderr + sim.stderr)
            print(f"{path}: tilec run exit {run.returncode}, tilec sim exit {sim.returncode}")
            return 1
        rep = json.load(open(report))
        outs = sorted(os.listdir(run_dir))
        same = []
        for name in outs:
            a = open(os.path.join(run_dir, name), "rb").read()
            b_path = os.path.join(sim_dir, name)
            b = open(b_path, "rb").read() if os.path.exists(b_path) else None
            same.append((name[:-4], a == b))
        syncs = ", ".join(f"{k} {v}" for k, v in rep["syncs"].items() if v)
        print(f"{path}: races {len(rep['races'])}, benign {len(rep['benign_races'])}, "
              f"errors {len(rep['errors'])} | cycles {rep['cycles']} | syncs {syncs or 'none'} | "
              + ", ".join(f"{n} {'same' if ok else 'DIFFERENT'}" for n, ok in same))
        clean = sim.returncode == 0 and all(ok for _, ok in same)
        return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
