# A cross-core flag with an id T.sync_all uses itself on the NPU (pto::SYNCALL:
# flags 11-14): `tilec emit --target pto` reports it at the flag's line
# (tests/unit/test_pto_run.c); flag 10 is fine.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1], workspace_idx=[2])
def clash(N=64, flag=12):
    @T.prim_func
    def main(A: T.Tensor((2 * N,), "float32"), B: T.Tensor((2 * N,), "float32"),
             W: T.Tensor((2 * N,), "float32")):
        with T.Kernel(2, is_npu=True) as (cid, vid):
            a = T.alloc_ub((N,), "float32")
            with T.Scope("V"):
                T.copy(A[cid * N], a)
                T.barrier_all()
                T.copy(a, W[cid * N])
            T.sync_all()
            with T.Scope("V"):
                T.set_cross_flag("MTE3", flag, 0)
                T.wait_cross_flag(flag)
                T.copy(W[(1 - cid) * N], a)
                T.barrier_all()
                T.copy(a, B[cid * N])

    return main
