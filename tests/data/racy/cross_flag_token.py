# A token each block passes to the next block on its core: the vector cores
# release flag 2 when they are done, and the AIC of every block but a core's
# first (cid >= 24: blocks are handed to the 24 cores in order) takes it
# before it starts. On the chip the release stays in the core's counter until
# the next block's AIC takes it (a core keeps its cross-core counters from one
# block to the next: cross_flag_carried.py); the last block on each core
# leaves one. With counters cleared between blocks the waits of blocks 24..47
# would never be released (a deadlock).
# expect: finding cross_flag_carried @take
# expect: finding cross_flag_unmatched @give
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2], workspace_idx=[3])
def kernel(M=64, N=64, K=64, dtype="float16", blocks=48, cores=24):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((blocks, M, K), dtype), B: T.Tensor((K, N), dtype),
             D: T.Tensor((blocks, M, N), "float32"), W: T.Tensor((blocks, M, N), "float32")):
        with T.Kernel(blocks, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((M, K), dtype)
            b_l1 = T.alloc_L1((K, N), dtype)
            c = T.alloc_L0C((M, N), "float32")
            d = T.alloc_ub((half, N), "float32")
            with T.Scope("C"):
                if cid >= cores:
                    T.wait_cross_flag(2)  # @take
                T.copy(A[cid, 0, 0], a_l1)
                T.copy(B[0, 0], b_l1)
                T.gemm_v0(a_l1, b_l1, c, init=True)
                T.copy(c, W[cid, 0, 0])
                T.set_cross_flag("FIX", 0)
            with T.Scope("V"):
                T.wait_cross_flag(0)
                T.copy(W[cid, vid * half, 0], d)
                T.set_flag("mte2", "mte3", 0)
                T.wait_flag("mte2", "mte3", 0)
                T.copy(d, D[cid, vid * half, 0])
                T.set_cross_flag("MTE3", 2)  # @give

    return main
