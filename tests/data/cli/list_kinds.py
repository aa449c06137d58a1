# A factory, a builder, a module-level prim_func and a class's jit factory, for `tilec list`.
import tilelang
import tilelang.language as T

N = 64


@tilelang.jit(out_idx=[-1])
def scaled_copy(M=32, dtype="float32", scale=0.5):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((M // 2, N), dtype)
            with T.Scope("V"):
                T.copy(A[vid * (M // 2), 0], a)
                T.barrier_all()
                T.copy(a, B[vid * (M // 2), 0])

    return main


def build_copy(rows, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((rows, N), dtype), B: T.Tensor((rows, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((rows // 2, N), dtype)
            with T.Scope("V"):
                T.copy(A[vid * (rows // 2), 0], a)
                T.barrier_all()
                T.copy(a, B[vid * (rows // 2), 0])

    return main


@T.prim_func
def fixed(A: T.Tensor((16, N), "float32"), alpha: T.float32, B: T.Tensor((16, N), "float32")):
    with T.Kernel(1, is_npu=True) as (cid, vid):
        a = T.alloc_ub((8, N), "float32")
        with T.Scope("V"):
            T.copy(A[vid * 8, 0], a)
            T.barrier_all()
            T.tile.mul(a, a, alpha)
            T.barrier_all()
            T.copy(a, B[vid * 8, 0])


class Kernels:
    # a @tilelang.jit factory that is a class's static method (-k Kernels.halve)
    @staticmethod
    @tilelang.jit(out_idx=[-1])
    def halve(rows=16, dtype="float32"):
        @T.prim_func
        def main(A: T.Tensor((rows, N), dtype), B: T.Tensor((rows, N), dtype)):
            with T.Kernel(1, is_npu=True) as (cid, vid):
                a = T.alloc_ub((rows // 2, N), dtype)
                with T.Scope("V"):
                    T.copy(A[vid * (rows // 2), 0], a)
                    T.barrier_all()
                    T.tile.mul(a, a, 0.5)
                    T.barrier_all()
                    T.copy(a, B[vid * (rows // 2), 0])

        return main
