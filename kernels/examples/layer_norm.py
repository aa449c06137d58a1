# Layer norm over each row: Y = (X - mean) / sqrt(var + eps) * gamma + beta,
# with the biased (population) variance.
#
#   X, Y [M, N]  dtype (float16, bfloat16 or float32); math in float32
#   gamma, beta [N] float32
#   M symbolic, N compile-time (a multiple of 16); a row band of block_M rows
#   per block stays in UB, half of it per vector core.
#
# Mode: mixed (T.Scope("V"), automatic intra-core sync and memory planning).
# Two reductions per row: the mean, then the sum of squared deviations of the
# centred row (not E[x^2] - mean^2, which cancels). The per-row mean and
# 1/sqrt(var + eps) are spread over the tile with T.tile.broadcast; gamma and
# beta are applied with a column broadcast in T.Parallel.
#
# Golden: tl_generic_layer_norm (src/ref/ref.h) with out_prec matching dtype.
import tilelang
import tilelang.language as T

tilelang.cache.clear_cache()

MIXED_MODE = {
    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
    tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True,
}


@tilelang.jit(out_idx=[3], pass_configs=MIXED_MODE)
def layer_norm(N=1024, block_M=16, eps=1e-5, dtype="float16"):
    assert N % 16 == 0 and block_M % 2 == 0, "N a multiple of 16, block_M even"
    M = T.symbolic("M")
    f32 = "float32"
    rows = block_M // 2
    wide = dtype != f32

    @T.prim_func
    def main(
        X: T.Tensor([M, N], dtype),
        gamma: T.Tensor([N], f32),
        beta: T.Tensor([N], f32),
        Y: T.Tensor([M, N], dtype),
    ):
        with T.Kernel(T.ceildiv(M, block_M), is_npu=True) as (cid, vid):
            r0 = cid * block_M + vid * rows

            x_io = T.alloc_ub([rows, N], dtype)
            if wide:
                x = T.alloc_ub([rows, N], f32)
            else:
                x = x_io
            spread = T.alloc_ub([rows, N], f32)
            g = T.alloc_ub([N], f32)
            b = T.alloc_ub([N], f32)
            stat = T.alloc_ub([rows], f32)

            with T.Scope("V"):
                T.copy(gamma, g)
                T.copy(beta, b)
                T.copy(X[r0 : r0 + rows, :], x_io)
                if wide:
                    T.copy(x_io, x)

                # centre: x -= mean
                T.reduce_sum(x, stat, dim=-1)
                T.tile.mul(stat, stat, 1.0 / N)
                T.tile.broadcast(spread, stat, axis=1)
                T.tile.sub(x, x, spread)

                # scale: x *= 1 / sqrt(mean(x^2) + eps)
                T.tile.mul(spread, x, x)
                T.reduce_sum(spread, stat, dim=-1)
                T.tile.mul(stat, stat, 1.0 / N)
                T.tile.add(stat, stat, eps)
                T.tile.rsqrt(stat, stat)
                T.tile.broadcast(spread, stat, axis=1)
                T.tile.mul(x, x, spread)

                for i, j in T.Parallel(rows, N):
                    x[i, j] = x[i, j] * g[j] + b[j]
                if wide:
                    T.copy(x, x_io)
                T.copy(x_io, Y[r0 : r0 + rows, :])

    return main
