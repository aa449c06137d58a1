# T.copy_pa with a copy_row_num_align that is not the L1 tile's rows rounded up
# to 16: the rows would land elsewhere in the tile's zN layout
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(BS=16, D=64, R=48):
    @T.prim_func
    def main(KV: T.Tensor((4 * BS, D), "float16"), BT: T.Tensor((4,), "int32"), O: T.Tensor((R, R), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            k_l1 = T.alloc_L1((R, D), "float16")
            c = T.alloc_L0C((R, R), "float32")
            with T.Scope("C"):
                T.copy_pa(k_l1, KV, BT, BS, 1, D, BS * D, 4, D, R, 64, 0, 0, 0, 0)
                T.gemm_v0(k_l1, k_l1, c, transpose_B=True, init=True)
                T.copy(c, O)

    return main
