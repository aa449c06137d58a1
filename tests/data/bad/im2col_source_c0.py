# T.tile.im2col from an L1 buffer whose last dimension is not C0 (32 bytes):
# its rows are not the NC1HWC0 feature map's
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(H=4, W=4):
    @T.prim_func
    def main(F: T.Tensor((H * W, 32), "float16"), O: T.Tensor((16, 64), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            f_l1 = T.alloc_L1((H * W, 32), "float16")
            x = T.alloc_L0A((16, 64), "float16")
            with T.Scope("C"):
                T.copy(F, f_l1)
                T.tile.im2col(x, f_l1, (H, W), (2, 2))
                T.copy(x, O)

    return main
