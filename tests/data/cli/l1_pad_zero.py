# A GM -> L1 copy with pad_value (issue 19, cann-bench conv2d's K-tail zeroing:
# `T.copy(Input[0:1, 0:1], x_l1[0:BLOCK_K, 0:BLOCK_N], pad_value=0.0)`): the
# device's copy_gm_to_l1 clears the L1 tile with zeros when the copy does not
# cover it, so pad_value 0 is what happens; another value is an error. The B
# tile ends as A[0, 0] then zeros: C[i, 0] = A[i, 0] * A[0, 0], other columns 0.
# `ref` builds that tile another way (B all zeros, then a 1 x 1 copy, which
# covers its 1 x 1 destination and clears nothing).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def l1_pad_zero(M=16, K=16, N=16, pad=0.0, ref=0, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((M, K), dtype)
            b_l1 = T.alloc_L1((K, N), dtype)
            acc = T.alloc_L0C((M, N), "float32")
            with T.Scope("C"):
                T.copy(A, a_l1)
                T.copy(B, b_l1)
                T.barrier_all()
                if ref:
                    T.copy(A[0:1, 0:1], b_l1[0:1, 0:1])
                else:
                    T.copy(A[0:1, 0:1], b_l1[0:K, 0:N], pad_value=pad)
                T.barrier_all()
                T.gemm_v0(a_l1, b_l1, acc, init=True)
                T.barrier_all()
                T.copy(acc, C)

    return main
