#!/usr/bin/env python3
"""Run an upstream file's host code with stand-in torch / tilelang modules and record the
arguments of every kernel factory call its driver makes.

    scripts/upstream_harness.py FILE [--val N]

A factory is a function of any .py file under the file's folder tree that is decorated with a
`jit` or builds a `@T.prim_func` (or `prim_func`) inside itself, or any function the stand-in
`tilelang.jit` wraps (generated code too). The driver is the file's `__main__` block, else its
pytest-style `test_*` functions (each `pytest.mark.parametrize` combination, at most 64).
Tensors are shape-only stand-ins: arithmetic keeps the shape, and reading a tensor's contents
(`.item()`, `int(t)`, `.tolist()`) gives 0 everywhere with --val 0 (the default) and N + i at
element i with --val N, and so do a 0-d tensor's comparisons with numbers and its truth value
(other tensors compare elementwise, to bool tensors, and are true); running twice tells calls
that depend on tensor contents from those the shapes alone decide. Tensors made from Python
lists of ints keep their contents. torch.nn.Module / torch.autograd.Function run their
forward (and .backward() the Function's backward); a few torch_npu ops return their tuples;
a file that imports relatively runs as a module of its folder's package.

Prints one JSON line per call: {"id": N, "file": defining file, "kernel": qualified name,
"args": {param: value}, "opaque": [params whose value is not a plain constant], "tensors": {opaque
param that is a tensor: [shape, dtype]}}; when the
kernel a jit factory returned is launched, {"launch": N, "dims": {T.symbolic or scalar: value},
"inputs": {param: [nested values, dtype]}} (the sizes of the tensors the driver passes, and the
contents of its integer tensors made from Python lists, e.g. cu_seqlens); and last {"done": true} or {"stopped": "the
exception that ended the driver", "line": N}.
scripts/upstream_check.py uses it (record()) for the kernels whose arguments tilec cannot find.
Local checks only: the host code runs on the machine, so run it on a copy of the files.
"""
import ast
import inspect
import itertools
import json
import math
import os
import runpy
import subprocess
import sys
import types

VAL = [0]  # what tensor contents read as (--val)


class DType:
    def __init__(self, name, size, fp):
        self.name, self.itemsize, self.is_floating_point = name, size, fp

    def __repr__(self):
        return "torch." + self.name

    __str__ = __repr__

    def __eq__(self, o):
        return isinstance(o, DType) and o.name == self.name

    def __hash__(self):
        return hash(self.name)


DTYPES = {n: DType(n, s, f) for n, s, f in [
    ("float16", 2, True), ("bfloat16", 2, True), ("float32", 4, True), ("float64", 8, True),
    ("int8", 1, False), ("uint8", 1, False), ("int16", 2, False), ("int32", 4, False),
    ("int64", 8, False), ("uint16", 2, False), ("uint32", 4, False), ("uint64", 8, False), ("bool", 1, False)]}
ALIASES = {"half": "float16", "float": "float32", "double": "float64", "int": "int32", "long": "int64"}


def _dims(args):
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    return tuple(int(a) for a in args)


class Size(tuple):
    def numel(self):
        return math.prod(self)


class Tensor:
    """A tensor of a shape and dtype, without contents."""

    def __init__(self, shape, dtype=None, data=None):
        self._shape = Size(int(s) for s in shape)
        self.dtype = dtype or DTYPES["float32"]
        self.device = Device()
        self.data = data  # the flat contents of a tensor made from a Python list of ints

    shape = property(lambda self: self._shape)
    ndim = property(lambda self: len(self._shape))

    def size(self, d=None):
        return self._shape if d is None else self._shape[d]

    def dim(self):
        return len(self._shape)

    def numel(self):
        return math.prod(self._shape)

    def element_size(self):
        return self.dtype.itemsize

    def stride(self, d=None):
        out, acc = [], 1
        for s in reversed(self._shape):
            out.insert(0, acc)
            acc *= s
        return tuple(out) if d is None else out[d]

    def _as(self, shape=None, dtype=None):
        if shape is None:
            return Tensor(self._shape, dtype or self.dtype, self.data)
        return Tensor(shape, dtype or self.dtype)

    def view(self, *s):
        if len(s) == 1 and isinstance(s[0], DType):
            return self._as(dtype=s[0])
        s = list(_dims(s))
        if -1 in s:
            s[s.index(-1)] = self.numel() // math.prod(x for x in s if x != -1)
        return self._as(s)

    reshape = view

    def flatten(self, *a):
        return self._as((self.numel(),))

    def to(self, *a, **k):
        dt = [x for x in list(a) + list(k.values()) if isinstance(x, DType)]
        return self._as(dtype=dt[0]) if dt else self

    def permute(self, *d):
        return self._as([self._shape[i] for i in _dims(d)])

    def transpose(self, a, b):
        s = list(self._shape)
        s[a], s[b] = s[b], s[a]
        return self._as(s)

    def t(self):
        return self.transpose(0, 1)

    def unsqueeze(self, d):
        s = list(self._shape)
        s.insert(d if d >= 0 else len(s) + 1 + d, 1)
        return self._as(s)

    def squeeze(self, d=None):
        return self._as([x for i, x in enumerate(self._shape) if not (x == 1 and (d is None or i == d))])

    def expand(self, *s):
        return self._as([o if n == -1 else n for n, o in zip(_dims(s), self._shape)] if -1 in _dims(s) else _dims(s))

    def __getitem__(self, idx):
        if self.data is not None and isinstance(idx, int) and self.dim() >= 1:  # a row of known contents
            n = self.numel() // self._shape[0]
            i = idx % self._shape[0]
            return Tensor(self._shape[1:], self.dtype, self.data[i * n:(i + 1) * n])
        idx = idx if isinstance(idx, tuple) else (idx,)
        out, d = [], 0
        for it in idx:
            if it is None:
                out.append(1)
            elif it is Ellipsis:
                n = len(self._shape) - (len(idx) - 1)
                out += self._shape[d:d + n]
                d += n
            elif isinstance(it, slice):
                out.append(len(range(*it.indices(self._shape[d]))))
                d += 1
            elif isinstance(it, Tensor):
                out += list(it._shape)
                d += 1
            else:
                d += 1
        return self._as(out + list(self._shape[d:]))

    def __setitem__(self, i, v):
        pass

    _grad_fn = None  # (Function subclass, its ctx) of a tensor a torch.autograd.Function made

    def backward(self, grad=None, *a, **k):
        """Runs the backward of the autograd Function that made this tensor (one level: what
        a driver's test of a custom Function needs to reach the backward kernel)."""
        if self._grad_fn:
            fn, ctx = self._grad_fn
            fn.backward(ctx, grad if grad is not None else self._as())

    def __len__(self):
        return self._shape[0]

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def _contents(self):
        """Known contents, else N (--val) at every element for N = 0 and N + i at element i
        otherwise, so that what a driver derives from contents differs between runs."""
        if self.data is not None:
            return self.data
        return list(range(VAL[0], VAL[0] + self.numel())) if VAL[0] else [0] * self.numel()

    def item(self):
        return self.data[0] if self.data else VAL[0]

    def tolist(self):
        return _nest(self._contents(), list(self._shape)) if self.dim() else self.item()

    def __int__(self):
        return int(self.item())

    __index__ = __int__

    def __float__(self):
        return float(self.item())

    def __bool__(self):  # a 0-d tensor: its contents (--val); else True
        return bool(self.item()) if self.dim() == 0 else True

    def __repr__(self):
        return "<Tensor%s %s>" % (tuple(self._shape), self.dtype)

    __format__ = lambda self, spec: repr(self)

    T = mT = property(lambda self: self.transpose(-1, -2) if self.dim() > 1 else self)
    grad = property(lambda self: self._as())

    def __getattr__(self, name):  # .contiguous(), .npu(), .float() ...: the same tensor
        if name.startswith("__"):
            raise AttributeError(name)
        dt = DTYPES.get(ALIASES.get(name, name))
        return (lambda *a, **k: self._as(dtype=dt)) if dt else (lambda *a, **k: self)

    def _binary(self, o, *a):
        if isinstance(o, Tensor) and o.numel() > self.numel():
            return self._as(o._shape)
        return self._as()

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _binary
    __floordiv__ = __mod__ = __pow__ = __and__ = __or__ = _binary

    def _compare(op):
        """Elementwise, as torch: a bool tensor (`(ids == k).nonzero()`); between a 0-d tensor
        and a number (or another 0-d tensor) a truth value read from the contents (--val), so
        that what a driver decides from a tensor's value differs between the runs, as its
        calls then do (e.g. `max(count, 1)` over per-expert token counts)."""
        def compare(self, o):
            if self.dim() == 0 and (isinstance(o, (int, float)) or isinstance(o, Tensor) and o.dim() == 0):
                return op(self.item(), o.item() if isinstance(o, Tensor) else o)
            return self._binary(o)._as(dtype=DTYPES["bool"])
        return compare
    __lt__, __le__ = _compare(lambda a, b: a < b), _compare(lambda a, b: a <= b)
    __gt__, __ge__ = _compare(lambda a, b: a > b), _compare(lambda a, b: a >= b)
    __eq__, __ne__ = _compare(lambda a, b: a == b), _compare(lambda a, b: a != b)
    __hash__ = object.__hash__
    __matmul__ = __rshift__ = __lshift__ = __xor__ = _binary
    __neg__ = __abs__ = __invert__ = lambda self: self


class Device:
    def __init__(self, d="npu"):
        self.type, self.index = str(d).split(":")[0], 0

    def __eq__(self, o):
        return True

    def __hash__(self):
        return 0


class Anything(types.ModuleType):
    """A module whose every attribute is callable and returns another Anything: what the host
    code needs of libraries the harness does not model."""

    def __init__(self, name):
        super().__init__(name)
        self.__path__ = []  # a package: its submodules are Anything too

    def __repr__(self):  # code a driver generates from it names it
        return self.__name__

    __str__ = __repr__

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Anything(self.__name__ + "." + name)

    def __call__(self, *a, **k):
        if len(a) == 1 and callable(a[0]) and not k and not isinstance(a[0], Tensor):
            return a[0]  # a decorator
        if a and isinstance(a[0], Tensor):  # torch.exp(x), F.silu(x), ...: x's shape
            return Tensor(a[0].shape, k.get("dtype") or a[0].dtype)
        return Anything(self.__name__ + "()")

    def __iter__(self):
        return iter(())

    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False

    def __bool__(self):
        return False

    def __int__(self):
        return VAL[0]

    __index__ = __int__

    def __float__(self):
        return float(VAL[0])

    def __len__(self):
        return 0

    def __getitem__(self, k):
        return self

    def __mro_entries__(self, bases):
        return (object,)

    def _same(self, *a):
        return self

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _same
    __floordiv__ = __rfloordiv__ = __mod__ = __pow__ = __neg__ = __matmul__ = __or__ = __ror__ = _same


class _Ctx:
    """The ctx of a torch.autograd.Function's forward / backward."""

    saved_tensors = ()

    def save_for_backward(self, *tensors):
        self.saved_tensors = tensors

    def mark_non_differentiable(self, *a):
        pass

    def set_materialize_grads(self, *a):
        pass


class Function:
    """torch.autograd.Function: apply runs forward with a ctx, and the tensors it returns
    remember (the class, ctx) so that .backward() runs the class's backward."""

    @classmethod
    def apply(cls, *args):
        ctx = _Ctx()
        out = cls.forward(ctx, *args)
        for t in out if isinstance(out, tuple) else (out,):
            if isinstance(t, Tensor):
                t._grad_fn = (cls, ctx)
        return out


class Module:
    """torch.nn.Module: calling it runs forward; .to() / .eval() / .half() ... keep it."""

    def __init__(self, *a, **k):
        pass

    def __call__(self, *a, **k):
        return self.forward(*a, **k)

    def forward(self, x, *a, **k):  # layers the stand-in does not model: their input's shape
        return x

    def _self(self, *a, **k):
        return self

    to = cuda = npu = cpu = eval = train = half = float = bfloat16 = requires_grad_ = _self

    def parameters(self, *a, **k):
        return iter(())

    def register_buffer(self, name, value, *a, **k):
        setattr(self, name, value)


class Linear(Module):
    """nn.Linear(in, out): x [..., in] -> [..., out]; weight [out, in]."""

    def __init__(self, in_features, out_features, bias=True, dtype=None, **k):
        self.weight = Tensor((out_features, in_features), dtype)
        self.bias = Tensor((out_features,), dtype) if bias else None

    def forward(self, x, *a, **k):
        return Tensor(list(x.shape[:-1]) + [self.weight.shape[0]], x.dtype)


def _nn(functional):
    nn = Anything("torch.nn")
    nn.functional = functional
    nn.Module, nn.Linear = Module, Linear
    nn.ModuleList = nn.Sequential = lambda items=(), *a: list(items)
    nn.Parameter = lambda t=None, *a, **k: t
    for name in ("SiLU", "ReLU", "GELU", "Identity", "Dropout", "Sigmoid", "Tanh"):
        setattr(nn, name, type(name, (Module,), {}))  # elementwise: the input's shape
    return nn


def _torch(cube=24, vector=48):
    t = Anything("torch")
    for name, d in DTYPES.items():
        setattr(t, name, d)
    for alias, name in ALIASES.items():
        setattr(t, alias, DTYPES[name])
    t.dtype, t.Tensor, t.Size, t.device = DType, Tensor, Size, Device

    def make(*shape, dtype=None, **k):
        return Tensor(_dims(shape), dtype)
    for name in ("empty", "zeros", "ones", "rand", "randn"):
        setattr(t, name, make)
    t.full = lambda shape, v, dtype=None, **k: Tensor(_dims((shape,)), dtype)

    def randint(low, high=None, size=None, dtype=None, **k):
        return Tensor(_dims((high if size is None else size,)), dtype or DTYPES["int64"])
    t.randint = randint
    t.randperm = lambda n, dtype=None, **k: Tensor((n,), dtype or DTYPES["int64"])
    t.arange = lambda *a, dtype=None, **k: Tensor((len(range(*[int(x) for x in a])),), dtype or DTYPES["int64"])
    for name in ("empty_like", "zeros_like", "ones_like", "rand_like", "randn_like", "full_like"):
        setattr(t, name, lambda x, *a, dtype=None, **k: Tensor(x.shape, dtype or x.dtype))

    def tensor(data, dtype=None, **k):
        shape, v = [], data
        while isinstance(v, (list, tuple)):
            shape.append(len(v))
            v = v[0] if v else 0
        flat = list(data) if isinstance(data, (list, tuple)) else [data]
        while flat and isinstance(flat[0], (list, tuple)):
            flat = [x for row in flat for x in row]
        ints = all(isinstance(x, int) and not isinstance(x, bool) for x in flat)
        return Tensor(shape, dtype or (DTYPES["int64"] if ints else DTYPES["float32"]), flat if ints else None)
    t.tensor = t.as_tensor = tensor
    t.from_numpy = lambda a: Tensor(a.shape, DTYPES["float32"])
    def stack(ts, dim=0, **k):
        if not all(isinstance(x, Tensor) for x in ts):  # something the stand-in does not model
            return Anything("torch.stack()")
        return Tensor([len(ts)] + list(ts[0].shape), ts[0].dtype)
    t.stack = stack

    def cat(ts, dim=0, **k):
        if not all(isinstance(x, Tensor) for x in ts):
            return Anything("torch.cat()")
        s = list(ts[0].shape)
        s[dim] = sum(x.shape[dim] for x in ts)
        return Tensor(s, ts[0].dtype)
    t.cat = cat

    def topk(x, k, dim=-1, *a, **kw):
        s = list(x.shape)
        s[dim] = k
        return Tensor(s, x.dtype), Tensor(s, DTYPES["int64"])
    t.topk = topk
    t.sort = lambda x, *a, **k: (x._as(), x._as(dtype=DTYPES["int64"]))
    t.manual_seed = lambda *a: None
    t.autograd = Anything("torch.autograd")
    t.autograd.Function = Function
    t.is_tensor = lambda x: isinstance(x, Tensor)
    # tilec's default arch (910B2): 24 cube, 48 vector cores
    props = types.SimpleNamespace(cube_core_num=cube, vector_core_num=vector, name="Ascend910B2",
                                  l2_cache_size=192 << 20, total_memory=64 << 30)
    npu = Anything("torch.npu")
    npu.get_device_properties = lambda *a: props
    npu.current_device = lambda: 0
    npu.is_available = lambda: True
    npu.device_count = lambda: 1
    t.npu = npu
    return t


class Symbol(str):
    """A T.symbolic dimension; arithmetic on it gives an expression (not a dimension name)."""

    def _expr(self, *o):
        return Symbol("(%s)" % self)

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _expr
    __floordiv__ = __rfloordiv__ = __truediv__ = __mod__ = _expr


class Spec:
    def __init__(self, shape, dtype):
        self.shape, self.dtype = shape, dtype


class TensorType:
    """T.Tensor(shape, dtype) and T.Tensor[shape, dtype]: a parameter's annotation."""

    def __call__(self, shape, dtype="float32", *a, **k):
        return Spec(tuple(shape) if isinstance(shape, (tuple, list)) else (shape,), dtype)

    def __getitem__(self, key):
        return self(*key) if isinstance(key, tuple) and len(key) == 2 else self(key)


class DataType:
    """tilelang's DataType(name): its bits."""

    def __init__(self, name):
        self.bits = _dtype(name).itemsize * 8


def _language():
    T = Anything("T")
    T.Tensor = T.Buffer = TensorType()
    T.prim_func = lambda f=None, **k: f if f else (lambda g: g)
    T.macro = T.prim_func
    T.symbolic = lambda name, *a, **k: SYMBOLS.add(name) or Symbol(name)
    return T


def _dtype(d):
    d = str(d).split(".")[-1]
    return DTYPES.get(ALIASES.get(d, d), DTYPES["float32"])


def _nest(flat, shape):
    """A flat list as nested lists of the shape."""
    if not shape:
        return flat[0] if flat else 0
    if len(shape) == 1:
        return list(flat)
    n = len(flat) // shape[0] if shape[0] else 0
    return [_nest(flat[i * n:(i + 1) * n], shape[1:]) for i in range(shape[0])]


class Kernel:
    """What the stand-in jit returns: called with tensors, it returns the outputs its out_idx
    names, shaped by the prim_func's T.Tensor annotations."""

    def __init__(self, func, out_idx, call=None, workspace_idx=None):
        self.func, self.out_idx, self.call, self.workspace_idx = func, out_idx, call, workspace_idx

    def __call__(self, *inputs, **k):
        params = [(n, v) for n, v in getattr(self.func, "__annotations__", {}).items() if n != "return"]

        def indices(x):
            x = x if isinstance(x, (list, tuple)) else [] if x is None else [x]
            return [i % len(params) for i in x] if params else []
        idx, work = indices(self.out_idx), indices(self.workspace_idx)
        # the caller passes every parameter, or all but the outputs, or all but the outputs and
        # the workspaces (upstream's jit allocates those: workspace_idx)
        given = params
        if len(inputs) < len(params):
            given = [p for i, p in enumerate(params) if i not in idx]
        if len(inputs) < len(given) and work:
            given = [p for i, p in enumerate(params) if i not in idx and i not in work]
        # -d values: the T.symbolic sizes and scalar parameters; -i: integer inputs made from lists
        dims, data = {}, {}
        for (name, sp), x in zip(given, inputs):
            if isinstance(sp, Spec) and isinstance(x, Tensor):
                dims.update((n, d) for n, d in zip(sp.shape, x.shape) if isinstance(n, str) and n in SYMBOLS)
                if x.data is not None and str(sp.dtype) in ("int32", "uint32", "int64"):
                    data[name] = [_nest(x.data, list(x.shape)), str(sp.dtype)]
            elif not isinstance(sp, Spec) and isinstance(x, (int, float)) and not isinstance(x, bool):
                dims[name] = x
        if (dims or data) and self.call is not None:
            print(json.dumps({"launch": self.call, "dims": dims, "inputs": data}), flush=True)
        if not idx:
            return None
        outs = [Tensor([dims.get(s, 1) if isinstance(s, str) else s if isinstance(s, int) else 1
                        for s in params[i][1].shape], _dtype(params[i][1].dtype)) for i in idx
                if isinstance(params[i][1], Spec)]
        if not outs:
            return None
        return outs[0] if len(outs) == 1 else outs

    def __getattr__(self, name):  # get_kernel_source(), get_profiler(); no compiled internals
        if not name.startswith("get_"):
            raise AttributeError(name)
        return Anything("kernel." + name)


WRAPPED = set()  # code objects the stand-in jit wrapped (generated modules' factories too)
SYMBOLS = set()  # the names T.symbolic made
CALLS = [0]  # factory calls printed so far (each one's "id")


def _jit(f=None, out_idx=None, workspace_idx=None, **kw):
    def deco(fn):
        WRAPPED.add(fn.__code__)

        def wrapper(*a, **k):
            before = CALLS[0]  # the hook numbers fn's own call first
            func = fn(*a, **k)
            return Kernel(func, out_idx, before if CALLS[0] > before else None, workspace_idx)
        wrapper.__wrapped__ = fn
        wrapper.__jit_impl__ = Anything("jit_impl")
        wrapper.__signature__ = inspect.signature(fn)
        return wrapper
    return deco(f) if callable(f) else deco


class _Fallback:
    """Every module that cannot be imported becomes an Anything."""

    def find_spec(self, name, path=None, target=None):
        import importlib.machinery
        for finder in sys.meta_path:
            if finder is not self:
                try:
                    if finder.find_spec(name, path, target):
                        return None
                except Exception:
                    pass
        return importlib.machinery.ModuleSpec(name, self)

    def create_module(self, spec):
        return Anything(spec.name)

    def exec_module(self, module):
        pass


def _pytest():
    p = Anything("pytest")

    def parametrize(names, values, **k):
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)

        def deco(fn):
            rows = [v if len(names) > 1 else (v,) for v in values]
            fn.__harness_axes__ = getattr(fn, "__harness_axes__", []) + [[dict(zip(names, r)) for r in rows]]
            return fn
        return deco
    p.mark = Anything("pytest.mark")
    p.mark.parametrize = parametrize
    p.fixture = lambda f=None, **k: f if callable(f) else (lambda g: g)
    p.main = lambda *a, **k: _run_tests(sys._getframe(1).f_globals)
    return p


def install():
    sys.meta_path.append(_Fallback())
    sys.dont_write_bytecode = True
    torch = _torch()
    functional = Anything("torch.nn.functional")

    def pad(x, p, *a, **k):
        s = list(x.shape)
        for i in range(len(p) // 2):
            s[-1 - i] += p[2 * i] + p[2 * i + 1]
        return Tensor(s, x.dtype)
    functional.pad = pad
    nn = _nn(functional)
    torch.nn = nn
    torch_npu = Anything("torch_npu")
    torch_npu.npu = torch.npu

    def rms_norm(x, gamma, *a, **k):  # (y, rstd): rstd keeps x's leading dimensions
        g = len(gamma.shape) if isinstance(gamma, Tensor) else 1
        return x._as(), Tensor(list(x.shape[:-g]) + [1] * g, DTYPES["float32"])
    torch_npu.npu_rms_norm = rms_norm

    def moe_token_permute(tokens, indices, num_out_tokens=None, *a, **k):
        # (permuted tokens: one row per (token, expert) pair, sorted indices)
        rows = indices.numel() if isinstance(indices, Tensor) else tokens.shape[0]
        rows = rows if not num_out_tokens else int(num_out_tokens)
        return Tensor([rows] + list(tokens.shape[1:]), tokens.dtype), Tensor([rows], DTYPES["int32"])
    torch_npu.npu_moe_token_permute = moe_token_permute

    def moe_token_unpermute(permuted, sorted_indices, probs=None, *a, **k):
        # the tokens back: a row per token (topk rows of permuted each, topk from probs)
        topk = probs.shape[-1] if isinstance(probs, Tensor) and probs.dim() > 1 else 1
        return Tensor([permuted.shape[0] // topk] + list(permuted.shape[1:]), permuted.dtype)
    torch_npu.npu_moe_token_unpermute = moe_token_unpermute
    # (y, rstd, x + residual)
    torch_npu.npu_add_rms_norm = lambda x1, x2, gamma, *a, **k: rms_norm(x1, gamma) + (x1._as(),)
    tilelang = Anything("tilelang")
    tilelang.jit = _jit
    tilelang.DataType = DataType
    tilelang.compile = lambda func, out_idx=None, **k: Kernel(func, out_idx)
    tilelang.language = _language()
    ascend = Anything("tilelang.carver.arch.ascend")
    # the carver's Ascend device description: a 910B's buffers (tilec's default 910B2)
    ascend.Ascend = lambda *a, **k: types.SimpleNamespace(
        chip_name="Ascend910B", platform="ascend", compute_max_core=24, ub_cap=192 << 10, smem_cap=192 << 10,
        l1_cap=1 << 20, l0a_cap=64 << 10, l0b_cap=64 << 10, l0c_cap=512 << 10)
    # tilelang.utils.target.get_core_num("cube"/"aic" or "vector"/"aiv"): upstream's table gives
    # 20 AIC and 40 AIV for every chip name before torch.npu is initialised (as tilec's front end)
    target = Anything("tilelang.utils.target")

    def get_core_num(kind="cube"):
        kind = kind.lower()
        if kind not in ("cube", "aic", "vector", "aiv"):
            raise ValueError(f"unknown core kind: {kind}")
        return 20 if kind in ("cube", "aic") else 40
    target.get_core_num = get_core_num
    modules = {"tilelang.carver.arch.ascend": ascend, "tilelang.utils.target": target, "torch": torch, "torch.autograd": torch.autograd, "torch.nn": nn, "torch.nn.functional": functional, "torch_npu": torch_npu,
               "tilelang": tilelang, "tilelang.language": tilelang.language, "pytest": _pytest()}
    sys.modules.update(modules)


def factories(path):
    """Qualified names of the functions of a file that are factories (decorated with a jit, or
    building a @T.prim_func inside)."""
    try:
        tree = ast.parse(open(path, encoding="utf-8").read())
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return set()

    def named(d, *names):
        d = d.func if isinstance(d, ast.Call) else d
        return (d.attr if isinstance(d, ast.Attribute) else getattr(d, "id", None)) in names
    out = set()

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = [n for n in ast.walk(child) if n is not child and isinstance(n, ast.FunctionDef)]
                if any(named(d, "jit") for d in child.decorator_list) or any(
                        named(d, "prim_func") for n in inner for d in n.decorator_list):
                    out.add(prefix + child.name)
                visit(child, prefix + child.name + ".<locals>.")
    visit(tree, "")
    return out


def _plain(v):
    """v as a JSON value tilec's -a accepts, or None when it is not a constant."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return v, True
    if type(v).__module__ == "numpy" and hasattr(v, "item"):  # a NumPy scalar
        return _plain(v.item())
    if isinstance(v, DType):
        return v.name, True
    if isinstance(v, Anything) and v.__name__.split(".")[-1] in set(DTYPES) | set(ALIASES):
        return v.__name__.split(".")[-1], True  # T.float16
    if isinstance(v, (tuple, list)):
        items = [_plain(x) for x in v]
        return [x for x, _ in items], all(ok for _, ok in items)
    return repr(v)[:80], False


def _recorder(root):
    """A sys.setprofile hook that prints each factory call of the files under root."""
    known = {}

    def is_factory(code):
        if code in WRAPPED:
            return True
        path = code.co_filename
        if not path.startswith(root):
            return False
        if path not in known:
            known[path] = factories(path)
        return code.co_qualname in known[path]

    def hook(frame, event, arg):
        if event != "call" or not is_factory(frame.f_code):
            return
        code = frame.f_code
        n = code.co_argcount + code.co_kwonlyargcount
        names = list(code.co_varnames[:n])
        args, opaque, tensors = {}, [], {}
        for name in names:
            if name in ("self", "cls") or name not in frame.f_locals:
                continue
            v = frame.f_locals[name]
            args[name], ok = _plain(v)
            if not ok:
                opaque.append(name)
                if isinstance(v, Tensor):  # sized from its shape: T.Tensor(shape, dtype) for tilec's -a
                    tensors[name] = [list(v.shape), v.dtype.name]
        rec = {"id": CALLS[0], "file": code.co_filename, "kernel": code.co_qualname, "args": args,
               "opaque": opaque, "tensors": tensors}
        CALLS[0] += 1
        print(json.dumps(rec), flush=True)
    return hook


def _run_tests(glob):
    """pytest-style drivers: each test_* function once per parametrize combination."""
    stop = None
    for name, fn in list(glob.items()):
        if not (name.startswith("test") and inspect.isfunction(fn)):
            continue
        axes = getattr(fn, "__harness_axes__", [[{}]])
        for combo in itertools.islice(itertools.product(*axes), 64):
            kw = {k: v for part in combo for k, v in part.items()}
            try:
                fn(**kw)
            except Exception as e:  # the next test still runs
                stop = stop or e
    if stop:
        raise stop


def _has_main(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    return "__main__" in text


def _package_module(path):
    """(folder for sys.path, dotted module name) of a file that imports relatively (`from
    ._common import x`): it runs as a module of the package its folders make (a package need
    not have an __init__.py); None for a plain script or folder names that are no identifiers."""
    try:
        tree = ast.parse(open(path, encoding="utf-8").read())
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return None
    levels = max([n.level for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)] + [0])
    if not levels:
        return None
    parts, top = [os.path.splitext(os.path.basename(path))[0]], os.path.dirname(path)
    for _ in range(levels):
        parts.insert(0, os.path.basename(top))
        top = os.path.dirname(top)
    return (top, ".".join(parts)) if all(p.isidentifier() for p in parts) else None


def _run(path):
    """Runs the file as __main__ (or as a module whose test_* functions are the driver);
    returns its globals."""
    name = "__main__" if _has_main(path) else "harness_module"
    pkg = _package_module(path)
    if pkg:
        # the packages as modules of their folders (a sibling module of the same name, e.g.
        # moe_token_permute/moe_token_permute.py, must not stand in for the package)
        parts, folder = pkg[1].split(".")[:-1], pkg[0]
        for i, part in enumerate(parts):
            folder = os.path.join(folder, part)
            module = types.ModuleType(".".join(parts[:i + 1]))
            module.__path__ = [folder]
            sys.modules[module.__name__] = module
        return runpy.run_module(pkg[1], run_name=name, alter_sys=True)
    return runpy.run_path(path, run_name=name)


def main():
    path = os.path.abspath(sys.argv[1])
    if "--val" in sys.argv:
        VAL[0] = int(sys.argv[sys.argv.index("--val") + 1])
    install()
    sys.path.insert(0, os.path.dirname(path))
    sys.argv = [path]
    sys.setprofile(_recorder(os.environ.get("HARNESS_ROOT", os.path.dirname(path))))
    try:
        glob = _run(path)
        if not _has_main(path):
            _run_tests(glob)
    except BaseException as e:  # SystemExit too: the driver ended early
        sys.setprofile(None)
        if isinstance(e, SystemExit) and e.code in (None, 0):
            print(json.dumps({"done": True}), flush=True)
            return
        tb, line = e.__traceback__, 0
        while tb:
            if tb.tb_frame.f_code.co_filename == path:
                line = tb.tb_lineno
            tb = tb.tb_next
        print(json.dumps({"stopped": repr(e)[:300], "line": line}), flush=True)
        return
    sys.setprofile(None)
    print(json.dumps({"done": True}), flush=True)


def record(path, root, val=0, timeout=60, lock=None):
    """Run the harness on path (a file under root, a copy of the corpus) in a child process;
    returns (calls, stop): calls as printed, stop None when the driver ran to its end."""
    cmd = ([] if not lock else ["flock", lock]) + ["timeout", "-s", "KILL", str(timeout), sys.executable,
                                                  os.path.abspath(__file__), path, "--val", str(val)]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=os.path.dirname(path),
                       env=dict(os.environ, HARNESS_ROOT=root))
    calls, stop = [], f"no end (exit {p.returncode})"
    for line in p.stdout.splitlines():
        if not line.startswith("{"):
            continue
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if "kernel" in d:
            calls.append(d)
        elif "launch" in d:
            for c in calls:
                if c["id"] == d["launch"] and "dims" not in c:
                    c["dims"], c["inputs"] = d["dims"], d["inputs"]
        elif "done" in d:
            stop = None
        elif "stopped" in d:
            stop = f"{d['stopped']} (line {d['line']})"
    return calls, stop


if __name__ == "__main__":
    main()
