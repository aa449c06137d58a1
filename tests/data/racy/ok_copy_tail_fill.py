# A GM -> UB copy whose rows run past the tensor's end (40 rows, the tile asks
# for 16..47) reloads `a` while the add before it may still read it, with no
# V -> MTE2 flag: upstream's tl::ascend::copy_gm_to_ub fills the tile with the
# pad value first, between its own MTE2 -> V, MTE3 -> V and V -> MTE2 flags,
# so the clipped copy waits for every earlier vector op (the unclipped one in
# copy_tail_unclipped.py races).
# expect: nothing
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=40, N=128, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((32, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((32, N), dtype)
            b = T.alloc_ub((32, N), dtype)
            with T.Scope("V"):
                if vid == 0:
                    T.copy(A[0, 0], a)
                    T.set_flag("mte2", "v", 0)
                    T.wait_flag("mte2", "v", 0)
                    T.tile.add(b, a, a)
                    T.copy(A[16, 0], a)
                    T.set_flag("mte2", "v", 0)
                    T.wait_flag("mte2", "v", 0)
                    T.tile.add(b, b, a)
                    T.set_flag("v", "mte3", 0)
                    T.wait_flag("v", "mte3", 0)
                    T.copy(b, C[0, 0])

    return main
