# missing_barrier_v.py and scalar_read_after_v.py with upstream's default for
# target="pto": its AscendSyncInsertVS pass (tl.ascend_auto_sync_vs, on for pto
# in tilelang/transform/pass_config.py) puts pipe_barrier(PIPE_V) between the
# dependent exp and add and a V -> S flag before the scalar read, as bisheng's
# automatic sync does for Ascend C (pto_rope.py chains its vector ops so).
# expect: nothing
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], target="pto")
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            b = T.alloc_ub((half, N), dtype)
            c = T.alloc_ub((half, N), dtype)
            s = T.alloc_ub((8,), dtype)
            with T.Scope("V"):
                row = vid * half
                T.copy(A[row, 0], a)
                T.tile.fill(s, 3.0)
                scale = s[0]
                T.set_flag("mte2", "v", 0)
                T.wait_flag("mte2", "v", 0)
                T.tile.exp(b, a)
                T.tile.add(c, b, a)
                T.tile.mul(c, c, scale)
                T.set_flag("v", "mte3", 0)
                T.wait_flag("v", "mte3", 0)
                T.copy(c, C[row, 0])

    return main
