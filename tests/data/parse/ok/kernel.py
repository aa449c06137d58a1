# A kernel file in the TileLang-Ascend style (written for this test).
import tilelang
import tilelang.language as T

pass_configs = {
    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
}


@tilelang.jit(out_idx=[-1], pass_configs=pass_configs)
def scale_add(M, N, block_M=64, block_N=128, dtype="float16"):
    m_num = M // block_M
    n_num = tilelang.cdiv(N, block_N)
    assert M % block_M == 0, f"M={M} must be a multiple of {block_M}"

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype),
             C: T.Tensor((M, N), dtype)):
        with T.Kernel(m_num * n_num, is_npu=True) as (cid, vid):
            bx = cid // n_num
            by = cid % n_num
            a_ub = T.alloc_ub((block_M // 2, block_N), dtype)
            b_ub = T.alloc_ub((block_M // 2, block_N), dtype)
            with T.Scope("V"):
                T.copy(A[bx * block_M + vid * block_M // 2, by * block_N], a_ub)
                T.copy(B[bx * block_M + vid * block_M // 2, by * block_N], b_ub)
                for i, j in T.Parallel(block_M // 2, block_N):
                    a_ub[i, j] = a_ub[i, j] * 2.0 + b_ub[i, j]
                for k in T.serial(4):
                    if k > 0:
                        T.tile.add(a_ub, a_ub, b_ub)
                T.copy(a_ub, C[bx * block_M + vid * block_M // 2, by * block_N])

    return main


if __name__ == "__main__":
    import torch
    kernel = scale_add(1024, 1024)
    a = torch.randn(1024, 1024).half()
    torch.testing.assert_close(kernel(a, a), a * 3, rtol=1e-2, atol=1e-2)
