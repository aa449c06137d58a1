# C = A @ B^T with B stored N x K (each of its rows contiguous along K), one
# output tile per block, in expert mode: the L1 tiles of A and B alternate
# between two slots (MTE2 loads the next K step while the cube works on this
# one), L0A / L0B alternate between two halves, the accumulator stays in L0C
# across K. A may have fewer rows than a tile (M = 1: a GEMV); its copies clip
# at the tensor; below 10 fractals of C the cube does not order accumulating
# mmads itself (Mmad.md), so a barrier follows each. bench/calibration.rows S21 / S32 run it at catlass's GEMV
# shape (M 1, N 768, K 5120, fp32) with catlass's two tilings.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=1, N=768, K=5120, block_M=16, block_N=32, block_K=256, K_L1=1024,
           dtype="float32"):
    n_num = N // block_N
    tiles = T.ceildiv(M, block_M) * n_num
    k_steps = K // K_L1
    kk_steps = K_L1 // block_K

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((N, K), dtype),
             C: T.Tensor((M, N), dtype)):
        with T.Kernel(tiles, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((2, block_M, K_L1), dtype)
            b_l1 = T.alloc_L1((2, block_N, K_L1), dtype)
            a_l0 = T.alloc_L0A((2, block_M, block_K), dtype)
            b_l0 = T.alloc_L0B((2, block_K, block_N), dtype)
            c_l0 = T.alloc_L0C((block_M, block_N), "float32")
            with T.Scope("C"):
                m0 = cid // n_num * block_M
                n0 = cid % n_num * block_N
                for s in T.serial(2):
                    T.set_flag("mte1", "mte2", s)
                    T.set_flag("m", "mte1", s)
                for k in T.serial(k_steps):
                    s = k % 2
                    T.wait_flag("mte1", "mte2", s)
                    T.copy(A[m0, k * K_L1], a_l1[s, :, :])
                    T.copy(B[n0, k * K_L1], b_l1[s, :, :])
                    T.set_flag("mte2", "mte1", s)
                    T.wait_flag("mte2", "mte1", s)
                    for kk in T.serial(kk_steps):
                        h = kk % 2
                        T.wait_flag("m", "mte1", h)
                        T.copy(a_l1[s, :, kk * block_K:(kk + 1) * block_K], a_l0[h, :, :])
                        T.copy(b_l1[s, :, kk * block_K:(kk + 1) * block_K], b_l0[h, :, :],
                               transpose=True)
                        T.set_flag("mte1", "m", h)
                        T.wait_flag("mte1", "m", h)
                        T.mma(a_l0[h, :, :], b_l0[h, :, :], c_l0, init=T.And(k == 0, kk == 0))
                        if block_M * block_N < 10 * 256:  # the cube does not interlock small tiles
                            T.pipe_barrier("m")
                        T.set_flag("m", "mte1", h)
                    T.set_flag("mte1", "mte2", s)
                T.set_flag("m", "fix", 0)
                T.wait_flag("m", "fix", 0)
                T.copy(c_l0, C[m0, n0])
                for s in T.serial(2):
                    T.wait_flag("mte1", "mte2", s)
                    T.wait_flag("m", "mte1", s)

    return main
