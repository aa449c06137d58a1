# Blocks exchange data through GM: each stores its rows of a workspace, then
# T.sync_all(), then each reads the other block's rows. The barrier of all
# cores orders every store before every load (the blocks are all resident).
# expect: nothing
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1], workspace_idx=[2])
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((2 * M, N), dtype), C: T.Tensor((2 * M, N), dtype),
             W: T.Tensor((2 * M, N), dtype)):
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

    return main
