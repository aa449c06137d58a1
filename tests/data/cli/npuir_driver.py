# npuir files' drivers: a builder returning a @tilelang.jit factory whose kernel the driver
# gets with a second call (norm/rms_norm.py: `program = builder(M, N); program(block_m)`),
# and a plain builder compiled by tilelang.compile(func, target="npuir")
# (elementwise/vec_add_1d.py); eval("torch." + dtype) in the driver is opaque.
import tilelang
import tilelang.language as T
import torch


def scaled(M, N):
    @tilelang.jit(out_idx=[1], target="npuir")
    def inner(block_m):
        @T.prim_func
        def main(X: T.Tensor((M, N), "float32"), Y: T.Tensor((M, N), "float32")):
            with T.Kernel(M // block_m, is_npu=True) as (cid, _):
                x = T.alloc_ub((block_m, N), "float32")
                T.copy(X[cid * block_m, 0], x)
                T.vmul(x, 2.0, x)
                T.copy(x, Y[cid * block_m, 0])

        return main

    return inner


def plain(N):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, _):
            a = T.alloc_ub((N,), "float32")
            T.copy(A, a)
            T.vexp(a, a)
            T.copy(a, B)

    return main


def run(dtype="float32"):
    x = torch.randn(64, 32, dtype=eval("torch." + dtype))
    program = scaled(64, 32)
    program(16)(x)
    kernel = tilelang.compile(plain(32), target="npuir")
    kernel(x[0], x[1])


if __name__ == "__main__":
    run()
