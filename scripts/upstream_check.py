#!/usr/bin/env python3
"""Compile every kernel of a folder of upstream TileLang-Ascend files with `tilec ir`.

    scripts/upstream_check.py FOLDER [--tilec build/tilec] [-j 2] [-v] [--list FILE] [--by-folder] [--files LIST]
                              [--only REGEX] [--sim [--sim-timeout S] [--lock FILE]]

For each .py file it asks tilec which kernels the file defines (the "defines
several kernels (...); pick one with -k NAME" error lists them), then compiles
each kernel, supplying factory arguments tilec cannot find itself: a value the
file binds to that name somewhere (an assignment, a keyword argument, an
argparse default, a positional argument of a call of the factory), else a
default chosen by the parameter's name. Where the file's driver derives
arguments from torch tensors (their shapes or contents), the values its own
driver uses come from scripts/upstream_shapes.py and the cases of
scripts/golden_cases.py. It prints the kernel count, how many compile, how many
of those at the file's own arguments (none guessed by name), and the failures
grouped into classes by their error message (--by-folder: the counts per
folder too). Kernels of files written for
upstream's other backend (the AscendNPU-IR "npuir" dialect: T.npuir_*, T.vadd,
target="npuir") and of negative tests (files that test a compile error) are
counted apart. --only REGEX keeps the files whose text matches (e.g. the expert
kernels: 'set_flag|T\\.Scope'). --sim also runs every kernel that compiles on
`tilec sim` with the same arguments and lists its findings (races, benign
races, sync/memory errors, each with both sides' op and line) per kernel and
grouped by finding. Its inputs are those of the tables above where they give
them (exact contents, e.g. cu_seqlens), and an integer index tensor (a name
with idx / index / indices / perm) of a file that builds its indices with
torch.randperm or argsort is a permutation per row (--fill distinct:N, N its
last dimension); other inputs are tilec's seeded defaults. --lock FILE runs each
compile and simulation under `flock FILE`, its time limit counted from when it holds the
lock. Upstream files are read, never copied.
"""
import argparse
import ast
import concurrent.futures
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from upstream_shapes import SHAPES  # noqa: E402  (the files' own shapes, next to this file)
import upstream_harness  # noqa: E402

try:  # the golden cases' arguments; their inputs need NumPy (scripts/upstream_golden.py)
    import numpy  # noqa: F401
    from golden_cases import CASES as GOLDEN
    from upstream_golden import save_input
except ImportError:
    GOLDEN, save_input = [], None

MISSING = re.compile(r"missing required argument '([^']+)'")
GIVE_A = re.compile(r"give it with -a ([A-Za-z_][A-Za-z_0-9]*)=VALUE|^(?:error: )?'([A-Za-z_][A-Za-z_0-9]*)' cannot be used: .* is computed by code")
SEVERAL = re.compile(r"(?:defines several kernels|several functions that build a @T\.prim_func) \(([^)]*)\); pick one")
LOCATION = re.compile(r"^\S+?:\d+:\d+: ")


def literal(node, known):
    """The value of a constant expression (numbers, strings, tuples, simple arithmetic, known names)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str, bool)):
        return node.value
    if isinstance(node, ast.Name) and node.id in known:
        return known[node.id]
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "T":
        return node.attr  # T.float16 -> "float16"
    if isinstance(node, (ast.Tuple, ast.List)):
        items = [literal(e, known) for e in node.elts]
        return None if any(i is None for i in items) else tuple(items)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = literal(node.operand, known)
        return -v if isinstance(v, (int, float)) else None
    if isinstance(node, ast.BinOp):
        a, b = literal(node.left, known), literal(node.right, known)
        if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b)):
            return None
        ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
               ast.FloorDiv: lambda: a // b if b else None, ast.Pow: lambda: a ** b if abs(b) < 64 else None}
        f = ops.get(type(node.op))
        return f() if f else None
    return None


def file_values(path):
    """Names the file binds to constant values anywhere (first binding wins), and calls by callee name."""
    try:
        tree = ast.parse(open(path, encoding="utf-8").read())
    except (SyntaxError, UnicodeDecodeError):
        return {}, {}
    known, calls = {}, {}

    def bind(name, value):
        # Zero and negative ints are counters and sentinels (dim=-1), not shapes.
        if isinstance(value, int) and not isinstance(value, bool) and value <= 0:
            return
        if value is not None and name not in known:
            known[name] = value

    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    bind(t.id, literal(node.value, known))
                elif isinstance(t, ast.Tuple) and isinstance(node.value, ast.Tuple) and len(t.elts) == len(node.value.elts):
                    for te, ve in zip(t.elts, node.value.elts):
                        if isinstance(te, ast.Name):
                            bind(te.id, literal(ve, known))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            bind(node.target.id, literal(node.value, known))
        elif isinstance(node, ast.Call):
            callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if callee == "add_argument" and node.args:
                opt = literal(node.args[-1], {})
                default = next((kw.value for kw in node.keywords if kw.arg == "default"), None)
                dest = next((literal(kw.value, {}) for kw in node.keywords if kw.arg == "dest"), None)
                if isinstance(opt, str) and default is not None:
                    bind(dest or opt.lstrip("-").replace("-", "_"), literal(default, known))
            if callee:
                calls.setdefault(callee, []).append(node)
    # Keyword arguments of any call: a builder called as build(batch=1, ...) passes the same
    # names on to the helper builders it dispatches to (-k _build_hca of sparse_flash_mla).
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg:
                    bind(kw.arg, literal(kw.value, known))
    return known, calls


def factory_params(path, kernel):
    """Parameters of the function `kernel` (or Class.method) defined in the file: [(name, default or None)]."""
    try:
        tree = ast.parse(open(path, encoding="utf-8").read())
    except (SyntaxError, UnicodeDecodeError):
        return []
    name = kernel.split(".")[-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            args = node.args.args
            defaults = [None] * (len(args) - len(node.args.defaults)) + node.args.defaults
            return [(a.arg, literal(d, {}) if d is not None else None) for a, d in zip(args, defaults)]
    return []


CALLED_WITH = re.compile(r"note: in '[^']*' called with (.*)$", re.M)
ASSERT_LINE = re.compile(r"^\s*\d+ \|\s*assert\s+(.*?)(?:,|$)", re.M)


def called_with(stderr):
    """The factory arguments tilec reports in its 'called with' note."""
    m = CALLED_WITH.search(stderr)
    out = {}
    if m:
        for part in re.findall(r"(\w+)=('[^']*'|[^,]+)", m.group(1)):
            try:
                out[part[0]] = ast.literal_eval(part[1].strip())
            except (ValueError, SyntaxError):
                pass
    return out


def satisfy_assert(stderr, args):
    """Adjusts a supplied argument so that a failed `assert a % e == 0`, `a == e`, `a <= e` or
    `a >= e` (e an expression of the factory's arguments) holds; True if it changed one."""
    m = ASSERT_LINE.search(stderr)
    if not m:
        return False
    try:
        cond = ast.parse(m.group(1).strip(), mode="eval").body
    except SyntaxError:
        return False
    vals = called_with(stderr)
    vals.update(args)
    if not isinstance(cond, ast.Compare) or len(cond.ops) != 1:
        return False
    left, op, right = cond.left, cond.ops[0], cond.comparators[0]
    if (isinstance(op, ast.Eq) and isinstance(left, ast.BinOp) and isinstance(left.op, ast.Mod)
            and isinstance(left.left, ast.Name) and left.left.id in args and literal(right, {}) == 0):
        b = literal(left.right, vals)
        if isinstance(b, int) and b > 0:
            args[left.left.id] = b * max(1, round(args[left.left.id] / b))
            return True
        return False
    if not isinstance(op, (ast.Eq, ast.LtE, ast.GtE)):
        return False
    for name_side, expr_side in ((left, right), (right, left)):
        if isinstance(name_side, ast.Name) and name_side.id in args:
            v = literal(expr_side, vals)
            if v is not None and args[name_side.id] != v:
                args[name_side.id] = v
                return True
    return False


def default_for(name):
    """A plausible value for a factory parameter nobody gave, chosen by its name."""
    n = name.lower()
    if ("accum" in n or "acc_" in n) and "dtype" in n:
        return "float"
    if "dtype" in n and ("idx" in n or "index" in n or "int" in n):
        return "int32"
    if "dtype" in n or n in ("dt", "type"):
        return "float16"
    if n.startswith(("is_", "use_", "enable", "has_", "with_")) or n in ("causal", "is_causal", "transpose_a", "transpose_b", "trans_a", "trans_b"):
        return False
    if "stage" in n:
        return 2
    if "thread" in n:
        return 2
    if n in ("core_num", "num_cores", "num_core", "block_num", "n_cores", "ncore", "vec_core_num", "aiv_num", "aic_num"):
        return 20
    if "block" in n or "tile" in n or n.startswith("b_") or n.startswith("bl"):
        return 64
    if "chunk" in n:
        return 64
    if n in ("b", "bs", "batch", "batch_size", "num_batches"):
        return 2
    if "head" in n and ("dim" in n or "size" in n) or n in ("d", "dim", "hidden_dim", "d_head", "dv", "dk", "dim_v", "dim_k"):
        return 128
    if n == "h":  # DeepSeek-V4 style kernels tile 64 heads per block
        return 64
    if "head" in n or n in ("hq", "hk", "heads", "kv_heads", "group", "groups", "num_groups"):
        return 8
    if "rope" in n:
        return 64
    if "topk" in n or n in ("k_top", "select"):
        return 64
    if n == "eps" or n.startswith("eps") or n.endswith("_eps"):
        return 1e-6
    if "scale" in n:
        return 1.0
    if "seq" in n or "len" in n or "ctx" in n or "token" in n or n in ("s", "t", "l", "n_ctx"):
        return 512
    return 256


def own_shapes(path, kernel):
    """The table entry (upstream_shapes.py, else a golden case) for this file and kernel, or None."""
    norm = path.replace(os.sep, "/")
    for e in SHAPES + [dict(c, where="golden case " + c["name"]) for c in GOLDEN if c["root"] != "tla-old"]:
        # a file with one kernel is scanned without -k; a table entry may still name it
        if norm.endswith("/" + e["file"]) and (kernel is None or e.get("kernel") == kernel):
            return e
    return None


def write_npy(path, values, dtype):
    """A .npy file of a nested list of ints (int32 / uint32 / int64), written without NumPy."""
    shape, v = [], values
    while isinstance(v, list):
        shape.append(len(v))
        v = v[0] if v else 0
    flat = []

    def walk(x):
        if isinstance(x, list):
            for y in x:
                walk(y)
        else:
            flat.append(int(x))
    walk(values)
    code = {"int32": ("<i4", "i"), "uint32": ("<u4", "I"), "int64": ("<i8", "q")}[dtype]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        code[0], "".join(f"{n}," if len(shape) == 1 else f"{n}, " for n in shape).rstrip(" "))
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode())
        f.write(struct.pack("<%d%s" % (len(flat), code[1]), *flat))


def sim_inputs(entry, tmp):
    """-i options for an own-shapes entry's inputs (files in tmp) and --fill options."""
    out = []
    if entry and entry.get("inputs"):
        if "root" in entry:  # a golden case: its seeded inputs, when NumPy is there
            if save_input:
                import numpy as np
                for name, value in entry["inputs"](np.random.default_rng(entry.get("seed", 0))).items():
                    p = os.path.join(tmp, name + ".npy")
                    save_input(p, value)
                    out += ["-i", f"{name}={p}"]
        else:
            for name, (values, dtype) in entry["inputs"].items():
                p = os.path.join(tmp, name + ".npy")
                write_npy(p, values, dtype)
                out += ["-i", f"{name}={p}"]
    for name, spec in (entry or {}).get("fills", {}).items():
        out += ["--fill", f"{name}={spec}"]
    for name, value in (entry or {}).get("dims", {}).items():  # symbolic dimensions (T.symbolic)
        out += ["-d", f"{name}={value}"]
    return out


INT_PARAM = re.compile(r"^  (\w+): in u?int(?:8|16|32|64)\[([\d, ]+)\],?$", re.M)
INDEX_NAME = re.compile(r"idx|index|indices|perm", re.I)
BUILDS_PERMUTATION = re.compile(r"torch\.randperm\(|\.argsort\(|torch\.argsort\(")


def permutation_fills(path, ir_text, given):
    """--fill NAME=distinct:N for the integer index inputs of a file that builds its indices with
    randperm / argsort (N: the last dimension, so each row is a permutation)."""
    try:
        text = open(path, encoding="utf-8").read()
    except (OSError, UnicodeDecodeError):
        return []
    if not BUILDS_PERMUTATION.search(text):
        return []
    out = []
    for name, dims in INT_PARAM.findall(ir_text):
        if INDEX_NAME.search(name) and name not in given:
            out += ["--fill", f"{name}=distinct:{int(dims.split(',')[-1])}"]
    return out


LAST = threading.local()  # the IR text of this thread's last tilec run


LOCK = []  # --lock FILE: each tilec run holds it, its 60 s counted from when it has the lock


def run_tilec(tilec, path, kernel, args):
    cmd = [tilec, "ir", path] + (["-k", kernel] if kernel else [])
    for k, v in args.items():
        cmd += ["-a", f"{k}={v!r}"]
    for attempt in range(5):
        try:
            if LOCK:  # coreutils timeout ends tilec itself, so the lock is never left held
                p = subprocess.run(["flock", LOCK[0], "timeout", "-s", "KILL", "60"] + cmd, capture_output=True,
                                   text=True)
                if p.returncode in (124, 137):
                    raise subprocess.TimeoutExpired(cmd, 60)
            else:
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
            LAST.ir = p.stdout
            break
        except subprocess.TimeoutExpired:
            return 124, "error: tilec timed out after 60 s", cmd
        except OSError as e:  # the binary is being relinked: wait for it
            if attempt == 4:
                return 127, f"error: cannot run {tilec}: {e}", cmd
            time.sleep(2)
    return p.returncode, p.stderr, cmd


def first_error(stderr):
    for line in stderr.splitlines():
        if "error:" in line:
            return LOCATION.sub("", line).strip()
    return stderr.strip().splitlines()[-1] if stderr.strip() else "(no message)"


def call_args(calls, kernel, params, known):
    """Values of the positional and keyword arguments of the file's calls of the factory."""
    out = {}
    for call in calls.get(kernel.split(".")[-1], []):
        for p, a in zip(params, call.args):
            v = literal(a, known) if not isinstance(a, ast.Name) else known.get(a.id)
            if v is not None and p not in out:
                out[p] = v
        for kw in call.keywords:
            if kw.arg:
                v = literal(kw.value, known)
                if v is not None and kw.arg not in out:
                    out[kw.arg] = v
    return out


class TensorArg:
    """A tensor argument of a driver's call as tilec's -a takes it: T.Tensor(shape, dtype), whose
    .shape and .dtype a factory sized from the tensor reads."""

    def __init__(self, shape, dtype):
        self.shape, self.dtype = tuple(shape), dtype

    def __repr__(self):
        return f"T.Tensor({self.shape!r}, {self.dtype!r})"

    def __eq__(self, o):
        return isinstance(o, TensorArg) and (o.shape, o.dtype) == (self.shape, self.dtype)


def _constant(v):
    """A recorded JSON value as the Python value -a takes (lists as tuples)."""
    return tuple(_constant(x) for x in v) if isinstance(v, list) else v


class Drivers:
    """The kernel factory calls the corpus's own drivers make, recorded by running each driver
    file's host code with scripts/upstream_harness.py on a copy of the corpus, twice (tensor
    contents read as 0, then as 1: a call made both times is decided by shapes alone). A driver
    file is run when a kernel it may call (its text names the factory) needs arguments."""

    def __init__(self, folder, files, lock=None):
        self.folder, self.lock = os.path.abspath(folder), lock
        self.box = tempfile.mkdtemp(prefix="upstream-drivers-")
        self.root = os.path.join(self.box, "corpus")
        shutil.copytree(self.folder, self.root)
        self.texts = {os.path.abspath(f): open(f, encoding="utf-8", errors="replace").read() for f in files}
        self.runs, self.mu, self.busy = {}, threading.Lock(), {}
        self.launch = {}  # (path, kernel): the T.symbolic sizes and list-made inputs of its launch

    def close(self):
        shutil.rmtree(self.box, ignore_errors=True)

    def run(self, path):
        """({(defining file, qualified name): [(call, stable)]}, stop) of path's driver."""
        with self.mu:
            lock = self.busy.setdefault(path, threading.Lock())
        with lock:
            if path not in self.runs:
                copy = os.path.join(self.root, os.path.relpath(path, self.folder))
                found = {}
                calls0, stop = upstream_harness.record(copy, self.root, 0, lock=self.lock)
                calls1, _ = upstream_harness.record(copy, self.root, 1, lock=self.lock)
                def key(c):
                    return c["file"], c["kernel"], json.dumps([c["args"], c.get("dims"), c.get("inputs")], sort_keys=True)
                again = {key(c) for c in calls1}
                for c in calls0:
                    # code the driver generates (a module it writes, "<string>") counts as the driver's
                    f = os.path.join(self.folder, os.path.relpath(c["file"], self.root))
                    f = f if c["file"].startswith(self.root) and os.path.exists(f) else path
                    found.setdefault((f, c["kernel"]), []).append((c, key(c) in again))
                self.runs[path] = (found, stop)
            return self.runs[path]

    def calls(self, path, kernel):
        """(driver file, call, stable) of each recorded call of the kernel, then (driver file,
        None, why it stopped) of each driver that did not run to its end."""
        if kernel is None:  # the file's one kernel: its factory's name, when the file says
            names = upstream_harness.factories(path)
            kernel = names.pop() if len(names) == 1 else None
        name = kernel.split(".")[-1] if kernel else None
        word = re.compile(r"\b%s\b" % re.escape(name)) if name else None
        for d in [path] + [f for f, t in self.texts.items() if f != path and word and word.search(t)]:
            found, stop = self.run(d)
            for (f, q), calls in found.items():
                if f == path and (not name or q == kernel or q.split(".")[-1] == name):
                    for call, stable in calls:
                        yield d, call, stable
            if stop:
                yield d, None, stop

    def _keep_launch(self, path, kernel, call):
        self.launch[(path, kernel)] = {"dims": call.get("dims") or {}, "inputs": {
            n: tuple(v) for n, v in (call.get("inputs") or {}).items()}}

    def lookup(self, path, kernel):
        """(arguments of the first call of the kernel a driver makes, or None; how it stands)."""
        path = os.path.abspath(path)
        stopped, unusable = [], None
        for d, call, stable in self.calls(path, kernel):
            if call is None:
                stopped.append(f"{os.path.relpath(d, self.folder)} stopped: {stable}")
            elif stable and not set(call["opaque"]) - set(call.get("tensors", {})):
                # tensors the factory is sized from go as T.Tensor(shape, dtype)
                self._keep_launch(path, kernel, call)
                tensors = call.get("tensors", {})
                return {k: TensorArg(*tensors[k]) if k in tensors else _constant(v)
                        for k, v in call["args"].items()}, os.path.relpath(d, self.folder)
            else:
                unusable = unusable or ("opaque value of " + ", ".join(call["opaque"]) if call["opaque"] else
                                        "the driver's arguments depend on tensor contents")
        if unusable:
            return None, unusable
        if stopped:
            return None, "; ".join(stopped)
        return None, "not instantiated"

    def launch_of(self, path, kernel, args):
        """The launch (T.symbolic sizes, list-made inputs) of a driver's call with these arguments."""
        path = os.path.abspath(path)
        if (path, kernel) not in self.launch:
            for d, call, stable in self.calls(path, kernel):
                if call and stable and all(_constant(call["args"].get(k)) == v for k, v in args.items()):
                    self._keep_launch(path, kernel, call)
                    break
        return self.launch.get((path, kernel))


def compile_kernel(tilec, path, kernel, known, calls, drivers=None):
    """Compile one kernel, adding arguments tilec asks for; returns (ok, message, command, how):
    how is 'file' (tilec found every argument in the file), 'table' (some from the own-shapes
    tables), 'driver' (from a call a driver in the corpus makes), 'uninstantiated' (no driver in
    the corpus calls the factory: compiled at guessed arguments) or 'guessed' (some chosen by
    name or adjusted to pass an assert), the last two followed by ': ' and why."""
    entry = own_shapes(path, kernel)
    args, tried = dict(entry["args"]) if entry else {}, set()
    guessed, driver = False, None
    params = factory_params(path, kernel) if kernel else []
    from_calls = call_args(calls, kernel, [p for p, _ in params], known) if kernel else {}
    fixes = 0
    for _ in range(40):
        rc, err, cmd = run_tilec(tilec, path, kernel, args)
        how = ("guessed" if guessed else "table" if entry and entry["args"] else
               "driver: " + driver[1] if driver and driver[0] else "file")
        if how == "guessed" and driver and driver[0] is None:
            how = ("uninstantiated" if driver[1] == "not instantiated" else "guessed") + ": " + driver[1]
        if rc == 0:
            return True, "", cmd, how
        msg = first_error(err)
        m = MISSING.search(msg) or GIVE_A.search(msg)
        if (drivers and driver is None and not entry and
                (m or "assertion failed" in msg or "dimensions must be positive" in msg)):
            driver = drivers.lookup(path, kernel)
            new = {k: v for k, v in (driver[0] or {}).items() if k not in args}
            if new:  # the whole call: its arguments go together
                args.update(new)
                continue
        if "assertion failed" in msg and fixes < 4 and satisfy_assert(err, args):
            fixes += 1
            guessed = True
            continue
        if "dimensions must be positive" in msg and fixes < 4:
            # Parameters defaulting to 0/-1 that the caller computes at run time (cpg=0, S_orig=0).
            vals = called_with(err)
            unset = [p for p, d in params if p not in args and isinstance(vals.get(p), int) and vals[p] <= 0]
            if unset:
                fixes += 1
                for p in unset:
                    args[p] = from_calls.get(p, known.get(p, default_for(p)))
                    guessed = guessed or (p not in from_calls and p not in known)
                continue
        name = next((g for g in m.groups() if g and g != "NAME"), None) if m else None
        if name is None or name in tried:
            return False, msg, cmd, how
        tried.add(name)
        if name in from_calls:
            args[name] = from_calls[name]
        elif name in known:
            args[name] = known[name]
        else:
            args[name] = default_for(name)
            guessed = True
    return False, msg, cmd, how


CLASSES = [
    (re.compile(r"T\.shmem_\w+ is a TileLang-Ascend API tilec does not implement|'T\.shmem_\w+' is not supported"), lambda m: "unimplemented: T.shmem_* (multi-card)"),
    (re.compile(r"'(T\.[\w.]+)' is not supported by tilec"), lambda m: f"unknown API: {m.group(1)}"),
    (re.compile(r"'(T\.[\w.]+)' does not exist"), lambda m: f"unknown API: {m.group(1)}"),
    (re.compile(r"(T\.[\w.]+) got an unexpected keyword argument '(\w+)'"), lambda m: f"{m.group(1)}: unknown keyword {m.group(2)}="),
    (re.compile(r"(T\.tile\.\w+|T\.\w+) is a TileLang-Ascend (?:op|API) tilec does not implement"), lambda m: f"unimplemented: {m.group(1)}"),
    (re.compile(r"defines no (?:usable )?@tilelang\.jit factory"), lambda m: "no kernel in file (driver/helper)"),
    (re.compile(r"computed by code tilec does not run"), lambda m: "runtime value (torch/numpy) needed"),
    (re.compile(r"assert"), lambda m: "factory assert failed"),
    (re.compile(r"missing required argument"), lambda m: "factory argument not found"),
]


def classify(msg):
    for rx, label in CLASSES:
        m = rx.search(msg)
        if m:
            return label(m)
    # Otherwise the message itself, with quoted names and numbers folded so that similar errors group.
    return re.sub(r"\d+", "N", re.sub(r"'[^']*'", "'…'", msg))[:110]


def dialect(path):
    """'npuir' for files of upstream's AscendNPU-IR backend, 'negative' for negative tests."""
    try:
        text = open(path, encoding="utf-8").read()
    except (OSError, UnicodeDecodeError):
        return ""
    if "npuir" in text or re.search(r"\bT\.v(add|sub|mul|div|cast|exp|max|min|rsqrt|sqrt|sigmoid|relu)\(", text):
        return "npuir"
    if "negative" in os.path.basename(path):
        return "negative"
    return ""


def sim_kernel(cmd, timeout, inputs, lock=None):
    """Run the compiled kernel's command line on `tilec sim` with the inputs options (a function
    of a temporary folder); returns (status, findings)."""
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "sim.json")
        opts = inputs(tmp)
        shown = " ".join(opts).replace(tmp, "TMP")  # for --list
        full = [cmd[0], "sim"] + cmd[2:] + opts + ["--json", report]
        # coreutils timeout ends tilec itself (a Python time-out would end flock and leave
        # tilec running with the lock held); the limit counts from when the lock is held
        p = subprocess.run((["flock", lock] if lock else []) + ["timeout", "-s", "KILL", str(timeout)] + full,
                           capture_output=True, text=True)
        if p.returncode in (124, 137):
            return f"timeout {timeout} s", [], shown
        if not os.path.exists(report):
            return "failed: " + first_error(p.stderr), [], shown
        with open(report) as f:
            doc = json.load(f)
    found = []
    for kind, key in (("race", "races"), ("benign", "benign_races")):
        for r in doc.get(key) or []:
            a, b = r["first"], r["second"]
            found.append(f"{kind} {r['kind']} {r['space']} {a['op']}@{a['line']}({a['pipe']}) "
                         f"{b['op']}@{b['line']}({b['pipe']}) '{a['buffer']}'")
    for e in doc.get("errors") or []:
        found.append(f"error {e.get('kind')}@{e.get('line')}: {e.get('message', '')[:160]}")
    clean = not any(x.startswith(("race", "error")) for x in found)
    return ("clean" if clean else "findings") + f" (exit {p.returncode})", found, shown


def check_file(tilec, path, sim=None, lock=None, drivers=None):
    known, calls = file_values(path)
    rc, err, _ = run_tilec(tilec, path, None, {})
    m = SEVERAL.search(err)
    kernels = [k.strip() for k in m.group(1).split(",")] if m else [None]
    results = []
    kind = dialect(path)
    for k in kernels:
        ok, msg, cmd, how = compile_kernel(tilec, path, k, known, calls, drivers)
        ir_text = LAST.ir if ok else ""
        entry = own_shapes(path, k)

        if drivers and sim and ok and not (entry or {}).get("dims") and not (entry or {}).get("inputs"):
            launch = drivers.launch_of(path, k, (entry or {}).get("args", {}))
            if launch:  # the sizes and list-made inputs of the driver's launch
                entry = dict(entry or {}, **launch)

        def inputs(tmp, entry=entry, ir_text=ir_text):
            opts = sim_inputs(entry, tmp)
            given = set(opts[i + 1].split("=")[0] for i in range(0, len(opts), 2))
            return opts + permutation_fills(path, ir_text, given)
        simmed = sim_kernel(cmd, sim, inputs, lock) if sim and ok else None
        results.append((path, k, ok, msg, cmd, kind, simmed, how))
    return results


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the output quietly
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(143))  # so that the drivers' copy is removed
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder")
    ap.add_argument("--tilec", default=os.path.join(os.path.dirname(__file__), "..", "build", "tilec"))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("-v", action="store_true", help="print every failing kernel with its command")
    ap.add_argument("--list", help="write one line per kernel (ok/FAIL, file, kernel, message) to this file")
    ap.add_argument("--by-folder", action="store_true", help="also print compiled/total per folder")
    ap.add_argument("--only", help="only the files whose text matches this regular expression")
    ap.add_argument("--files", help="only the files this file lists (paths relative to FOLDER, one a line); "
                                    "the whole folder still serves as the drivers")
    ap.add_argument("--sim", action="store_true", help="run each compiled kernel on tilec sim too")
    ap.add_argument("--sim-timeout", type=int, default=600, help="seconds per simulated kernel")
    ap.add_argument("--lock", help="run each tilec compile and simulation under `flock FILE` (the shared build lock)")
    ap.add_argument("--no-drivers", action="store_true",
                    help="do not run the files' host code (scripts/upstream_harness.py) for arguments")
    opt = ap.parse_args()
    if opt.lock:
        LOCK.append(opt.lock)
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(opt.folder) for f in fs if f.endswith(".py"))
    if opt.files:
        wanted = {line.strip() for line in open(opt.files) if line.strip()}
        files = [f for f in files if os.path.relpath(f, opt.folder) in wanted]
    if opt.only:
        rx = re.compile(opt.only)
        files = [f for f in files if rx.search(open(f, encoding="utf-8", errors="replace").read())]
    results = []
    sim = opt.sim_timeout if opt.sim else None
    corpus = sorted(os.path.join(d, f) for d, _, fs in os.walk(opt.folder) for f in fs if f.endswith(".py"))
    drivers = None if opt.no_drivers else Drivers(opt.folder, corpus, opt.lock)
    try:
        with concurrent.futures.ThreadPoolExecutor(opt.j) as pool:
            for r in pool.map(lambda p: check_file(opt.tilec, p, sim, opt.lock, drivers), files):
                results.extend(r)
    finally:
        if drivers:
            drivers.close()
    nokernel = [r for r in results if classify(r[3]) == "no kernel in file (driver/helper)"]
    apart = [r for r in results if r not in nokernel and r[5]]
    kernels = [r for r in results if r not in nokernel and not r[5]]
    ok = sum(1 for r in kernels if r[2])
    classes, unused = {}, {}
    for r in kernels:
        if not r[2]:
            (unused if r[7].startswith("uninstantiated") else classes).setdefault(classify(r[3]), []).append(r)
    print(f"{len(files)} files, {len(nokernel)} without a kernel; {ok} of {len(kernels)} kernels compile")
    hows = {h: sum(1 for r in kernels if r[2] and r[7].split(":")[0] == h)
            for h in ("file", "table", "driver", "uninstantiated", "guessed")}
    print(f"  at the file's own arguments: {hows['file'] + hows['table'] + hows['driver']} ({hows['table']} of "
          f"them from the own-shapes tables, {hows['driver']} recorded from a driver in the corpus); "
          f"with values guessed by name: {hows['guessed']}")
    unused_n = sum(1 for r in kernels if r[7].startswith("uninstantiated"))
    print(f"  not instantiated by any driver in the corpus: {unused_n} kernels "
          f"({hows['uninstantiated']} of them compile at guessed arguments)")
    for kind, what in (("npuir", "of the npuir dialect (another backend's language)"),
                       ("negative", "of negative tests (each should fail with the error it tests)")):
        rs = [r for r in apart if r[5] == kind]
        if rs:
            print(f"apart: {len(rs)} kernels {what}, {sum(1 for r in rs if r[2])} of them compile")
    if opt.by_folder:
        folders = {}
        for r in kernels:
            parts = os.path.relpath(r[0], opt.folder).split(os.sep)
            f = os.sep.join(parts[:2]) if len(parts) > 2 else parts[0]
            n, k = folders.get(f, (0, 0))
            folders[f] = (n + bool(r[2]), k + 1)
        print(f"\n{'compiled':>8} / {'total':<5}  folder")
        for f in sorted(folders):
            print(f"{folders[f][0]:8} / {folders[f][1]:<5}  {f}")
    for title, table in (("failure class (example)", classes),
                         ("failure class of kernels no driver instantiates (guessed arguments)", unused)):
        if table or table is classes:
            print(f"\n{'count':>5}  {title}")
        for label, rs in sorted(table.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            ex = os.path.relpath(rs[0][0], opt.folder) + (f" -k {rs[0][1]}" if rs[0][1] else "")
            print(f"{len(rs):5}  {label}  ({ex})")
    if opt.v:
        for r in kernels:
            if not r[2]:
                print("\nFAIL " + " ".join(r[4]) + "\n     " + r[3])
    if opt.sim:
        simmed = [r for r in kernels if r[6]]
        clean = [r for r in simmed if r[6][0].startswith("clean")]
        print(f"\nsim: {len(clean)} of {len(simmed)} compiled kernels run without race or sync error")
        groups = {}
        for r in simmed:
            if not r[6][1] and not r[6][0].startswith(("clean", "findings")):
                groups.setdefault(classify(r[6][0]), []).append(r)
            for x in r[6][1]:
                groups.setdefault(x, []).append(r)
        print(f"{'count':>5}  finding (kernels)")
        for label, rs in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            names = ", ".join(sorted({os.path.relpath(r[0], opt.folder) + (f" -k {r[1]}" if r[1] else "")
                                      for r in rs}))
            print(f"{len(rs):5}  {label}  ({names[:300]})")
    if opt.list:
        with open(opt.list, "w") as f:
            for r in results:
                line = (f"{'ok' if r[2] else 'FAIL'}\t{os.path.relpath(r[0], opt.folder)}\t{r[1] or '-'}\t{r[3]}"
                        f"\t{r[5] or '-'}\t{r[7]}")
                if r[6]:
                    line += f"\t{r[6][0]}\t{' | '.join(r[6][1])}\t{' '.join(r[4][2:])} {r[6][2]}"
                f.write(line.rstrip(" ") + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
