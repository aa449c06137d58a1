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
print("binding ok")
