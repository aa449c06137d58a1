# Reloads that look like benign_same_bytes_ub.py's but are not provably the
# same bytes: `w` is scaled in place by the vector core before the next
# iteration's reload of it (the bytes the reload brings back are not the ones
# the mul left), and `v` is reloaded from V, which the kernel also writes (at
# other rows, but nothing proves its bytes did not change between the loads).
# Both race whatever the inputs' values: the rule compares where the bytes
# come from, never the bytes.
# expect: race WAR UB v@use mte2@reloadw
# expect: race WAW UB v@scale mte2@reloadw
# expect: race WAR UB v@use mte2@reloadv
# expect: race WAW UB mte2@reloadv mte2@reloadv
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=32, N=128, dtype="float32"):
    @T.prim_func
    def main(W: T.Tensor((M, N), dtype), V: T.Tensor((3 * M, N), dtype), C: T.Tensor((4 * M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            w = T.alloc_ub((M, N), dtype)
            v = T.alloc_ub((M, N), dtype)
            c = T.alloc_ub((M, N), dtype)
            with T.Scope("V"):
                for i in T.serial(2):
                    T.copy(W[0, 0], w)  # @reloadw
                    T.copy(V[0, 0], v)  # @reloadv
                    T.set_flag("mte2", "v", 0)
                    T.wait_flag("mte2", "v", 0)
                    T.tile.mul(w, w, w)  # @scale
                    T.tile.mul(c, w, v)  # @use
                    T.set_flag("v", "mte3", 0)
                    T.wait_flag("v", "mte3", 0)
                    T.copy(c, C[(2 * vid + i) * M, 0])
                    T.copy(c, V[(1 + vid) * M, 0])
                    T.set_flag("mte3", "v", 0)
                    T.wait_flag("mte3", "v", 0)

    return main
