# gather_mask on a source shorter than one 256-byte repeat (cann-bench
# moe_gating_top_k_softmax line 432: 16 float32 `pairs_1d`): the normal mode
# upstream's tl::ascend::GatherMask uses reads whole 256-byte repeats
# (asc-devkit GatherMask.md, reduceMode), so it reads 64 elements, 48 of them
# from the UB after the buffer, as on the device; the 8 kept from the 16
# loaded are right.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def kernel(n=16):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), E: T.Tensor((n // 2,), "float32"),
             Y: T.Tensor((n // 2,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            with T.Scope("V"):
                if vid == 0:
                    pairs = T.alloc_ub((n,), "float32")
                    out = T.alloc_ub((64,), "float32")
                    T.copy(A, pairs)
                    T.tile.gather_mask(out, pairs, "P0101")
                    T.copy(out[0:n // 2], Y)

    return main
