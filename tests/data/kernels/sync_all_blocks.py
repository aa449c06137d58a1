# Blocks exchange rows through GM twice: after T.sync_all (every core of the
# launch) and after a cross-core flag of mode 0 (every vector core of the
# launch). C[row] = A[other], D[row] = 2 * A[row] (other: the other block's
# rows of the same vector core).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2], workspace_idx=[3, 4])
def sync_all_blocks(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((2 * M, N), dtype), C: T.Tensor((2 * M, N), dtype),
             D: T.Tensor((2 * M, N), dtype), W: T.Tensor((2 * M, N), dtype),
             W2: T.Tensor((2 * M, N), dtype)):
        with T.Kernel(2, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            row = cid * M + vid * half
            other = (1 - cid) * M + vid * half
            with T.Scope("V"):
                T.copy(A[row, 0], a)
                T.set_flag("mte2", "mte3", 0)
                T.wait_flag("mte2", "mte3", 0)
                T.copy(a, W[row, 0])
            T.sync_all()
            with T.Scope("V"):
                T.copy(W[other, 0], a)
                T.set_flag("mte2", "mte3", 0)
                T.wait_flag("mte2", "mte3", 0)
                T.copy(a, C[row, 0])
                T.set_flag("mte3", "v", 0)
                T.wait_flag("mte3", "v", 0)
                T.tile.add(a, a, a)
                T.set_flag("v", "mte3", 0)
                T.wait_flag("v", "mte3", 0)
                T.copy(a, W2[row, 0])
                T.set_cross_flag("MTE3", 1, 0)
                T.wait_cross_flag(1)
                T.copy(W2[other, 0], a)
                T.set_flag("mte2", "mte3", 0)
                T.wait_flag("mte2", "mte3", 0)
                T.copy(a, D[row, 0])

    return main
