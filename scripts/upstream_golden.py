#!/usr/bin/env python3
"""Run upstream developer-mode and DeepSeek-V4 kernel files at their own test shapes and check
them against goldens written from the files' own reference code.

    scripts/upstream_golden.py --tla DIR [--tla-old GITDIR] [--recipes DIR|GITDIR]
                               [--only REGEX] [--targets sim,cpu,pto] [--pto-isa DIR]
                               [--lock FILE] [--table FILE] [--keep DIR] [--timeout S] [--list]

--tla is a folder holding tilelang-ascend's newest files (its examples/ beneath it),
--tla-old a git directory of an older tilelang-ascend snapshot (read with `git show HEAD:path`:
the files that differ from the newest are checked in both versions), --recipes
cann-recipes-infer (a folder or a git directory). Upstream files are read, never copied into
the repository.

For each case (a file, its kernel and the arguments its test passes) the tool generates the
inputs as the file's test does (same distributions, a seeded NumPy generator: not torch's
numbers), runs `tilec sim` (the race-free check: no race, no sync or memory error) and the other
targets with `tilec run --target T` (ref, cpu, pto: --pto-isa DIR or $PTO_ISA_DIR for pto), and
compares every output with a golden computed here by a
NumPy re-implementation of the file's reference code, with the tolerances of the file's own
assert (|got - golden| <= atol + rtol * |golden|, torch.testing.assert_close's rule). It prints
one row per case (races, max abs error per target, the build and run seconds tilec reports for
each `tilec run` target, pass/fail) and, with --table, writes the
rows as a Markdown table. Exit 0 when every case passes.

--lock FILE runs each tilec command under `flock FILE` (the shared build lock), except those of
the cases marked light (a second or two each, measured). NumPy is needed
(this is a local tool; tilec itself does not use NumPy).
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

try:
    import numpy as np
except ImportError:  # said clearly in main(); nothing else works without it
    np = None

from golden_cases import CASES  # noqa: E402  (the case table, next to this file)


# ---------------------------------------------------------------------------- files


def is_git_dir(path):
    return os.path.isdir(os.path.join(path, "objects")) and os.path.exists(os.path.join(path, "HEAD"))


def materialise(root, rel, tmp):
    """The case's file as a path on disk: in the folder `root`, or taken out of the git directory
    `root` with the .py files of its folder (sibling imports) into `tmp`."""
    if not is_git_dir(root):
        path = os.path.join(root, rel)
        return path if os.path.exists(path) else None
    folder = os.path.dirname(rel)
    out = os.path.join(tmp, "git", folder)
    os.makedirs(out, exist_ok=True)
    ls = subprocess.run(["git", "--git-dir", root, "ls-tree", "--name-only", "HEAD", folder + "/"],
                        capture_output=True, text=True)
    for name in ls.stdout.split():
        if name.endswith(".py") and not os.path.exists(os.path.join(tmp, "git", name)):
            blob = subprocess.run(["git", "--git-dir", root, "show", "HEAD:" + name], capture_output=True)
            if blob.returncode == 0:
                with open(os.path.join(tmp, "git", name), "wb") as f:
                    f.write(blob.stdout)
    path = os.path.join(tmp, "git", rel)
    return path if os.path.exists(path) else None


def same_text(a, b):
    try:
        return open(a, "rb").read() == open(b, "rb").read()
    except OSError:
        return False


# ---------------------------------------------------------------------------- npy and dtypes


def bf16_bits(x):
    """float32 -> bfloat16 bits, round to nearest even (NaN kept a NaN)."""
    u = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(np.asarray(x, dtype=np.float32))
    r[nan] = 0x7FC0
    return r


def bf16_to_f32(bits):
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def bf16(x):
    """x rounded to bfloat16, as float32."""
    return bf16_to_f32(bf16_bits(x))


def save_input(path, value):
    """value is (array, dtype name); bfloat16 goes as its uint16 bits (tilec accepts them)."""
    arr, dtype = value
    if dtype == "bfloat16":
        arr = bf16_bits(arr)
    else:
        arr = np.ascontiguousarray(arr, dtype=np.dtype(dtype))
    np.save(path, arr)


def load_output(path):
    a = np.load(path)
    if a.dtype.names:  # bfloat16 / fp8: one-field structured arrays of the bits
        bits = a.view(a.dtype[0])
        if bits.dtype == np.uint16:
            return bf16_to_f32(bits)
        raise ValueError(f"{path}: structured dtype {a.dtype} not understood")
    return a


def compare(got, want, rtol, atol):
    """(ok, max abs error, mismatches, total) by torch.testing.assert_close's rule."""
    if got.shape != want.shape:
        if got.size == want.size:
            got = got.reshape(want.shape)
        else:
            return False, float("inf"), want.size, want.size
    g = got.astype(np.float64)
    w = want.astype(np.float64)
    diff = np.abs(g - w)
    bad = ~(diff <= atol + rtol * np.abs(w))  # NaN anywhere is a mismatch
    maxerr = float(np.nanmax(diff)) if diff.size else 0.0
    if np.isnan(diff).any():
        maxerr = float("nan")
    return not bad.any(), maxerr, int(bad.sum()), int(w.size)


# ---------------------------------------------------------------------------- running tilec


def tilec_cmd(opt, command, path, case, inputs_dir, out_dir, extra):
    cmd = [opt.tilec, command, path]
    if case.get("kernel"):
        cmd += ["-k", case["kernel"]]
    for k, v in case.get("args", {}).items():
        cmd += ["-a", f"{k}={v!r}" if not isinstance(v, str) else f"{k}={v!r}"]
    for k, v in case.get("dims", {}).items():
        cmd += ["-d", f"{k}={v}"]
    for name in sorted(os.listdir(inputs_dir)):
        cmd += ["-i", f"{name[:-4]}={os.path.join(inputs_dir, name)}"]
    cmd += ["-o", out_dir] + extra
    for pc in opt.pass_config:
        cmd += ["--pass-config", pc]
    return cmd


def run(opt, cmd, light=False):
    """light: a case whose runs take a second or two (the team's rule: no lock needed)."""
    full = (["flock", opt.lock] if opt.lock and not light else []) + cmd
    t0 = time.time()
    # its own process group: a time-out ends flock, tilec and the executable tilec runs (the cpu
    # and pto targets run the kernel in a child process), not flock alone
    p = subprocess.Popen(full, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        _, err = p.communicate(timeout=opt.timeout)
        return p.returncode, err, time.time() - t0
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return 124, f"timed out after {opt.timeout} s", time.time() - t0


def short_error(stderr):
    for line in stderr.splitlines():
        if "error:" in line:
            return re.sub(r"^\S+?:\d+:\d+: ", "", line).strip()[:160]
    lines = [l for l in stderr.strip().splitlines() if l.strip()]
    return lines[-1][:160] if lines else "(no message)"


def race_text(r):
    a, b = r["first"], r["second"]
    return (f"{r['kind']} {r['space']} {a['buffer']} x{r['count']}: {a['op']}@{a['line']}({a['pipe']}) -> "
            f"{b['op']}@{b['line']}({b['pipe']})")


def calc_diff(got, want):
    """The tile_kernels tests' _calc_diff: mean |got - want| / max(mean |got|, 1e-6)."""
    g = got.astype(np.float64).reshape(want.shape)
    return float(np.abs(g - want.astype(np.float64)).mean() / max(np.abs(g).mean(), 1e-6)) if g.size else 0.0


def check_outputs(out_dir, golden, case):
    """{output: (ok, maxerr, bad, total)} for every golden output; a missing file fails. The
    case's tol gives (rtol, atol) per output (or '*'), or ('calc_diff', limit) for the tests that
    judge by a mean relative difference; its post maps an output before the comparison."""
    if "check" in case:  # a file-specific verification (lightning_indexer's index-set check)
        names = [n for n in golden if not n.startswith("_")]  # '_x': the check's extra data
        got = {n: load_output(os.path.join(out_dir, n + ".npy")) for n in names
               if os.path.exists(os.path.join(out_dir, n + ".npy"))}
        return case["check"](got, golden) if len(got) == len(names) else \
            {n: (False, float("nan"), -1, golden[n].size) for n in names}
    res = {}
    tols, post = case["tol"], case.get("post", {})
    for name, want in golden.items():
        p = os.path.join(out_dir, name + ".npy")
        if not os.path.exists(p):
            res[name] = (False, float("nan"), -1, want.size)
            continue
        got = load_output(p)
        if name in post:
            got = post[name](got)
        rtol, atol = tols.get(name, tols.get("*"))
        if rtol == "calc_diff":
            d = calc_diff(got, want)
            ok, maxerr, bad, total = compare(got, want, 0.0, float("inf"))
            res[name] = (d < atol and ok, maxerr, 0 if d < atol else total, total)
        else:
            res[name] = compare(got, want, rtol, atol)
    return res


def run_case(opt, case, path, tmp):
    """Runs one case on every target; returns the row."""
    seed = case.get("seed", 0)
    rng = np.random.default_rng(seed)
    inputs = case["inputs"](rng)
    inputs_dir = os.path.join(tmp, "in")
    os.makedirs(inputs_dir, exist_ok=True)
    for name, value in inputs.items():
        if name.startswith("_"):  # the golden's extra data (not a kernel parameter)
            continue
        save_input(os.path.join(inputs_dir, name + ".npy"), value)
    t0 = time.time()
    golden = case["golden"]({k: v[0] for k, v in inputs.items()})
    golden_s = time.time() - t0
    row = {"case": case["name"], "file": case["file"], "kernel": case.get("kernel") or "-",
           "shape": case["shape"], "golden_s": golden_s, "targets": {}}
    for target in opt.targets:
        out_dir = os.path.join(tmp, "out-" + target)
        if target == "sim":
            report = os.path.join(tmp, "sim.json")
            cmd = tilec_cmd(opt, "sim", path, case, inputs_dir, out_dir, ["--json", report])
        else:
            facts = os.path.join(tmp, f"run-{target}.json")
            extra = ["--target", target, "--json", facts]
            if target == "pto" and opt.pto_isa:
                extra += ["--pto-isa", opt.pto_isa]
            cmd = tilec_cmd(opt, "run", path, case, inputs_dir, out_dir, extra)
        rc, err, secs = run(opt, cmd, case.get("light", False))
        t = {"rc": rc, "secs": secs, "cmd": cmd}
        if target != "sim" and os.path.exists(facts):
            rep = json.load(open(facts))  # tilec's own times: the build (0 when cached) and the run
            t["compile_s"], t["run_s"], t["cached"] = rep.get("compile_s"), rep.get("run_s"), rep.get("cached")
        if target == "sim" and os.path.exists(os.path.join(tmp, "sim.json")):
            rep = json.load(open(os.path.join(tmp, "sim.json")))
            t["races"] = len(rep.get("races", []))
            t["sync_errors"] = len(rep.get("errors", []))
            t["cycles"] = rep.get("cycles")
            t["findings"] = [race_text(r) for r in rep.get("races", [])[:3]] + [
                f"{e['kind']}@{e['line']}: {e['message']}"[:200] for e in rep.get("errors", [])[:3]]
        if rc not in (0, 1) or not os.path.isdir(out_dir):
            t["error"] = short_error(err)
        else:
            t["outputs"] = check_outputs(out_dir, golden, case)
            if rc == 1 and target != "sim":
                t["error"] = short_error(err)
        row["targets"][target] = t
    return row


def row_ok(row):
    for target, t in row["targets"].items():
        if "outputs" not in t or not all(o[0] for o in t["outputs"].values()):
            return False
        if target == "sim" and (t.get("races", 1) or t.get("sync_errors", 1)):
            return False
        if target != "sim" and t["rc"] != 0:
            return False
    return bool(row["targets"])


def fmt_err(t):
    if "outputs" not in t:
        return "error: " + t.get("error", "?")
    if "error" in t and not all(o[0] for o in t["outputs"].values()):
        return "error: " + t["error"]
    parts = []
    for name, (ok, maxerr, bad, total) in t["outputs"].items():
        s = f"{name} {maxerr:.3g}"
        if not ok:
            s += f" ({bad}/{total} off)" if bad >= 0 else " (no output)"
        parts.append(s)
    return ", ".join(parts)


def fmt_times(t):
    """tilec's build and run seconds for a `tilec run` target ('-' for sim or when it stopped early)."""
    if t.get("run_s") is None:
        return "-"
    if t.get("compile_s") is None:  # the reference executor builds nothing
        return f"- / {t['run_s']:.3f}"
    return f"{t['compile_s']:.2f}{' cached' if t.get('cached') else ''} / {t['run_s']:.3f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tla", help="folder of tilelang-ascend's newest files")
    ap.add_argument("--tla-old", help="git directory of an older tilelang-ascend snapshot")
    ap.add_argument("--recipes", help="cann-recipes-infer: a folder or a git directory")
    ap.add_argument("--tilec", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "tilec"))
    ap.add_argument("--only", help="only the cases whose name or file matches this regular expression")
    ap.add_argument("--targets", default="sim,cpu", help="comma-separated: sim, ref, cpu, pto (default sim,cpu)")
    ap.add_argument("--pto-isa", default=os.environ.get("PTO_ISA_DIR"),
                    help="pto target: the pto-isa checkout (default $PTO_ISA_DIR)")
    ap.add_argument("--lock", help="run each tilec command under `flock FILE`")
    ap.add_argument("--table", help="write the results as a Markdown table to this file")
    ap.add_argument("--json", help="write the results as JSON to this file")
    ap.add_argument("--keep", help="keep each case's inputs and outputs under this folder")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds per tilec command (default 1800)")
    ap.add_argument("--list", action="store_true", help="list the cases and run nothing")
    ap.add_argument("--pass-config", action="append", default=[], metavar="KEY=VALUE",
                    help="passed to every tilec run (repeatable), e.g. tl.ascend_tail_mask=True")
    opt = ap.parse_args()
    if np is None:
        sys.exit("upstream_golden.py: NumPy is missing (it makes the inputs and the goldens; tilec itself "
                 "does not need it). Install it, e.g. `apt-get install python3-numpy`, and run this "
                 "script with that Python (/usr/bin/python3).")
    opt.targets = [t for t in opt.targets.split(",") if t]
    bad = [t for t in opt.targets if t not in ("sim", "ref", "cpu", "pto")]
    if bad:
        sys.exit(f"upstream_golden.py: unknown target {bad[0]!r} (sim, ref, cpu, pto)")
    if "pto" in opt.targets and not opt.pto_isa:
        sys.exit("upstream_golden.py: --targets pto needs a pto-isa checkout: --pto-isa DIR or PTO_ISA_DIR")
    roots = {"tla": opt.tla, "tla-old": opt.tla_old, "recipes": opt.recipes}
    cases = [c for c in CASES if not opt.only or re.search(opt.only, c["name"] + " " + c["file"])]
    if opt.list:
        for c in cases:
            print(f"{c['name']:40} {c['root']:8} {c['file']}  {c['shape']}")
        return 0
    rows = []
    with tempfile.TemporaryDirectory() as tmpall:
        for c in cases:
            root = roots.get(c["root"])
            if not root:
                continue
            tmp = os.path.join(opt.keep or tmpall, re.sub(r"\W", "_", c["name"]))
            shutil.rmtree(tmp, ignore_errors=True)
            os.makedirs(tmp)
            path = materialise(root, c["file"], tmp)
            if path is None:
                print(f"{c['name']}: {c['file']} not found under {root}", file=sys.stderr)
                continue
            if c["root"] == "tla-old" and opt.tla and same_text(path, os.path.join(opt.tla, c["file"])):
                print(f"{c['name']}: the old version equals the newest: not run again", file=sys.stderr)
                continue
            row = run_case(opt, c, path, tmp)
            row["ok"] = row_ok(row)
            rows.append(row)
            sim = row["targets"].get("sim", {})
            races = f"races {sim.get('races', '-')} sync {sim.get('sync_errors', '-')}" if sim else ""
            print(f"{'PASS' if row['ok'] else 'FAIL'} {c['name']} [{c['shape']}] {races} | "
                  + " | ".join(f"{tg}: {fmt_err(t)} ({t['secs']:.0f} s"
                               + (f"; build / run {fmt_times(t)} s)" if tg != "sim" else ")")
                               for tg, t in row["targets"].items()),
                  flush=True)
            for tg, t in row["targets"].items():
                for f in t.get("findings", []):
                    print(f"     {tg}: {f}")
                if not row["ok"]:
                    print("     " + " ".join(t["cmd"]))
    n_ok = sum(r["ok"] for r in rows)
    print(f"\n{n_ok} of {len(rows)} cases pass")
    if opt.table:
        with open(opt.table, "w") as f:
            runs = [t for t in opt.targets if t != "sim"]
            f.write("| file | kernel | shape | sim races / sync errors | " + " | ".join(
                f"max abs err {t}" for t in opt.targets) + "".join(
                f" | {t} build / run s" for t in runs) + " | result |\n")
            f.write("|---|---|---|---|" + "---|" * (len(opt.targets) + len(runs)) + "---|\n")
            for r in rows:
                sim = r["targets"].get("sim", {})
                f.write(f"| {r['case']} ({r['file']}) | {r['kernel']} | {r['shape']} | "
                        f"{sim.get('races', '-')} / {sim.get('sync_errors', '-')} | "
                        + " | ".join(fmt_err(r["targets"][t]) if t in r["targets"] else "-" for t in opt.targets)
                        + "".join(f" | {fmt_times(r['targets'].get(t, {}))}" for t in runs)
                        + f" | {'pass' if r['ok'] else 'FAIL'} |\n")
    if opt.json:
        with open(opt.json, "w") as f:
            json.dump(rows, f, indent=1, default=str)
    return 0 if n_ok == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
