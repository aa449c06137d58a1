# int4 tiles reach the cube through T.gemm_v0 on L1 operands only: upstream's
# kernel-driven L1 -> L0A/L0B copy templates have no s4 geometry (PR #1731
# fixes gemm_v0's own loads), so T.copy of int4 into L0A is a located error
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=16, K=64):
    @T.prim_func
    def main(A: T.Tensor((M, K), "int4"), C: T.Tensor((M, K), "int4")):
        with T.Kernel(1, is_npu=True) as (cid, _):
            a_l1 = T.alloc_L1((M, K), "int4")
            a_l0 = T.alloc_L0A((M, K), "int4")
            with T.Scope("C"):
                T.copy(A, a_l1)
                T.copy(a_l1, a_l0)

    return main
