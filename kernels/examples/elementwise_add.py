# Element-wise addition C = A + B of two [M, N] tensors.
#
#   A, B, C  [M, N]  dtype (default float32); M, N compile-time
#
# Mode: expert. Every statement sits in T.Scope("V") (vector cores only) and
# the pipes are ordered by hand with T.barrier_all(). Block cid owns a band of
# block_M rows and walks it in block_N-wide tiles; vector core vid takes the
# upper or lower half of the band's rows. Per tile: MTE2 loads A and B, a
# barrier, one vector add, a barrier, MTE3 stores C. The barrier before the add
# also keeps the next tile's loads from overwriting a_ub / b_ub and the add from
# overwriting c_ub before the previous store has drained.
#
# Golden: tl_generic_add (src/ref/ref.h) with out_prec matching dtype.
import tilelang
import tilelang.language as T

tilelang.cache.clear_cache()


@tilelang.jit(out_idx=[-1])
def elementwise_add(M=1024, N=1024, block_M=64, block_N=256, dtype="float32"):
    assert M % block_M == 0 and N % block_N == 0 and block_M % 2 == 0, "tiles must divide M, N"
    half = block_M // 2
    n_tiles = N // block_N

    @T.prim_func
    def main(
        A: T.Tensor([M, N], dtype),
        B: T.Tensor([M, N], dtype),
        C: T.Tensor([M, N], dtype),
    ):
        with T.Kernel(M // block_M, is_npu=True) as (cid, vid):
            r0 = cid * block_M + vid * half

            a_ub = T.alloc_ub([half, block_N], dtype)
            b_ub = T.alloc_ub([half, block_N], dtype)
            c_ub = T.alloc_ub([half, block_N], dtype)

            with T.Scope("V"):
                for j in T.serial(n_tiles):
                    T.copy(A[r0, j * block_N], a_ub)
                    T.copy(B[r0, j * block_N], b_ub)
                    T.barrier_all()
                    T.tile.add(c_ub, a_ub, b_ub)
                    T.barrier_all()
                    T.copy(c_ub, C[r0, j * block_N])

    return main
