# A double-buffered GEMM C = A @ B in expert mode, persistent over the tiles:
# the L1 tiles of A and B alternate between two slots (MTE2 loads the next K
# step while the cube works on this one), L0A / L0B alternate between two
# halves, the accumulator stays in L0C across K. Every edge has its flag, and
# the "buffer free" flags are pre-set before the loops and drained after them.
# test_sim.c also measures it against the cube roofline.
# expect: nothing
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=256, N=512, K=512, block_M=128, block_N=256, block_K=64, K_L1=256, cores=24,
           dtype="float16"):
    n_num = N // block_N
    tiles = (M // block_M) * n_num
    k_steps = K // K_L1
    kk_steps = K_L1 // block_K

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype),
             C: T.Tensor((M, N), dtype)):
        with T.Kernel(cores, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((2, block_M, K_L1), dtype)
            b_l1 = T.alloc_L1((2, K_L1, block_N), dtype)
            a_l0 = T.alloc_L0A((2, block_M, block_K), dtype)
            b_l0 = T.alloc_L0B((2, block_K, block_N), dtype)
            c_l0 = T.alloc_L0C((block_M, block_N), "float32")
            with T.Scope("C"):
                for s in T.serial(2):
                    T.set_flag("mte1", "mte2", s)
                    T.set_flag("m", "mte1", s)
                T.set_flag("fix", "m", 0)
                for t in T.serial(T.ceildiv(tiles, cores)):
                    tile = t * cores + cid
                    if tile < tiles:
                        m0 = tile // n_num * block_M
                        n0 = tile % n_num * block_N
                        T.wait_flag("fix", "m", 0)
                        for k in T.serial(k_steps):
                            s = k % 2
                            T.wait_flag("mte1", "mte2", s)
                            T.copy(A[m0, k * K_L1], a_l1[s, :, :])
                            T.copy(B[k * K_L1, n0], b_l1[s, :, :])
                            T.set_flag("mte2", "mte1", s)
                            T.wait_flag("mte2", "mte1", s)
                            for kk in T.serial(kk_steps):
                                h = kk % 2
                                T.wait_flag("m", "mte1", h)
                                T.copy(a_l1[s, :, kk * block_K:(kk + 1) * block_K], a_l0[h, :, :])
                                T.copy(b_l1[s, kk * block_K:(kk + 1) * block_K, :], b_l0[h, :, :])
                                T.set_flag("mte1", "m", h)
                                T.wait_flag("mte1", "m", h)
                                T.mma(a_l0[h, :, :], b_l0[h, :, :], c_l0,
                                      init=T.And(k == 0, kk == 0))
                                T.set_flag("m", "mte1", h)
                            T.set_flag("mte1", "mte2", s)
                        T.set_flag("m", "fix", 0)
                        T.wait_flag("m", "fix", 0)
                        T.copy(c_l0, C[m0, n0])
                        T.set_flag("fix", "m", 0)
                for s in T.serial(2):
                    T.wait_flag("mte1", "mte2", s)
                    T.wait_flag("m", "mte1", s)
                T.wait_flag("fix", "m", 0)

    return main
