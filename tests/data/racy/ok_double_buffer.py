# Ping-pong buffers with every forward and backward edge: loads of tile j + 1
# overlap the vector op and the store of tile j. Flags are pre-set before the
# loop and drained after it, as upstream kernels do (init_flag / clear_flag).
# expect: nothing
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=1024, block_N=128, dtype="float32"):
    half = M // 2
    n = N // block_N

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((2, half, block_N), dtype)
            b = T.alloc_ub((2, half, block_N), dtype)
            with T.Scope("V"):
                row = vid * half
                for s in T.serial(2):
                    T.set_flag("v", "mte2", s)
                    T.set_flag("mte3", "v", s)
                for j in T.serial(n):
                    s = j % 2
                    T.wait_flag("v", "mte2", s)
                    T.copy(A[row, j * block_N], a[s, :, :])
                    T.set_flag("mte2", "v", s)
                    T.wait_flag("mte2", "v", s)
                    T.wait_flag("mte3", "v", s)
                    T.tile.mul(b[s, :, :], a[s, :, :], 2.0)
                    T.set_flag("v", "mte2", s)
                    T.set_flag("v", "mte3", s)
                    T.wait_flag("v", "mte3", s)
                    T.copy(b[s, :, :], C[row, j * block_N])
                    T.set_flag("mte3", "v", s)
                for s in T.serial(2):
                    T.wait_flag("v", "mte2", s)
                    T.wait_flag("mte3", "v", s)

    return main
