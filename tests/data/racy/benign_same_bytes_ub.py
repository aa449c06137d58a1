# Each iteration reloads the weights `w` (the same bytes of W, which the kernel
# never writes) and a new tile `a`, with no V -> MTE2 flag before the loads: the
# reload of `w` may overtake the previous iteration's mul reading it, but it
# brings back the bytes that mul read, for every input, so the result cannot
# differ (a benign race, a warning), while the reload of `a` brings other rows
# (a race). upstream's opt_gdn_solve_tril (solve_tril_128_ker) reloads its
# identity tile so.
# expect: benign WAR UB v@use mte2@reloadw
# expect: benign WAW UB mte2@reloadw mte2@reloadw
# expect: race WAR UB v@use mte2@reloada
# expect: race WAW UB mte2@reloada mte2@reloada
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((2 * M, N), dtype), W: T.Tensor((half, N), dtype), C: T.Tensor((2 * M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            w = T.alloc_ub((half, N), dtype)
            c = T.alloc_ub((half, N), dtype)
            with T.Scope("V"):
                for i in T.serial(2):
                    row = i * M + vid * half
                    T.copy(W[0, 0], w)  # @reloadw
                    T.copy(A[row, 0], a)  # @reloada
                    T.set_flag("mte2", "v", 0)
                    T.wait_flag("mte2", "v", 0)
                    T.tile.mul(c, a, w)  # @use
                    T.set_flag("v", "mte3", 0)
                    T.wait_flag("v", "mte3", 0)
                    T.copy(c, C[row, 0])
                    T.set_flag("mte3", "v", 0)
                    T.wait_flag("mte3", "v", 0)

    return main
