# Upstream's templates use the hardware's flags: tl::ascend::gemm_v0 sets and
# waits M -> MTE1 ids 0 and 1 (and MTE2 -> MTE1, FIX -> M, MTE1 -> M, MTE1 -> MTE2,
# M -> FIX id 0) itself. A kernel that pre-sets M -> MTE1 0 (a free-L0A token)
# across a gemm_v0 has two sets of that bit pending: the template's wait takes
# the kernel's set, and the kernel's own wait later depends on timing.
# expect: error double_set @gemm
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=64, K=64, dtype="float16", accum_dtype="float"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((M, K), dtype)
            b_l1 = T.alloc_L1((K, N), dtype)
            c_l0 = T.alloc_L0C((M, N), accum_dtype)
            with T.Scope("C"):
                T.set_flag("m", "mte1", 0)
                T.copy(A[0, 0], a_l1)
                T.copy(B[0, 0], b_l1)
                T.gemm_v0(a_l1, b_l1, c_l0, init=True)  # @gemm
                T.wait_flag("m", "mte1", 0)
                T.copy(c_l0, C[0, 0])

    return main
