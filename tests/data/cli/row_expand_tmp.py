# The row-broadcast ops with upstream's scratch operand (testing/python/
# language/test_tilelang_ascend_language_row_expand.py: the ascendc templates
# Brcb src1 into `tmp` first): row_expand_div / row_expand_sub with a 4th
# argument and row_expand_mul_nd compute what the 3-argument forms do,
# dst[i, j] = src0[i, j] op src1[i] (use_tmp=False is the reference).
import tilelang
import tilelang.language as T


pass_configs = {
    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
    tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True,
}


@tilelang.jit(out_idx=[2, 3, 4], pass_configs=pass_configs)
def row_expand_tmp(M=32, N=128, use_tmp=True):
    RV = M // 2  # rows per vector core
    BLK = 8  # float32 elements per 32-byte block

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M,), "float32"),
             D: T.Tensor((M, N), "float32"), S: T.Tensor((M, N), "float32"),
             P: T.Tensor((M, N), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((RV, N), "float32")
            b = T.alloc_ub((RV,), "float32")
            tmp = T.alloc_ub((RV, BLK), "float32")
            d = T.alloc_ub((RV, N), "float32")
            s = T.alloc_ub((RV, N), "float32")
            p = T.alloc_ub((RV, N), "float32")
            T.copy(A[vid * RV, 0], a)
            T.copy(B[vid * RV], b)
            if use_tmp:
                T.tile.row_expand_div(d, a, b, tmp)
                T.tile.row_expand_sub(s, a, b, tmp)
                T.tile.row_expand_mul_nd(p, a, b, tmp)
            else:
                T.tile.row_expand_div(d, a, b)
                T.tile.row_expand_sub(s, a, b)
                T.tile.row_expand_mul(p, a, b)
            T.copy(d, D[vid * RV, 0])
            T.copy(s, S[vid * RV, 0])
            T.copy(p, P[vid * RV, 0])

    return main
