# The fixpipe's dequantisation: an int8 GEMM accumulated in L0C (int32) and
# stored to GM as float16 through the deq scale (T.set_deq_scale), each value
# acc * scale rounded once to nearest even; relu=True stores with enable_relu
# (a negative product -> 0 before the rounding). Tiles of 20 rows: the last
# block's GM rows are clipped.
import tilelang
import tilelang.language as T

CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
       tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True}


@tilelang.jit(out_idx=[2], pass_configs=CFG)
def deq_store(M=50, N=64, K=96, block_M=20, scale=1.0 / 3.0, relu=False):
    @T.prim_func
    def main(A: T.Tensor((M, K), "int8"), B: T.Tensor((N, K), "int8"),
             C: T.Tensor((M, N), "float16")):
        with T.Kernel(T.ceildiv(M, block_M), is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((block_M, K), "int8")
            b_l1 = T.alloc_L1((N, K), "int8")
            c_l0 = T.alloc_L0C((block_M, N), "int32")
            with T.Scope("C"):
                T.copy(A[cid * block_M, 0], a_l1)
                T.copy(B[0, 0], b_l1)
                T.gemm_v0(a_l1, b_l1, c_l0, transpose_B=True, init=True)
                T.set_deq_scale(scale)
                T.copy(c_l0, C[cid * block_M, 0], enable_relu=relu)

    return main
