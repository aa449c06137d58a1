# A Python `and` / `or` whose one operand is a constant (upstream's
# gemm_tail_block.py: `is_k_tail = (k == loop_k - 1) and (k_tail > 0)` with
# k_tail = 0): the constant decides it, so `curr_k = k_tail if is_k_tail else
# K_L1` and the copies' extents stay constants.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def and_const(N=256, block=64, tail=0):
    loop_k = T.ceildiv(N, block)

    @T.prim_func
    def main(X: T.Tensor((N,), "float32"), Y: T.Tensor((N,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            ub = T.alloc_ub((block,), "float32")
            for k in T.serial(loop_k):
                is_tail = (k == loop_k - 1) and (tail > 0)
                cur = tail if is_tail else block
                keep = (k == 0) or (tail == 0)
                n = block if keep else cur
                T.copy(X[k * block : k * block + cur], ub[:cur])
                T.copy(ub[:n], Y[k * block : k * block + n])

    return main
