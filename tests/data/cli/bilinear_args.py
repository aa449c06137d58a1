# T.tile.bilinear_interpolation's run-time checks (exec/tileop_bilinear.c): the
# offsets are O's block indices times `scale` bytes (32: whole blocks of X),
# h_repeat x v_repeat repeats of 8 blocks each, repeat_mode False (one weight of
# W per repeat).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def bilinear_args(h=2, v=2, scale=32, mask=128, voff=128):
    @T.prim_func
    def main(
        X: T.Tensor((512,), "float16"),
        O: T.Tensor((8 * h * v,), "uint32"),
        W: T.Tensor((256,), "float16"),
        D: T.Tensor((voff * v,), "float16"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            x = T.alloc_ub((512,), "float16")
            o = T.alloc_ub((8 * h * v,), "uint32")
            w = T.alloc_ub((256,), "float16")
            d = T.alloc_ub((voff * v,), "float16")
            with T.Scope("V"):
                if vid == 0:
                    T.copy(X, x)
                    T.copy(O, o)
                    T.copy(W, w)
                    T.tile.mul(o, o, scale)
                    T.tile.bilinear_interpolation(d, x, o, w, mask, h, False, 1, voff, v)
                    T.copy(d, D)

    return main
