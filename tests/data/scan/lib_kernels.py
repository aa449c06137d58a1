# A kernel file without a driver: run_lib.py calls lib_copy (tests/unit/test_scripts.c).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def lib_copy(M, N, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (bx, vid):
            a = T.alloc_ub((M // 2, N), dtype)
            T.copy(A[vid * (M // 2), 0], a)
            T.copy(a, B[vid * (M // 2), 0])
    return main
