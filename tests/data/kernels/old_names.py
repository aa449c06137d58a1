# Upstream's T-level tile-op names from before the T.tile namespace (ascend.py
# until 2025-12-08, and pto.py): T.add/T.sub/T.mul/T.div/T.max/T.min/T.abs/T.relu
# with the destination first, T.reduce_max(buffer, out, tmp, dim) and
# T.tile.reduce_sum(out, buffer, tmp, dim) with a scratch buffer, and
# T.tile.broadcast(dst, src, tmp). tilec binds each to the T.tile op of the same
# meaning (the scratch is not needed). With a = A, b = B (B > 0):
#   C = min(max(a + 2b, b), 50)   D = |a| + relu(a)   E = a / b
#   R = row max of a              S = row sum of a    F = R broadcast along rows
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3, 4, 5, 6, 7], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def old_names(M=8, N=64):
    @T.prim_func
    def main(
        A: T.Tensor((M, N), "float32"),
        B: T.Tensor((M, N), "float32"),
        C: T.Tensor((M, N), "float32"),
        D: T.Tensor((M, N), "float32"),
        E: T.Tensor((M, N), "float32"),
        R: T.Tensor((M,), "float32"),
        S: T.Tensor((M,), "float32"),
        F: T.Tensor((M, N), "float32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((M, N), "float32")
            b = T.alloc_ub((M, N), "float32")
            t = T.alloc_ub((M, N), "float32")
            u = T.alloc_ub((M, N), "float32")
            r = T.alloc_ub((M, 1), "float32")
            rm = T.alloc_ub((M,), "float32")
            s = T.alloc_ub((M,), "float32")
            tmp = T.alloc_ub((4 * M * N,), "uint8")
            with T.Scope("V"):
                if vid == 0:
                    T.copy(A[0:M, 0:N], a)
                    T.copy(B[0:M, 0:N], b)
                    T.add(t, a, b)
                    T.mul(u, t, 2.0)
                    T.sub(u, u, a)
                    T.max(t, u, b)
                    T.min(t, t, 50.0)
                    T.copy(t, C[0:M, 0:N])
                    T.abs(t, a)
                    T.relu(u, a)
                    T.add(t, t, u)
                    T.copy(t, D[0:M, 0:N])
                    T.div(t, a, b)
                    T.copy(t, E[0:M, 0:N])
                    T.reduce_max(a, rm, tmp, dim=-1)
                    T.copy(rm, R[0:M])
                    T.tile.reduce_sum(s, a, tmp, -1)
                    T.copy(s, S[0:M])
                    T.reduce_max(a, r, tmp, -1)
                    T.tile.broadcast(t, r, tmp)
                    T.copy(t, F[0:M, 0:N])

    return main
