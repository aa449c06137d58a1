# A GEMM whose tiles move by T.Parallel element copies (issue 19, upstream's testing
# parallel_copy gm_l1_l0c_gm_kernel): GM -> L1 and L0C -> GM element copies become one
# T.copy each, as upstream's T.Parallel lowering makes them: the scalar unit cannot reach
# L1 or L0C (AscendC's LocalTensor GetValue / SetValue work on UB positions only).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def parallel_copy_gemm(M=128, N=256, K=128, block_M=64, block_N=128, K_L1=64, dtype="float16"):
    m_num = M // block_M
    n_num = N // block_N

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(m_num * n_num, is_npu=True) as (cid, vid):
            bm = cid // n_num
            bn = cid % n_num
            a_l1 = T.alloc_L1((block_M, K_L1), dtype)
            b_l1 = T.alloc_L1((K_L1, block_N), dtype)
            acc = T.alloc_L0C((block_M, block_N), "float32")
            with T.Scope("C"):
                for k in T.serial(K // K_L1):
                    for i, j in T.Parallel(block_M, K_L1):
                        a_l1[i, j] = A[bm * block_M + i, k * K_L1 + j]
                    for i, j in T.Parallel(K_L1, block_N):
                        b_l1[i, j] = B[k * K_L1 + i, bn * block_N + j]
                    T.barrier_all()
                    T.gemm_v0(a_l1, b_l1, acc, init=(k == 0))
                    T.barrier_all()
                for i, j in T.Parallel(block_M, block_N):
                    C[bm * block_M + i, bn * block_N + j] = acc[i, j]

    return main
