# 1,200 vector statements with automatic syncs and memory planning (a compile
# of about 0.3 s, most of it in intra_sync): tests/data/cli/progress.cli.
import tilelang
import tilelang.language as T

MIXED = {
    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
    tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True,
}


@tilelang.jit(out_idx=[-1], pass_configs=MIXED)
def many(M=16, N=64, S=400):
    def body(t0, t1, t2):
        for i in range(S):
            T.tile.add(t0, t1, t2)
            T.tile.mul(t1, t2, t0)
            T.tile.max(t2, t0, t1)

    @T.prim_func
    def main(A: T.Tensor([M, N], "float32"), B: T.Tensor([M, N], "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            t0 = T.alloc_ub([M, N], "float32")
            t1 = T.alloc_ub([M, N], "float32")
            t2 = T.alloc_ub([M, N], "float32")
            with T.Scope("V"):
                T.copy(A, t0)
                T.copy(A, t1)
                T.copy(A, t2)
                body(t0, t1, t2)
                T.copy(t0, B)

    return main
