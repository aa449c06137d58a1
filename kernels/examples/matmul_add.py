# Matrix multiply plus residual: D = A @ B + R, cube and vector cores fused.
#
#   A [M, K], B [K, N], R [M, N], D [M, N]  dtype (default float16)
#   M, N, K compile-time; edge tiles are clipped by the GM copies.
#
# Mode: expert. T.Scope("C") accumulates the tile in L0C (float32, barriers
# between loads and multiplies) and writes it to a float32 GM workspace, then
# raises cross-core flag 0 once its FIX pipe has finished. T.Scope("V"): each
# vector core loads and widens its half of the R tile while the cube works,
# waits for flag 0, loads its half of the workspace tile, adds in float32 and
# rounds to dtype. The vector pipes are ordered with set_flag / wait_flag
# pairs (MTE2 -> V, V -> MTE3) and pipe_barrier("v") between dependent vector
# ops.
#
# Golden: tl_generic_gemm (src/ref/ref.h) with addend = R, acc_prec TL_REF_F32,
# out_prec of dtype.
import tilelang
import tilelang.language as T

tilelang.cache.clear_cache()


@tilelang.jit(out_idx=[3], workspace_idx=[4])
def matmul_add(M=1024, N=1024, K=1024, block_M=128, block_N=128, block_K=128, dtype="float16"):
    assert block_M % 2 == 0, "block_M must be even (two vector cores)"
    half = block_M // 2
    n_num = T.ceildiv(N, block_N)

    @T.prim_func
    def main(
        A: T.Tensor([M, K], dtype),
        B: T.Tensor([K, N], dtype),
        R: T.Tensor([M, N], dtype),
        D: T.Tensor([M, N], dtype),
        workspace: T.Tensor([M, N], "float32"),
    ):
        with T.Kernel(T.ceildiv(M, block_M) * n_num, is_npu=True) as (cid, vid):
            m0 = cid // n_num * block_M
            n0 = cid % n_num * block_N

            a_l1 = T.alloc_L1([block_M, block_K], dtype)
            b_l1 = T.alloc_L1([block_K, block_N], dtype)
            c_l0c = T.alloc_L0C([block_M, block_N], "float32")

            r_in = T.alloc_ub([half, block_N], dtype)
            r_f = T.alloc_ub([half, block_N], "float32")
            acc = T.alloc_ub([half, block_N], "float32")
            d_out = T.alloc_ub([half, block_N], dtype)

            with T.Scope("C"):
                for k in T.serial(T.ceildiv(K, block_K)):
                    T.copy(A[m0, k * block_K], a_l1)
                    T.copy(B[k * block_K, n0], b_l1)
                    T.barrier_all()
                    T.gemm_v0(a_l1, b_l1, c_l0c, init=(k == 0))
                    T.barrier_all()
                T.copy(c_l0c, workspace[m0, n0])
                T.set_cross_flag("FIX", 0)

            with T.Scope("V"):
                r0 = m0 + vid * half
                T.copy(R[r0, n0], r_in)
                T.set_flag("mte2", "v", 0)
                T.wait_flag("mte2", "v", 0)
                T.tile.cast(r_f, r_in, mode="CAST_NONE", count=half * block_N)

                T.wait_cross_flag(0)
                T.copy(workspace[r0, n0], acc)
                T.set_flag("mte2", "v", 0)
                T.wait_flag("mte2", "v", 0)
                T.pipe_barrier("v")
                T.tile.add(acc, acc, r_f)
                T.pipe_barrier("v")
                T.tile.cast(d_out, acc, mode="CAST_RINT", count=half * block_N)
                T.set_flag("v", "mte3", 0)
                T.wait_flag("v", "mte3", 0)
                T.copy(d_out, D[r0, n0])

    return main
