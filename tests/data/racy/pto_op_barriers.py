# ok_pto_op_barriers.py's ops in the orders their internal barriers do not
# cover (PTO target, pto-isa a2a3). A row reduction starts with no barrier: it
# races with the relu writing its source. A column reduction (TColSum.hpp)
# first copies the source's first row into dst with copy_ubuf_to_ubuf, then
# pipe_barrier(PIPE_V): that copy races with the row_expand_mul writing the
# source, which ends with no barrier (TRowExpandBinOp.hpp); the rows after it
# do not (upstream's HISA paged_block_sparse_mqa_attn_expert.py does this).
# MulAddDst multiplies src0 by src1 before its barrier: it races with the
# relu writing src0. A barrier orders only the vector pipe: the scalar store
# into the column sums races with the reduction.
# expect: race RAW UB v@relu v@rowsum
# expect: race RAW UB v@rem v@colsum
# expect: race RAW UB v@relu2 v@mad
# expect: race WAW UB v@colsum s@store
import tilelang
import tilelang.language as T

# the PTO build without upstream's VS sync pass (on by default: ok_pto_vs_default.py)
RAW_PTO = {tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC_VS: False}


@tilelang.jit(out_idx=[-1], target="pto", pass_configs=RAW_PTO)
def kernel(M=16, N=64, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), W: T.Tensor((M,), dtype), C: T.Tensor((1, N), dtype)):
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
                    T.tile.relu(a, a)  # @relu
                    T.reduce_sum(a, r, dim=-1)  # @rowsum
                    T.tile.row_expand_mul(b, a, w)  # @rem
                    T.reduce_sum(b, c, dim=0)  # @colsum
                    T.tile.relu(w, w)  # @relu2
                    T.tile.mul_add_dst(z, w, r)  # @mad
                    c[0, 0] = 1.0  # @store
                    T.set_flag("v", "mte3", 0)
                    T.wait_flag("v", "mte3", 0)
                    T.copy(c, C[0, 0])

    return main
