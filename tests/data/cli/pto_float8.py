# A float8 tensor on --target pto: the A2/A3 NPU it emits for has no float8
# types (upstream's examples/gemm/example_gemm_fp8_pto.py runs on A5 only).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def pto_float8(N=64):
    @T.prim_func
    def main(X: T.Tensor((N,), "float8_e4m3"), Y: T.Tensor((N,), "float8_e4m3")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            ub = T.alloc_ub((N,), "float8_e4m3")
            T.copy(X, ub)
            T.copy(ub, Y)

    return main
