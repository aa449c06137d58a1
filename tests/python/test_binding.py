"""Checks of the ctypes binding (python/tilec.py) with NumPy; run by
tests/unit/test_python.c. Prints 'binding ok' at the end."""
import sys
import numpy as np

sys.path.insert(0, "python")
import tilec  # noqa: E402

assert tilec.version()

# Expert elementwise add from the repository, symbolic-free.
k = tilec.compile("kernels/examples/elementwise_add.py", M=128, N=512)
assert [p["name"] for p in k.params] == ["A", "B", "C"], k.params
assert k.params[2]["role"] == "output"
rng = np.random.default_rng(0)
a = rng.standard_normal((128, 512)).astype(np.float32)
b = rng.standard_normal((128, 512)).astype(np.float32)
c = k(a, b)
assert c.shape == (128, 512) and c.dtype == np.float32
assert np.array_equal(c, a + b), np.abs(c - (a + b)).max()
c_cpu = k(a, b, target="cpu")
assert np.array_equal(c_cpu, c)
c_sim, rep = k(a, b, target="sim", report=True)
assert np.array_equal(c_sim, c) and rep["cycles"] > 0 and rep["races"] == 0, rep

# A kernel with a symbolic dim: the output is sized from the input's shape.
src = '''
import tilelang
import tilelang.language as T

@tilelang.jit(out_idx=[-1])
def scale(N=64):
    M = T.symbolic("M")

    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), Y: T.Tensor((M, N), "float32")):
        with T.Kernel(M, is_npu=True) as (cid, vid):
            x = T.alloc_ub((1, N), "float32")
            with T.Scope("V"):
                if vid == 0:
                    T.copy(X[cid, 0], x)
                    T.tile.mul(x, x, 2.0)
                    T.copy(x, Y[cid, 0])
    return main
'''
k2 = tilec.compile_string(src, name="scale.py", N=64)
assert k2.dims == ["M"]
x = rng.standard_normal((5, 64)).astype(np.float32)
y, rep = k2(x, report=True)
assert y.shape == (5, 64) and np.array_equal(y, 2 * x)
assert rep["seconds"] >= 0
assert "mul x, x, 2.0" in k2.ir

# Errors carry tilec's diagnostic.
try:
    tilec.compile_string("import tilelang.language as T\nx = T.nope(\n", name="bad.py")
except tilec.TilecError as e:
    assert "bad.py" in str(e), str(e)
else:
    raise AssertionError("no error for a broken file")
try:
    k(a.astype(np.float16), b)
except TypeError as e:
    assert "must be float32" in str(e), str(e)
else:
    raise AssertionError("no error for a wrong dtype")
# Hostile nesting (issue 22) is a TilecError with the location, not a crash
# of the Python process: a 50,000-term factory expression, a 10,000-term
# T.Parallel expression, a 10,001-branch elif chain.
def hostile(pre, body):
    return (
        "import tilelang\nimport tilelang.language as T\n\n"
        "@tilelang.jit(out_idx=[-1])\ndef big(M=16, N=64):\n" + pre +
        "    @T.prim_func\n"
        "    def main(A: T.Tensor([M, N], 'float32'), B: T.Tensor([M, N], 'float32')):\n"
        "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
        "            a = T.alloc_ub([M, N], 'float32')\n"
        "            with T.Scope('V'):\n"
        "                T.copy(A, a)\n" + body +
        "                T.copy(a, B)\n"
        "    return main\n")


cases = [
    (hostile("    x = " + " + ".join(["1"] * 50000) + "\n", ""), "this expression nests too deeply"),
    (hostile("", "                for i, j in T.Parallel(M, N):\n                    a[i, j] = " +
             " + ".join(["a[i, j]"] * 10000) + "\n"), "this expression nests too deeply"),
    (hostile("", "".join("                %s cid == %d:\n                    T.tile.add(a, a, 1.0)\n" %
                         ("elif" if i else "if", i) for i in range(10001))),
     "this if/elif chain has more than 10000 branches"),
]
for src, want in cases:
    try:
        tilec.compile_string(src, name="hostile.py")
    except tilec.TilecError as e:
        assert "hostile.py:" in str(e) and want in str(e), str(e)[:300]
    else:
        raise AssertionError("no error for " + want)

# Issue 22's binding items.
# The kernel's real name (the factory's, not its prim_func's "main"); shapes as ints.
assert k.name == "elementwise_add", k.name
assert k.params[0]["shape"] == [128, 512], k.params[0]
assert k2.params[0]["shape"] == ["M", 64], k2.params[0]
try:
    k(a[:64], b[:64])
except ValueError as e:
    assert "must have shape [128, 512]" in str(e), str(e)
else:
    raise AssertionError("no error for a wrong shape")
try:
    k(a, b, target="gpu")
except ValueError as e:
    assert "target must be one of" in str(e), str(e)
else:
    raise AssertionError("no error for an unknown target")

# The report JSON is freed on every call (it leaked per sim call), and the
# whole report is returned: benign races included, the simulator's report.
lib = tilec._api()
freed = []
real_free = lib.tilec_free
lib.tilec_free = lambda p: (freed.append(p), real_free(p))
for _ in range(3):
    _, rep = k(a, b, target="sim", report=True)
lib.tilec_free = real_free
assert len(freed) == 3, freed
assert rep["benign_races"] == 0 and rep["sim"]["cycles"] == rep["cycles"], rep.keys()
benign = tilec.compile("tests/data/racy/benign_same_bytes.py")
x = rng.standard_normal((64, 128)).astype(np.float32)
_, rep = benign(x, target="sim", report=True)
assert rep["races"] == 0 and rep["benign_races"] == 1 and len(rep["sim"]["benign_races"]) == 1, rep

# On a race the outputs are kept: the exception carries them and the report.
racy = tilec.compile("tests/data/racy/wrong_pipe_pair.py")
try:
    racy(x, target="sim")
except tilec.TilecError as e:
    assert e.status == -9 and "race RAW on UB" in str(e), str(e)
    assert np.array_equal(e.outputs, x), e.outputs  # the run computed C = A
    assert e.report["races"] >= 1 and e.report["sim"]["races"], e.report
else:
    raise AssertionError("no error for a race")

# Errors speak in Python terms: compile()'s arguments, not the CLI's -k / -a.
try:
    tilec.compile("kernels/ds_v4/act_quant.py")
except tilec.TilecError as e:
    assert 'pick one with kernel="NAME"' in str(e) and "-k" not in str(e), str(e)
else:
    raise AssertionError("no error for two kernels")
try:
    tilec.compile("kernels/ds_v4/act_quant.py", kernel="act_quant", bogus=3)
except tilec.TilecError as e:
    assert "given to tilec.compile()" in str(e) and "-a" not in str(e), str(e)
else:
    raise AssertionError("no error for an unknown factory argument")
try:
    tilec.compile_string("import tilelang\nimport tilelang.language as T\nimport torch\nM = torch.empty(3).shape[0]\n"
                         "@T.prim_func\ndef main(A: T.Tensor((M,), 'float32')):\n    pass\n", name="opaque.py")
except tilec.TilecError as e:
    assert "pass it to tilec.compile() as NAME=VALUE" in str(e) and "-a" not in str(e), str(e)
else:
    raise AssertionError("no error for an opaque shape")

# Factory parameters named kernel, out_idx or pass_configs (compile()'s own
# names) are given in `args`; out_idx may be a list.
odd = """
import tilelang
import tilelang.language as T

@tilelang.jit
def odd(kernel=1, out_idx=2, pass_configs=3, N=64):
    @T.prim_func
    def main(X: T.Tensor((4, N), "float32"), Y: T.Tensor((4, N), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            x = T.alloc_ub((4, N), "float32")
            with T.Scope("V"):
                T.copy(X, x)
                T.tile.add(x, x, kernel * 100 + out_idx * 10 + pass_configs)
                T.copy(x, Y)
    return main
"""
k3 = tilec.compile_string(odd, name="odd.py", out_idx=[-1], args={"kernel": 4, "out_idx": 5, "pass_configs": 6})
x = np.zeros((4, 64), np.float32)
assert k3.name == "odd" and np.array_equal(k3(x), x + 456), k3(x)[0, :3]
try:
    tilec.compile_string(odd, name="odd.py", args={"N": 8}, N=16)
except TypeError as e:
    assert "given both" in str(e), str(e)
else:
    raise AssertionError("no error for an argument given twice")

print("binding ok")
