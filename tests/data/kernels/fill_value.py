# T.tile.fill's value read from a buffer: an element (`a[3]`) or a whole
# one-element buffer (upstream's group_norm: `T.tile.fill(mean_col, total)` with
# `total` a UB [1]), read when the fill runs. B is A[3] everywhere, C is A[5].
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def fill_value(N=64):
    @T.prim_func
    def main(
        A: T.Tensor((N,), "float32"),
        B: T.Tensor((N,), "float32"),
        C: T.Tensor((N,), "float32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((N,), "float32")
            total = T.alloc_ub((1,), "float32")
            b = T.alloc_ub((N,), "float32")
            with T.Scope("V"):
                if vid == 0:
                    T.copy(A[0:N], a)
                    T.copy(A[5:6], total)
                    T.tile.fill(b, a[3])
                    T.copy(b, B[0:N])
                    T.tile.fill(b, total)
                    T.copy(b, C[0:N])

    return main
