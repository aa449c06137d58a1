# T.tile.im2col (upstream's L1 NC1HWC0 -> L0A convolution tile load): a
# feature map of C1 = 2 channel blocks of C0 = 16 (H x W = 6 x 5, in L1 as
# [C1, H*W, C0]), kernel 2 x 2, stride (2, 1), dilation (1, 2), padding
# (left 1, right 0, top 2, bottom 1), from output position 3, valid_m 9 (the
# 16-row fractal is written: positions 3 .. 18; those past the 16 of the 4 x 4
# output are the pad value 0). K = (c1, kh, kw, c0). O = X @ I (exact for small integers).
# The parameters change each of them (check case im2col/bands: H * W = 16, two 16-row bands).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def im2col(H=6, W=5, C1=2, KH=2, KW=2, M=16, POS=3, VM=9, SH=2, SW=1, DH=1, DW=2, PL=1, PR=0,
           PT=2, PB=1):
    C0 = 16
    K = C1 * KH * KW * C0

    @T.prim_func
    def main(
        F: T.Tensor((C1, H * W, C0), "float16"),
        I: T.Tensor((K, K), "float16"),
        O: T.Tensor((M, K), "float32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            f_l1 = T.alloc_L1((C1, H * W, C0), "float16")
            i_l1 = T.alloc_L1((K, K), "float16")
            x = T.alloc_L0A((M, K), "float16")
            i_l0 = T.alloc_L0B((K, K), "float16")
            c = T.alloc_L0C((M, K), "float32")
            with T.Scope("C"):
                for b in T.serial(C1):
                    T.copy(F[b, :, :], f_l1[b, :, :])
                T.copy(I, i_l1)
                T.tile.im2col(x, f_l1, (H, W), (KH, KW), stride=(SH, SW), dilation=(DH, DW),
                              padding=(PL, PR, PT, PB), pos_m=POS, valid_m=VM)
                T.copy(i_l1, i_l0)
                T.mma(x, i_l0, c, init=True)
                T.copy(c, O)

    return main
