# T.tile.sin has no PTO-ISA instruction: `tilec emit --target pto` reports it
# at the op's line (tests/unit/test_pto_run.c).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def sin_rows(N=64):
    @T.prim_func
    def main(A: T.Tensor([N], "float32"), B: T.Tensor([N], "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub([N], "float32")
            with T.Scope("V"):
                T.copy(A[0], a)
                T.barrier_all()
                T.tile.sin(a, a)
                T.barrier_all()
                T.copy(a, B[0])

    return main
