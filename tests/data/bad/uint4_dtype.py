# uint4 has no Ascend type (upstream maps only int4, to AscendC's int4b_t, and
# stops at uint4 with "Unsupported data type"): a located error, not garbage
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, K=64):
    @T.prim_func
    def main(A: T.Tensor((M, K), "uint4"), C: T.Tensor((M, K), "uint4")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((M, K), "uint4")
            with T.Scope("V"):
                T.copy(A, a)
                T.copy(a, C)

    return main
