# cross_credits_left.py on 48 blocks: the vector cores of each block pre-set
# flag 1 twice and the AIC leaves two credits when its loop ends. On the chip
# blocks 24..47 run on the cores of blocks 0..23, after them, and a core keeps
# its cross-core counters from one block to the next (asc-devkit
# CrossCoreSetFlag(ISASI).md: each flag id is a counter of the core; msSanitizer's
# synccheck: an unpaired set changes the hardware counter for what runs next;
# pto-isa's a2a3 TPipe drains such credits for that reason). So block 24's AIC
# starts with four credits: its first waits take block 0's leftovers, it runs
# up to four steps ahead of its vector cores and overwrites the workspace slot
# they have yet to read (the race below: the values the chip would compute).
# The last block on each core leaves four credits.
# expect: finding cross_flag_carried @take
# expect: finding cross_flag_unmatched @release
# expect: race RAW GM fix@write mte2@read
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2], workspace_idx=[3])
def kernel(M=64, N=64, K=64, steps=4, dtype="float16", drain=False, blocks=48):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((blocks, steps, M, K), dtype), B: T.Tensor((K, N), dtype),
             D: T.Tensor((blocks, steps, M, N), "float32"), W: T.Tensor((blocks, 2, M, N), "float32")):
        with T.Kernel(blocks, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((M, K), dtype)
            b_l1 = T.alloc_L1((K, N), dtype)
            c = T.alloc_L0C((M, N), "float32")
            d = T.alloc_ub((half, N), "float32")
            with T.Scope("C"):
                T.copy(B[0, 0], b_l1)
                for s in T.serial(steps):
                    T.wait_cross_flag(1)  # @take
                    T.copy(A[cid, s, 0, 0], a_l1)
                    T.gemm_v0(a_l1, b_l1, c, init=True)
                    T.copy(c, W[cid, s % 2, 0, 0])  # @write
                    T.set_cross_flag("FIX", 0)
                if drain:
                    T.wait_cross_flag(1)
                    T.wait_cross_flag(1)
            with T.Scope("V"):
                T.set_cross_flag("MTE2", 1)
                T.set_cross_flag("MTE2", 1)
                for s in T.serial(steps):
                    T.wait_cross_flag(0)
                    T.copy(W[cid, s % 2, vid * half, 0], d)  # @read
                    T.set_cross_flag("MTE2", 1)  # @release
                    T.set_flag("mte2", "mte3", 0)
                    T.wait_flag("mte2", "mte3", 0)
                    T.copy(d, D[cid, s, vid * half, 0])
                    T.set_flag("mte3", "mte2", 0)
                    T.wait_flag("mte3", "mte2", 0)

    return main
