# A producer/consumer pair with credits: the vector cores pre-set flag 1 twice
# (two workspace slots free) and release a slot after each use; the cube waits
# for a free slot before each of its steps. The cube never takes the two
# credits that are left when the loop ends (a wait takes the oldest release:
# the last two stay), so each AIC's counter of flag 1
# ends at 2. Upstream's lightning indexers (pp_slots) and
# flash_attn_bhsd_expert do this. The counter lives on past the kernel: the
# next launch's cube starts with two extra credits and can overwrite a slot
# the vector cores still read, and repeated launches overflow its 15 (pto-isa
# drains such credits in TPipe's destructor, include/pto/npu/a2a3/TPush.hpp,
# and tests it: "Repeated dispatch catches stale-credit accumulation";
# asc-devkit CrossCoreSetFlag(ISASI).md: sets and waits must pair). The chip
# finishes this kernel with the right values, so it is a finding (a warning),
# not an error.
# ok_cross_credits_drained.py takes them at the end (drain=True).
# expect: finding cross_flag_unmatched @release
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2], workspace_idx=[3])
def kernel(M=64, N=64, K=64, steps=4, dtype="float16", drain=False):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((steps, M, K), dtype), B: T.Tensor((K, N), dtype),
             D: T.Tensor((steps, M, N), "float32"), W: T.Tensor((2, M, N), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((M, K), dtype)
            b_l1 = T.alloc_L1((K, N), dtype)
            c = T.alloc_L0C((M, N), "float32")
            d = T.alloc_ub((half, N), "float32")
            with T.Scope("C"):
                T.copy(B[0, 0], b_l1)
                for s in T.serial(steps):
                    T.wait_cross_flag(1)
                    T.copy(A[s, 0, 0], a_l1)
                    T.gemm_v0(a_l1, b_l1, c, init=True)
                    T.copy(c, W[s % 2, 0, 0])
                    T.set_cross_flag("FIX", 0)
                if drain:
                    T.wait_cross_flag(1)
                    T.wait_cross_flag(1)
            with T.Scope("V"):
                T.set_cross_flag("MTE2", 1)
                T.set_cross_flag("MTE2", 1)
                for s in T.serial(steps):
                    T.wait_cross_flag(0)
                    T.copy(W[s % 2, vid * half, 0], d)
                    T.set_cross_flag("MTE2", 1)  # @release
                    T.set_flag("mte2", "mte3", 0)
                    T.wait_flag("mte2", "mte3", 0)
                    T.copy(d, D[s, vid * half, 0])
                    T.set_flag("mte3", "mte2", 0)
                    T.wait_flag("mte3", "mte2", 0)

    return main
