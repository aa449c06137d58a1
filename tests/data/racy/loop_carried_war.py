# A tile loop that reuses `a` without a back edge: the next iteration's load
# (MTE2) may overwrite `a` while the previous iteration's vector op still reads
# it; a set_flag("v", "mte2") after the mul and a wait before the load are
# missing. (The store -> next mul edge is there.) Without it the loads of two
# iterations are unordered on MTE2 too.
# expect: race WAR UB v@mul mte2@load
# expect: race WAW UB mte2@load mte2@load
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=512, block_N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, block_N), dtype)
            b = T.alloc_ub((half, block_N), dtype)
            with T.Scope("V"):
                row = vid * half
                T.set_flag("mte3", "v", 0)
                for j in T.serial(N // block_N):
                    T.copy(A[row, j * block_N], a)  # @load
                    T.set_flag("mte2", "v", 0)
                    T.wait_flag("mte2", "v", 0)
                    T.wait_flag("mte3", "v", 0)
                    T.tile.mul(b, a, 2.0)  # @mul
                    T.set_flag("v", "mte3", 0)
                    T.wait_flag("v", "mte3", 0)
                    T.copy(b, C[row, j * block_N])
                    T.set_flag("mte3", "v", 0)
                T.wait_flag("mte3", "v", 0)

    return main
