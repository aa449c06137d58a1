# ok_copy_tail_fill.py with a tensor of 48 rows: the reload of `a` (rows
# 16..47) is not clipped, so upstream's copy_gm_to_ub moves it without its pad
# fill and flags, and nothing orders it after the add that reads `a`, nor
# after the first load (two MTE2 copies to the same bytes need an order too).
# expect: race WAR UB v@add mte2@reload
# expect: race WAW UB mte2@load mte2@reload
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=48, N=128, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((32, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((32, N), dtype)
            b = T.alloc_ub((32, N), dtype)
            with T.Scope("V"):
                if vid == 0:
                    T.copy(A[0, 0], a)  # @load
                    T.set_flag("mte2", "v", 0)
                    T.wait_flag("mte2", "v", 0)
                    T.tile.add(b, a, a)  # @add
                    T.copy(A[16, 0], a)  # @reload
                    T.set_flag("mte2", "v", 0)
                    T.wait_flag("mte2", "v", 0)
                    T.tile.add(b, b, a)
                    T.set_flag("v", "mte3", 0)
                    T.wait_flag("v", "mte3", 0)
                    T.copy(b, C[0, 0])

    return main
