# Upstream's T.tile.bilinear_interpolation (AscendC's BilinearInterpolation,
# float16; deprecated upstream, a warning here; exec/tileop_bilinear.c): O holds
# 32 block indices into X (times 32: the byte offsets the op takes). D1 is
# upstream's elementwise test's call (mask 128, 2 x 2 repeats, repeat_mode
# False: repeat n scaled by W[n], v_r_offset 128); D2 the per-block weights
# (repeat_mode True: block j of repeat n by W[8n + j]) with mask 72 (4 blocks
# and 8 lanes written per vertical repeat) at v_r_offset 256, the rest of D2
# the fill's -1.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3, 4], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def bilinear():
    @T.prim_func
    def main(
        X: T.Tensor((512,), "float16"),
        O: T.Tensor((32,), "uint32"),
        W: T.Tensor((32,), "float16"),
        D1: T.Tensor((256,), "float16"),
        D2: T.Tensor((512,), "float16"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            x = T.alloc_ub((512,), "float16")
            o = T.alloc_ub((32,), "uint32")
            w = T.alloc_ub((32,), "float16")
            d1 = T.alloc_ub((256,), "float16")
            d2 = T.alloc_ub((512,), "float16")
            with T.Scope("V"):
                if vid == 0:
                    T.copy(X[0:512], x)
                    T.copy(O[0:32], o)
                    T.copy(W[0:32], w)
                    T.tile.mul(o, o, 32)
                    T.tile.fill(d2, -1.0)
                    T.tile.bilinear_interpolation(d1, x, o, w, 128, 2, False, 1, 128, 2)
                    T.tile.bilinear_interpolation(d2, x, o, w, 72, 2, True, 1, 256, 2)
                    T.copy(d1, D1[0:256])
                    T.copy(d2, D2[0:512])

    return main
