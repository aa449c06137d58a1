# Row softmax Y = softmax(X, dim=-1) over column blocks with a running max/sum.
#
#   X, Y [M, N]  dtype (float32, float16 or bfloat16); math in float32
#   M, N compile-time; any sizes (the column tail is padded with -inf, which
#   adds nothing to the sums; row tails are clipped on store).
#
# Mode: developer (auto sync, memory planning, auto CV combine; vector only).
# Each vector core owns half of a block's rows. Pass 1 walks the row's column
# blocks keeping m (running max) and l (running sum of exp(x - m)):
#     m' = max(m, rowmax(x)),  l = l * exp(m - m') + rowsum(exp(x - m'))
# starting from m = lowest float32 (not -inf, so a block of -inf cannot make
# exp(-inf - -inf) = NaN) and l = 0. Pass 2 writes exp(x - m) / l.
#
# Golden: tl_generic_softmax (src/ref/ref.h) with out_prec matching dtype.
import tilelang
import tilelang.language as T

tilelang.cache.clear_cache()

DEV_MODE = {
    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
    tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True,
    tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True,
}

FLT_LOWEST = -3.4028234663852886e38


@tilelang.jit(out_idx=[1], pass_configs=DEV_MODE)
def online_softmax(M=1024, N=4096, block_M=32, block_N=512, dtype="float32"):
    assert dtype in ("float32", "float16", "bfloat16")
    assert block_M % 2 == 0 and block_N % 16 == 0, "block_M even, block_N a multiple of 16"
    f32 = "float32"
    rows = block_M // 2
    n_blocks = T.ceildiv(N, block_N)
    wide = dtype != f32  # compute in a float32 copy of the tile

    @T.prim_func
    def main(
        X: T.Tensor([M, N], dtype),
        Y: T.Tensor([M, N], dtype),
    ):
        with T.Kernel(T.ceildiv(M, block_M), is_npu=True) as (cid, vid):
            r0 = cid * block_M + vid * rows

            x_in = T.alloc_shared([rows, block_N], dtype)
            if wide:
                x = T.alloc_shared([rows, block_N], f32)
            else:
                x = x_in
            m = T.alloc_shared([rows], f32)
            l = T.alloc_shared([rows], f32)
            m_new = T.alloc_shared([rows], f32)
            scale = T.alloc_shared([rows], f32)
            blk_sum = T.alloc_shared([rows], f32)

            T.tile.fill(m, FLT_LOWEST)
            T.tile.fill(l, 0.0)
            for j in T.serial(n_blocks):
                T.copy(
                    X[r0 : r0 + rows, j * block_N : j * block_N + block_N],
                    x_in,
                    pad_value=-T.infinity(dtype),
                )
                if wide:
                    T.copy(x_in, x)
                T.reduce_max(x, m_new, dim=-1)
                T.tile.max(m_new, m_new, m)
                T.tile.sub(scale, m, m_new)
                T.tile.exp(scale, scale)
                T.copy(m_new, m)
                for i, c in T.Parallel(rows, block_N):
                    x[i, c] = T.exp(x[i, c] - m[i])
                T.reduce_sum(x, blk_sum, dim=-1)
                T.tile.mul(l, l, scale)
                T.tile.add(l, l, blk_sum)

            for j in T.serial(n_blocks):
                T.copy(X[r0 : r0 + rows, j * block_N : j * block_N + block_N], x_in)
                if wide:
                    T.copy(x_in, x)
                for i, c in T.Parallel(rows, block_N):
                    x[i, c] = T.exp(x[i, c] - m[i]) / l[i]
                if wide:
                    T.copy(x, x_in)
                T.copy(x_in, Y[r0 : r0 + rows, j * block_N : j * block_N + block_N])

    return main
