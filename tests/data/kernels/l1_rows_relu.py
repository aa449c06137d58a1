# Cube loads into blocks of L1 matrices (the lightning indexers' Q: 16-row
# blocks at a run-time row, a column block of whole 32-byte strips) and a
# store from L0C with enable_relu: C = relu(A @ B), float32. paged: A in
# pieces of a run-time row count at rows 0, 24, 48 (upstream's
# sparse_flash_mla pages, kv_ring[slot, done : done + run, :]) and C stored
# with a run-time column count (workspace_s[..., 0:win_align]).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def l1_rows_relu(M=64, K=64, N=64, dtype="float16", paged=False):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((2, M, K), dtype)
            b_l1 = T.alloc_L1((K, N), dtype)
            a_l0 = T.alloc_L0A((M, K), dtype)
            b_l0 = T.alloc_L0B((K, N), dtype)
            c_l0 = T.alloc_L0C((M, N), "float32")
            with T.Scope("C"):
                if paged:
                    for p in T.serial((M + 23) // 24):
                        run = T.min(24, M - p * 24)
                        T.copy(A[p * 24:p * 24 + run, :], a_l1[1, p * 24:p * 24 + run, :])
                else:
                    for i in T.serial(M // 16):
                        T.copy(A[i * 16:(i + 1) * 16, :], a_l1[1, i * 16:(i + 1) * 16, :])
                T.copy(B[:, 0:N // 2], b_l1[:, 0:N // 2])
                T.pipe_barrier("mte2")  # tilec sim sees the two halves' byte spans overlap
                T.copy(B[:, N // 2:N], b_l1[:, N // 2:N])
                T.set_flag("mte2", "mte1", 0)
                T.wait_flag("mte2", "mte1", 0)
                T.copy(a_l1[1, :, :], a_l0)
                T.copy(b_l1, b_l0)
                T.set_flag("mte1", "m", 0)
                T.wait_flag("mte1", "m", 0)
                T.mma(a_l0, b_l0, c_l0, init=True)
                T.set_flag("m", "fix", 0)
                T.wait_flag("m", "fix", 0)
                if paged:
                    for q in T.serial(1):
                        cols = T.min(N, N + q)
                        T.copy(c_l0, C[0:M, 0:cols], enable_relu=True)
                else:
                    T.copy(c_l0, C[0:M, 0:N], enable_relu=True)

    return main
