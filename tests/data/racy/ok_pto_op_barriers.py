# The PTO target has no compiler sync, but some of its ops synchronise inside
# (pto-isa a2a3, include/pto/npu/a2a3): TROWEXPANDMUL broadcasts src1 with
# vbrcb, then pipe_barrier(PIPE_V), then multiplies (TRowExpandBinOp.hpp), so
# it follows the relu; a row reduction (TRowReduceOps.hpp) and a column
# reduction (TColSum.hpp) end with pipe_barrier(PIPE_V), so the ops after them
# follow them; MulAddDst (tl_templates/pto/common.h) adds into dst after a
# barrier; and the code generator puts set_flag / wait_flag(V, S) before every
# fill, so the scalar store after it follows the reduction. No finding.
# expect: nothing
import tilelang
import tilelang.language as T

# the PTO build without upstream's VS sync pass (on by default: ok_pto_vs_default.py)
RAW_PTO = {tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC_VS: False}


@tilelang.jit(out_idx=[-1], target="pto", pass_configs=RAW_PTO)
def kernel(M=16, N=64, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), W: T.Tensor((M,), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((M, N), dtype)
            b = T.alloc_ub((M, N), dtype)
            w = T.alloc_ub((M,), dtype)
            r = T.alloc_ub((M,), dtype)
            c = T.alloc_ub((1, N), dtype)
            z = T.alloc_ub((M,), dtype)
            with T.Scope("V"):
                if vid == 0:
                    T.copy(A[0, 0], a)
                    T.copy(W[0], w)
                    T.set_flag("mte2", "v", 0)
                    T.wait_flag("mte2", "v", 0)
                    T.tile.relu(a, a)
                    T.tile.row_expand_mul(b, a, w)
                    T.pipe_barrier("v")
                    T.reduce_sum(b, r, dim=-1)
                    T.tile.mul(w, r, r)
                    T.reduce_sum(a, c, dim=0)
                    T.tile.add(c, c, c)
                    T.tile.mul_add_dst(w, r, z)
                    T.tile.fill(z, 0.0)
                    r[0] = 1.0
                    T.set_flag("v", "mte3", 0)
                    T.wait_flag("v", "mte3", 0)
                    T.copy(b, C[0, 0])

    return main
