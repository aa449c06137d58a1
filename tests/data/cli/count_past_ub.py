# Counts past a buffer (issue 19): `skip` float32 buffers of 16 KiB before x,
# then abs over x with `count` elements. count 16384 fits in UB from x's
# address when skip is 0 but runs past the 192 KiB UB at skip=9 (the device's
# vector core exception); count 65536 is more than UB holds from anywhere.
# race=1: y is copied in on MTE2 while the op reads it through x's count with
# nothing ordering the two (the build's auto sync looks at x alone).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def past(skip=0, count=16384, race=0):
    @T.prim_func
    def main(A: T.Tensor((4096,), "float32"), B: T.Tensor((4096,), "float32"),
             C: T.Tensor((4096,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            pad = T.alloc_ub((skip * 4096 + 8,), "float32")
            x = T.alloc_ub((4096,), "float32")
            y = T.alloc_ub((4096,), "float32")
            with T.Scope("V"):
                if vid == 0:
                    T.copy(A, x)
                    T.tile.fill(pad, 0.0)
                    if race == 1:
                        T.copy(B, y)
                    T.tile.abs(x, x, count)
                    T.copy(x, C)

    return main
