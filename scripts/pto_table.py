#!/usr/bin/env python3
"""The --target pto coverage table of docs/pto.md: every kernel under kernels/ (at the shapes
below) and, with --tla, every file of tilelang-ascend's examples/developer_mode and examples/gemm
(default arguments), run on `tilec run --target pto` against `tilec run` (the reference
executor), with the build and run seconds of the pto target and the warnings of the emitted code
under each C++ compiler.

    scripts/pto_table.py [--pto-isa DIR] [--tla DIR] [--tilec PATH] [--lock FILE]
                         [--cxx g++,clang++-19] [--only REGEX] [--table FILE]
                         [--timeout S] [--keep DIR]

Per kernel: the reference run writes its outputs; the pto run (a fresh cache: a cold build)
compares each with --expect (tilec's rule: rtol = atol = 1e-2, integers exact) and reports its
build and run seconds (--json); here every output is also compared as numbers (bit-exact, or the
largest absolute difference). `tilec emit --target pto` writes the kernel, which each compiler of
--cxx builds with the pto target's own flags (-Wall -Wextra among them, pto-isa as a system
include); the table counts the warnings. NumPy is needed (a local tool; tilec does not use it).
Exit 0 when every kernel matches and compiles warning-free.
"""
import argparse
import contextlib
import fcntl
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from upstream_golden import load_output, np, run, short_error  # noqa: E402 (next to this file)

# (name, file, arguments) of the kernels under kernels/: their defaults or the shapes of
# docs/pto.md's table (a small and a model-sized one for the DeepSeek-V4 operators)
KERNELS = [
    ("act_quant/small", "kernels/ds_v4/act_quant.py", "-k act_quant -a N=1024 -d M=32"),
    ("act_quant/model", "kernels/ds_v4/act_quant.py", "-k act_quant -a N=4096 -d M=256"),
    ("int8_gemm/small", "kernels/ds_v4/int8_gemm.py", "-a N=256 -a K=256 -d M=96"),
    ("int8_gemm/model", "kernels/ds_v4/int8_gemm.py", "-a N=1024 -a K=4096 -d M=128"),
    ("hc_split_sinkhorn/small", "kernels/ds_v4/hc_split_sinkhorn.py", "-d N=5"),
    ("hc_split_sinkhorn/model", "kernels/ds_v4/hc_split_sinkhorn.py", "-d N=4096"),
    ("sparse_attn/small", "kernels/ds_v4/sparse_attn.py",
     "-a h=16 -a d=64 -d b=1 -d m=2 -d n=128 -d topk=64 --fill topk_idxs=distinct:128"),
    ("sparse_attn/model", "kernels/ds_v4/sparse_attn.py",
     "-a h=64 -a d=512 -d b=1 -d m=4 -d n=2048 -d topk=512 --fill topk_idxs=distinct:2048"),
    ("bench int8_gemm/tails", "kernels/bench/int8_gemm.py",
     "-a N=300 -a K=200 -a block_M=32 -a block_N=128 -a block_K=64 -a out_dtype='float32' -d M=70"),
    ("bench int8_gemm/decode", "kernels/bench/int8_gemm.py",
     "-a N=200 -a K=320 -a block_M=1 -a block_N=64 -a block_K=128 -d M=3"),
    ("bench sparse_attn", "kernels/bench/sparse_attn.py",
     "-a h=32 -a d=64 -a head_groups=2 -d b=1 -d m=3 -d n=150 -d topk=100 --fill topk_idxs=int:-1:149"),
    ("elementwise_add", "kernels/examples/elementwise_add.py", ""),
    ("gemm", "kernels/examples/gemm.py", ""),
    ("gemm_dev", "kernels/examples/gemm_dev.py", "-d M=256"),
    ("gemm_transpose_b", "kernels/examples/gemm_transpose_b.py", "-d M=128"),
    ("gemm_pipelined", "kernels/examples/gemm_pipelined.py", "-d M=128"),
    ("matmul_add", "kernels/examples/matmul_add.py", ""),
    ("matmul_add_dev", "kernels/examples/matmul_add_dev.py", "-d M=256"),
    ("flash_attention", "kernels/examples/flash_attention.py", ""),
    ("online_softmax", "kernels/examples/online_softmax.py", "-a M=32 -a N=512"),
    ("online_softmax/f16 tails", "kernels/examples/online_softmax.py",
     "-a M=40 -a N=1300 -a block_N=256 -a dtype='float16'"),
    ("layer_norm", "kernels/examples/layer_norm.py", "-d M=64"),
]


def entries(opt):
    out = [(n, f, a.split()) for n, f, a in KERNELS]
    if opt.tla:
        for folder in ("developer_mode", "gemm"):
            for path in sorted(glob.glob(os.path.join(opt.tla, "examples", folder, "*.py"))):
                out.append((f"{folder}/{os.path.basename(path)}", path, []))
    return [e for e in out if not opt.only or re.search(opt.only, e[0] + " " + e[1])]


def compare_outputs(ref_dir, pto_dir):
    """{output: text}: 'exact', or the largest absolute difference ('missing' without a file)."""
    res = {}
    for path in sorted(glob.glob(os.path.join(ref_dir, "*.npy"))):
        name = os.path.basename(path)[:-4]
        other = os.path.join(pto_dir, name + ".npy")
        if not os.path.exists(other):
            res[name] = "missing"
            continue
        a, b = np.load(path), np.load(other)
        if a.shape == b.shape and a.tobytes() == b.tobytes():
            res[name] = "exact"
            continue
        fa, fb = load_output(path).astype(np.float64), load_output(other).astype(np.float64)
        kind = "int " if a.dtype.kind in "iub" else ""
        res[name] = f"{kind}max abs err {np.nanmax(np.abs(fa - fb)):.3g}" if fa.shape == fb.shape else "shape differs"
    return res


def warnings_of(opt, path, args, tmp):
    """{compiler: warning count or 'error: ...'} for the emitted kernel."""
    edir = os.path.join(tmp, "emit")
    # emit takes the kernel selection only: dims stay symbolic, --fill is about inputs
    sel = [a for i, a in enumerate(args) if a not in ("-d", "--fill") and (i == 0 or args[i - 1] not in ("-d", "--fill"))]
    rc, err, _ = run(opt, [opt.tilec, "emit", path] + sel + ["--target", "pto", "-o", edir], light=True)
    if rc != 0:
        return {c: "not emitted" for c in opt.cxx}
    cpp = glob.glob(os.path.join(edir, "*.cpp"))[0]
    res = {}
    for cxx in opt.cxx:
        cmd = [cxx, "-std=c++20", "-O2", "-march=x86-64-v3", "-D__CPU_SIM", "-Wall", "-Wextra",
               "-ffp-contract=off", "-isystem", os.path.join(opt.pto_isa, "include"), "-I", edir,
               "-c", cpp, "-o", os.path.join(tmp, "w.o")]
        rc, err, _ = run(opt, cmd)
        n = len(re.findall(r"\bwarning:", err))
        res[cxx] = n if rc == 0 else f"error: {short_error(err)}"
        if n:
            with open(os.path.join(tmp, f"warnings-{os.path.basename(cxx)}.txt"), "w") as f:
                f.write(err)
    return res


def one(opt, name, path, args, tmp):
    row = {"name": name, "file": path, "args": " ".join(args)}
    rdir, pdir = os.path.join(tmp, "ref"), os.path.join(tmp, "pto")
    rc, err, _ = run(opt, [opt.tilec, "run", path] + args + ["-o", rdir])
    if rc != 0:
        row["result"] = "reference failed: " + short_error(err)
        return row
    expect = []
    for p in sorted(glob.glob(os.path.join(rdir, "*.npy"))):
        expect += ["--expect", f"{os.path.basename(p)[:-4]}={p}"]
    facts = os.path.join(tmp, "pto.json")
    os.environ["TILEC_CACHE_DIR"] = os.path.join(tmp, "cache")  # cold: the build is measured
    rc, err, _ = run(opt, [opt.tilec, "run", path] + args + ["--target", "pto", "--pto-isa", opt.pto_isa,
                                                             "-o", pdir, "--json", facts] + expect)
    if os.path.exists(facts):
        rep = json.load(open(facts))
        row["build_s"], row["run_s"] = rep.get("compile_s"), rep.get("run_s")
    if rc == 0 or (rc == 1 and os.path.isdir(pdir)):
        row["outputs"] = compare_outputs(rdir, pdir)
    row["ok"] = rc == 0
    row["result"] = ("matches" if rc == 0 else "DIFFERS" if rc == 1 else "error: " + short_error(err))
    row["warnings"] = warnings_of(opt, path, args, tmp)
    return row


@contextlib.contextmanager
def kernel_lock(path):
    """flock(2) on path (the lock `flock FILE` takes) while one kernel's commands run."""
    if not path:
        yield
        return
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--pto-isa", default=os.environ.get("PTO_ISA_DIR"), help="pto-isa checkout ($PTO_ISA_DIR)")
    ap.add_argument("--tla", help="tilelang-ascend's newest files (examples/ beneath): its developer_mode and gemm")
    ap.add_argument("--tilec", default=os.path.join(here, "..", "build", "tilec"))
    ap.add_argument("--lock", help="hold `flock FILE` while one kernel's commands run")
    ap.add_argument("--cxx", default="g++,clang++-19", help="compilers of the warning check")
    ap.add_argument("--only", help="only the kernels whose name or file matches this regular expression")
    ap.add_argument("--table", help="write the Markdown table to this file")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds per command (default 1800)")
    ap.add_argument("--keep", help="keep each kernel's outputs, emitted code and warnings here")
    opt = ap.parse_args()
    if np is None:
        sys.exit("pto_table.py: NumPy is missing (apt-get install python3-numpy; run with /usr/bin/python3)")
    if not opt.pto_isa:
        sys.exit("pto_table.py: needs a pto-isa checkout: --pto-isa DIR or PTO_ISA_DIR")
    opt.cxx = [c for c in opt.cxx.split(",") if c]
    opt.kernel_lock, opt.lock = opt.lock, None  # taken per kernel here, not per command
    rows, bad = [], 0
    head = "| kernel | pto vs reference | build s | run s | " + " | ".join(f"{c} warnings" for c in opt.cxx) + " |"
    lines = [head, "|---|---|---|---|" + "---|" * len(opt.cxx)]
    with tempfile.TemporaryDirectory() as tmpall:
        for name, path, args in entries(opt):
            tmp = os.path.join(opt.keep or tmpall, re.sub(r"\W", "_", name))
            shutil.rmtree(tmp, ignore_errors=True)
            os.makedirs(tmp)
            with kernel_lock(opt.kernel_lock):  # one kernel's commands (ten seconds or so) at a time
                row = one(opt, name, path, args, tmp)
            rows.append(row)
            outs = "; ".join(f"{k} {v}" for k, v in row.get("outputs", {}).items())
            res = row["result"] + (f" ({outs})" if outs else "")
            warn = row.get("warnings", {})
            ok = row.get("ok") and all(w == 0 for w in warn.values())
            bad += not ok
            fmt = lambda v: f"{v:.3f}" if isinstance(v, float) else "-"
            label = f"{name} `{row['args']}`" if row["args"] else name
            line = (f"| {label} | {res} | {fmt(row.get('build_s'))} | {fmt(row.get('run_s'))} | "
                    + " | ".join(str(warn.get(c, "-")) for c in opt.cxx) + " |")
            lines.append(line)
            print(line, flush=True)
    print(f"\n{len(rows) - bad} of {len(rows)} kernels match and compile warning-free")
    if opt.table:
        with open(opt.table, "w") as f:
            f.write("\n".join(lines) + "\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
