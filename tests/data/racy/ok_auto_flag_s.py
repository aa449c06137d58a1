# scalar_read_after_v.py for the Ascend C target (the default): the compiler's
# automatic sync (on by default for tilelang-ascend's bisheng build) puts the
# V -> S flag before a scalar read of data a vector instruction wrote, and the
# MTE2 -> S flag before a scalar read of data a copy loaded.
# expect: nothing
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            b = T.alloc_ub((half, N), dtype)
            s = T.alloc_ub((8,), dtype)
            with T.Scope("V"):
                row = vid * half
                T.copy(A[row, 0], a)
                T.tile.fill(s, 3.0)
                scale = s[0] + a[0, 0]
                T.set_flag("mte2", "v", 0)
                T.wait_flag("mte2", "v", 0)
                T.tile.mul(b, a, scale)
                T.set_flag("v", "mte3", 0)
                T.wait_flag("v", "mte3", 0)
                T.copy(b, C[row, 0])

    return main
