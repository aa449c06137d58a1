"""tilec for Python: compile TileLang-Ascend kernels and run them on NumPy arrays.

A stdlib-only ctypes binding over libtilec's C API (include/tilec.h); NumPy is
needed for the arrays themselves.

    import tilec
    k = tilec.compile("kernels/examples/gemm.py", M=256, N=256, K=128)
    c = k(a, b)                      # outputs are allocated and returned
    c = k(a, b, target="ref")        # "ref" (reference semantics), "sim", "cpu", "pto"

Inputs are matched, in order, to the parameters that are neither outputs nor
workspaces, as upstream TileLang does; symbolic dims come from their shapes.
bfloat16 and fp8 tensors are passed as uint16 / uint8 arrays holding the bits.

Factory arguments are keyword arguments of compile(); a factory parameter that
shares a name with one of compile()'s own (kernel, out_idx, pass_configs,
args, name) is given in the `args` dict: compile(path, args={"kernel": 3}).
Every tilec error is a TilecError; one from the simulator's race and sync
checks (target="sim") carries the outputs and the report the run produced.

The library is found through $TILEC_LIB, then ../build/libtilec.so next to this
file, then (installed by `make install` as PREFIX/share/tilec/python/tilec.py)
PREFIX/lib/libtilec.so, then the system's libtilec.so.
"""

import ctypes
import json
import os
import re

__all__ = ["compile", "compile_string", "Kernel", "TilecError", "version"]

_MAX_DIMS = 8
_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
           "float8_e4m3fn", "float8_e5m2", "float16", "bfloat16", "float32", "float64"]
# NumPy storage of each dtype (bfloat16 and fp8 as raw bits).
_NP = {"bool": "bool", "int8": "int8", "uint8": "uint8", "int16": "int16", "uint16": "uint16",
       "int32": "int32", "uint32": "uint32", "int64": "int64", "uint64": "uint64",
       "float8_e4m3fn": "uint8", "float8_e5m2": "uint8", "float16": "float16",
       "bfloat16": "uint16", "float32": "float32", "float64": "float64"}
_ROLES = ["input", "output", "workspace"]


_RACE = -9  # TILEC_ERR_RACE


class TilecError(RuntimeError):
    """A tilec call failed; the message is tilec's diagnostic (file:line:col, caret).

    status: the C API's status (-1 compile error, -2 run-time error, -9 races or
    sync misuse found by the simulator, ...). For races, `outputs` holds what
    the call would have returned and `report` the simulator's report."""

    def __init__(self, status, message, outputs=None, report=None):
        super().__init__(message)
        self.status = status
        self.outputs = outputs
        self.report = report


# tilec's messages name the command line's options; through Python they are
# compile()'s arguments.
_PYTHON_TERMS = [
    (re.compile(r"give it with -a NAME=VALUE"), "pass it to tilec.compile() as NAME=VALUE"),
    (re.compile(r"give it with -a (\w+)=VALUE"), r"pass \1=VALUE to tilec.compile()"),
    (re.compile(r"\(given with -a; "), "(given to tilec.compile(); "),
    (re.compile(r"with -k ([\w.]+)"), r'with kernel="\1"'),
    (re.compile(r"-k (\S+): "), r'kernel="\1": '),
    (re.compile(r"(^|[\s(])-a (\w+)"), r"\1argument '\2'"),
    (re.compile(r"--out-idx"), "out_idx"),
    (re.compile(r"--pass-config"), "pass_configs"),
    (re.compile(r"give it with -d (\w+)=N"), r"give an input whose shape has \1"),
]


def _python_terms(message):
    for pattern, repl in _PYTHON_TERMS:
        message = pattern.sub(repl, message)
    return message


class _Arg(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("value", ctypes.c_char_p)]


class _Options(ctypes.Structure):
    _fields_ = [("kernel", ctypes.c_char_p), ("args", ctypes.POINTER(_Arg)), ("nargs", ctypes.c_int),
                ("pass_configs", ctypes.POINTER(_Arg)), ("npass_configs", ctypes.c_int),
                ("out_idx", ctypes.c_char_p)]


class _ParamInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("is_tensor", ctypes.c_int), ("role", ctypes.c_int),
                ("dtype", ctypes.c_int), ("ndim", ctypes.c_int), ("shape", ctypes.c_int64 * _MAX_DIMS),
                ("shape_expr", ctypes.c_char_p * _MAX_DIMS)]


class _Value(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("dtype", ctypes.c_int), ("ndim", ctypes.c_int),
                ("shape", ctypes.c_int64 * _MAX_DIMS), ("is_scalar", ctypes.c_int),
                ("i", ctypes.c_int64), ("f", ctypes.c_double)]


class _Report(ctypes.Structure):
    _fields_ = [("seconds", ctypes.c_double), ("cycles", ctypes.c_int64), ("time_us", ctypes.c_double),
                ("races", ctypes.c_int), ("benign_races", ctypes.c_int), ("json", ctypes.c_void_p)]


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    installed = os.path.join(here, "..", "..", "..", "lib", "libtilec.so")  # PREFIX/share/tilec/python
    for path in (os.environ.get("TILEC_LIB"), os.path.join(here, "..", "build", "libtilec.so"), installed, "libtilec.so"):
        if not path:
            continue
        try:
            lib = ctypes.CDLL(path)
            break
        except OSError:
            continue
    else:
        raise OSError("libtilec.so not found: set TILEC_LIB or build tilec (make)")
    p = ctypes.POINTER
    sigs = {
        "tilec_version": (ctypes.c_char_p, []),
        "tilec_target_name": (ctypes.c_char_p, [ctypes.c_int]),
        "tilec_context_create": (ctypes.c_int, [p(ctypes.c_void_p)]),
        "tilec_context_destroy": (None, [ctypes.c_void_p]),
        "tilec_context_error": (ctypes.c_char_p, [ctypes.c_void_p]),
        "tilec_compile_file": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, p(_Options), p(ctypes.c_void_p)]),
        "tilec_compile_string": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, p(_Options),
                                                p(ctypes.c_void_p)]),
        "tilec_kernel_destroy": (None, [ctypes.c_void_p]),
        "tilec_kernel_name": (ctypes.c_char_p, [ctypes.c_void_p]),
        "tilec_kernel_num_params": (ctypes.c_int, [ctypes.c_void_p]),
        "tilec_kernel_param": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, p(_ParamInfo)]),
        "tilec_kernel_num_dims": (ctypes.c_int, [ctypes.c_void_p]),
        "tilec_kernel_dim_name": (ctypes.c_char_p, [ctypes.c_void_p, ctypes.c_int]),
        "tilec_kernel_param_shape": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, p(ctypes.c_int64),
                                                    p(ctypes.c_int64)]),
        "tilec_kernel_ir": (ctypes.c_void_p, [ctypes.c_void_p]),
        "tilec_launch": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, p(_Value), ctypes.c_int, p(_Report)]),
        "tilec_free": (None, [ctypes.c_void_p]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args
    return lib


_lib = None


def _api():
    global _lib
    if _lib is None:
        _lib = _load()
    return _lib


def version():
    return _api().tilec_version().decode()


_target_ids = None


def _targets():
    """The library's targets by name ("ref", "sim", "cpu", "pto"): tilec_target_name of 0, 1, ..."""
    global _target_ids
    if _target_ids is None:
        lib, ids, i = _api(), {}, 0
        while lib.tilec_target_name(i):
            ids[lib.tilec_target_name(i).decode()] = i
            i += 1
        _target_ids = ids
    return _target_ids


def _options(kernel, args, pass_configs, out_idx):
    if kernel is not None and not isinstance(kernel, str):
        raise TypeError("kernel must be a name (str), got %s" % type(kernel).__name__)
    if out_idx is not None and not isinstance(out_idx, str):
        out_idx = repr(out_idx)  # [-1], 2: the expression tilec reads
    arr = (_Arg * max(1, len(args)))(*[_Arg(k.encode(), v.encode()) for k, v in args])
    pcs = (_Arg * max(1, len(pass_configs)))(*[_Arg(k.encode(), v.encode()) for k, v in pass_configs])
    keep = (arr, pcs)
    o = _Options(kernel.encode() if kernel else None, arr, len(args), pcs, len(pass_configs),
                 out_idx.encode() if out_idx else None)
    return o, keep


def _expr(v):
    """A factory argument as the Python expression tilec's evaluator reads."""
    if isinstance(v, str) and v.startswith("lambda"):
        return v
    return repr(v)


class Kernel:
    """A compiled kernel: call it with the input arrays."""

    def __init__(self, ctx, handle):
        self._ctx, self._k = ctx, handle
        lib = _api()
        self.name = lib.tilec_kernel_name(handle).decode()
        self.dims = [lib.tilec_kernel_dim_name(handle, i).decode() for i in range(lib.tilec_kernel_num_dims(handle))]
        self.params = []
        for i in range(lib.tilec_kernel_num_params(handle)):
            info = _ParamInfo()
            lib.tilec_kernel_param(handle, i, ctypes.byref(info))
            # a dimension is an int, or the expression of symbolic dims ("M", "b * m")
            shape = [info.shape[d] if info.shape[d] >= 0 else info.shape_expr[d].decode()
                     for d in range(info.ndim)] if info.is_tensor else []
            self.params.append({
                "name": info.name.decode(), "tensor": bool(info.is_tensor), "role": _ROLES[info.role],
                "dtype": _DTYPES[info.dtype], "shape": shape,
            })

    def __del__(self):
        if getattr(self, "_k", None):
            _api().tilec_kernel_destroy(self._k)
            self._k = None
        if getattr(self, "_ctx", None):
            _api().tilec_context_destroy(self._ctx)
            self._ctx = None

    @property
    def ir(self):
        lib = _api()
        p = lib.tilec_kernel_ir(self._k)
        try:
            return ctypes.string_at(p).decode()
        finally:
            lib.tilec_free(p)

    def __call__(self, *inputs, target="ref", report=False):
        """Runs the kernel on `target` ("ref", "sim", "cpu", "pto"); returns its
        outputs (one array or a tuple), with report=True also the report: a dict
        of seconds, cycles, time_us, races, benign_races and, for "sim", "sim":
        the simulator's whole report (what tilec sim --json writes)."""
        import numpy as np
        lib = _api()
        if target not in _targets():
            raise ValueError("target must be one of %s, got %r" % (", ".join(_targets()), target))
        ins = [i for i, p in enumerate(self.params) if p["role"] == "input"]
        if len(inputs) != len(ins):
            raise TypeError("%s takes %d inputs (%s), got %d" % (
                self.name, len(ins), ", ".join(self.params[i]["name"] for i in ins), len(inputs)))
        arrays = [None] * len(self.params)
        dims = {}
        for i, x in zip(ins, inputs):
            p = self.params[i]
            if not p["tensor"]:
                arrays[i] = x
                continue
            want = np.dtype(_NP[p["dtype"]])
            a = np.ascontiguousarray(x)
            if a.dtype != want:
                raise TypeError("input '%s' must be %s (numpy %s), got %s" % (p["name"], p["dtype"], want, a.dtype))
            if a.ndim != len(p["shape"]):
                raise ValueError("input '%s' must have %d dimensions, got %d" % (p["name"], len(p["shape"]), a.ndim))
            for e, n in zip(p["shape"], a.shape):
                if isinstance(e, int) and e != n:
                    raise ValueError("input '%s' must have shape %s, got %s" % (p["name"], p["shape"], a.shape))
                if e in self.dims:
                    dims.setdefault(e, n)
            arrays[i] = a
        dimv = (ctypes.c_int64 * max(1, len(self.dims)))(*[dims.get(d, -1) for d in self.dims])
        outs = []
        for i, p in enumerate(self.params):
            if arrays[i] is not None or not p["tensor"]:
                continue
            shape = (ctypes.c_int64 * _MAX_DIMS)()
            if lib.tilec_kernel_param_shape(self._k, i, dimv, shape) != 0:
                raise ValueError("cannot size '%s' (%s) from the inputs' shapes" % (p["name"], p["shape"]))
            arrays[i] = np.zeros([shape[d] for d in range(len(p["shape"]))], dtype=_NP[p["dtype"]])
            if p["role"] == "output":
                outs.append(arrays[i])
        values = (_Value * len(self.params))()
        for i, p in enumerate(self.params):
            v = values[i]
            if not p["tensor"]:
                v.is_scalar = 1
                v.i, v.f = int(arrays[i]), float(arrays[i])
                continue
            a = arrays[i]
            v.data = a.ctypes.data
            v.dtype = _DTYPES.index(p["dtype"])
            v.ndim = a.ndim
            for d in range(a.ndim):
                v.shape[d] = a.shape[d]
        rep = _Report()
        st = lib.tilec_launch(self._k, _targets()[target], values, len(self.params), ctypes.byref(rep))
        facts = {"seconds": rep.seconds, "cycles": rep.cycles, "time_us": rep.time_us, "races": rep.races,
                 "benign_races": rep.benign_races}
        if rep.json:  # the library's string: read, then freed (every call)
            facts["sim"] = json.loads(ctypes.string_at(rep.json).decode())
            lib.tilec_free(rep.json)
        result = outs[0] if len(outs) == 1 else tuple(outs)
        if st != 0:
            message = _python_terms(lib.tilec_context_error(self._ctx).decode())
            if st == _RACE:  # the run completed: its outputs and report are kept
                raise TilecError(st, message, outputs=result, report=facts)
            raise TilecError(st, message)
        if report:
            return result, facts
        return result


def _compile(path, source, kernel, pass_configs, out_idx, args):
    lib = _api()
    ctx = ctypes.c_void_p()
    if lib.tilec_context_create(ctypes.byref(ctx)) != 0:
        raise MemoryError("tilec_context_create failed")
    opts, keep = _options(kernel, [(k, _expr(v)) for k, v in args.items()],
                          [(k, _expr(v)) for k, v in (pass_configs or {}).items()], out_idx)
    k = ctypes.c_void_p()
    if source is None:
        st = lib.tilec_compile_file(ctx, path.encode(), ctypes.byref(opts), ctypes.byref(k))
    else:
        st = lib.tilec_compile_string(ctx, path.encode(), source.encode(), ctypes.byref(opts), ctypes.byref(k))
    del keep
    if st != 0:
        msg = _python_terms(lib.tilec_context_error(ctx).decode())
        lib.tilec_context_destroy(ctx)
        raise TilecError(st, msg)
    return Kernel(ctx, k)


def _factory_args(args, kwargs):
    both = set(args or {}) & set(kwargs)
    if both:
        raise TypeError("factory argument %s given both in args and as a keyword" % ", ".join(sorted(both)))
    merged = dict(args or {})
    merged.update(kwargs)
    return merged


def compile(path, kernel=None, pass_configs=None, out_idx=None, args=None, **kwargs):
    """Compiles a kernel file. kernel: the factory, builder or prim_func (the
    file's only one when None); keyword arguments (and the `args` dict, for
    parameters named like compile()'s own) are the factory's arguments."""
    return _compile(path, None, kernel, pass_configs, out_idx, _factory_args(args, kwargs))


def compile_string(source, name="<string>", kernel=None, pass_configs=None, out_idx=None, args=None, **kwargs):
    """Compiles kernel source text (`name` is used in messages and for imports)."""
    return _compile(name, source, kernel, pass_configs, out_idx, _factory_args(args, kwargs))
