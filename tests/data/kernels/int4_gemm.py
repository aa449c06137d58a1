# int4 end to end (upstream's nibble-packed int4, AscendC int4b_t): two elements a
# byte, the even one in the low nibble, each sign-extended. The host holds an int4
# tensor of shape (..., N) as its packed bytes, uint8 (..., N / 2).
# int4_gemm: C = A @ B (or A @ B^T when tb) in int32 over K tiles of K_L1 (K = 192:
# three tiles, an odd count), N split over the grid; every byte value occurs, so
# both nibbles take negative and positive values.
# int4_cast: Q = int4(X) (round to nearest even, saturated to [-8, 7]) through a
# UB -> UB int4 copy, and Z = float16(P) of an int4 input.
import tilelang
import tilelang.language as T

PASS_CONFIGS = {
    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
    tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True,
}


@tilelang.jit(out_idx=[-1], pass_configs=PASS_CONFIGS)
def int4_gemm(M=32, N=128, K=192, block_N=64, K_L1=64, tb=False):
    b_shape = (N, K) if tb else (K, N)
    b_tile = (block_N, K_L1) if tb else (K_L1, block_N)

    @T.prim_func
    def main(
        A: T.Tensor((M, K), "int4"),
        B: T.Tensor(b_shape, "int4"),
        C: T.Tensor((M, N), "int32"),
    ):
        with T.Kernel(N // block_N, is_npu=True) as (cid, _):
            a_l1 = T.alloc_L1((M, K_L1), "int4")
            b_l1 = T.alloc_L1(b_tile, "int4")
            c_l0 = T.alloc_L0C((M, block_N), "int32")
            with T.Scope("C"):
                for k in T.serial(K // K_L1):
                    T.copy(A[0, k * K_L1], a_l1)
                    if tb:
                        T.copy(B[cid * block_N, k * K_L1], b_l1)
                    else:
                        T.copy(B[k * K_L1, cid * block_N], b_l1)
                    T.gemm_v0(a_l1, b_l1, c_l0, transpose_B=tb, init=(k == 0))
                T.copy(c_l0, C[0, cid * block_N])

    return main


@tilelang.jit(out_idx=[-2, -1], pass_configs=PASS_CONFIGS)
def int4_cast(M=16, N=128):
    h = M // 2  # each vector core converts half the rows

    @T.prim_func
    def main(
        X: T.Tensor((M, N), "float16"),
        P: T.Tensor((M, N), "int4"),
        Q: T.Tensor((M, N), "int4"),
        Z: T.Tensor((M, N), "float16"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            x = T.alloc_ub((h, N), "float16")
            q = T.alloc_ub((h, N), "int4")
            q2 = T.alloc_ub((h, N), "int4")
            p = T.alloc_ub((h, N), "int4")
            z = T.alloc_ub((h, N), "float16")
            with T.Scope("V"):
                T.copy(X[vid * h, 0], x)
                T.tile.cast(q, x, mode="CAST_RINT", count=h * N)
                T.copy(q, q2)
                T.copy(q2, Q[vid * h, 0])
                T.copy(P[vid * h, 0], p)
                T.tile.cast(z, p, mode="CAST_NONE", count=h * N)
                T.copy(z, Z[vid * h, 0])

    return main
