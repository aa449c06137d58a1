# DeepSeek-V4 activation quantisation (research/dsv4_ops.md §5). Two factories:
#
# act_quant: int8, one scale per row.
#     a = max(max_j |x[i, j]|, 1e-4)        (the amax floor: a zero row gets a
#     s[i] = a / 127                          tiny scale and y = 0, not NaN)
#     y[i, j] = round_half_even(clamp(x[i, j] / s[i], -127, 127))
#   X [M, N] bfloat16 -> Y [M, N] int8, S [M] float32.
#
# act_quant_block: one scale per 1 x group block of a row (group 128), output
#   float8_e4m3 (qmax 448, the default) or int8 (qmax 127), same formula per
#   block; S [M, ceil(N / group)] float32.
#
# With round_scale, s becomes 2^ceil(log2 s) by the exponent bit formula
# (bits + 0x7FFFFF) & 0x7F800000. M symbolic, N compile-time; any M and N (GM
# copies clip; padded columns are zeros and never raise the amax).
#
# Mode: mixed (T.Scope("V"), automatic intra-core sync and memory planning).
# act_quant is persistent: `cores` blocks (24 AI cores on A2), each walking the
# row bands cid, cid + cores, ... of block_M rows, each vector core half of a
# band's rows. It reads X once: pass 1 keeps the raw bfloat16 row band in UB,
# laid out as [column chunk, row, column] so every chunk is contiguous, while
# taking the running amax; pass 2 quantises the chunks from UB. The band loop
# is T.Pipelined with 2 stages: the band buffer gets two versions, so the next
# band's loads run while this band is quantised and stored. The integer
# rounding is round (ties to even) -> float16 -> int8, both casts exact.
#
# Golden: tl_act_quant_ref (src/ref/ref.h) from tl_act_quant_defaults(M, N)
# (amax_floor 1e-4, RNE), with .round_scale as given; for act_quant_block also
# .block = group and .target = TL_ACT_QUANT_E4M3 / TL_ACT_QUANT_INT8.
import tilelang
import tilelang.language as T

tilelang.cache.clear_cache()

MIXED_MODE = {
    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
    tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True,
}

UB_BYTES = 196352
AMAX_FLOOR = 1e-4


def pow2_ceil(s):
    # 2^ceil(log2 s) for a positive finite float32 s, on its bit pattern
    bits = T.reinterpret("int32", s)
    return T.reinterpret("float32", (bits + 0x7FFFFF) & 0x7F800000)


@tilelang.jit(out_idx=[1, 2], pass_configs=MIXED_MODE)
def act_quant(N=4096, block_M=8, block_N=1024, cores=24, round_scale=False):
    assert block_M % 2 == 0 and block_N % 32 == 0, "block_M even, block_N a multiple of 32"
    assert cores >= 1, "cores at least 1"
    M = T.symbolic("M")
    bands = T.ceildiv(M, block_M)
    rows = block_M // 2  # rows per vector core
    chunk = min(block_N, (N + 31) // 32 * 32)
    n_chunks = (N + chunk - 1) // chunk
    ub = rows * n_chunks * chunk * 2 + rows * chunk * 7 + rows * 16
    assert ub <= UB_BYTES, f"act_quant: {ub} bytes of UB per core; lower block_M or block_N"

    @T.prim_func
    def main(
        X: T.Tensor([M, N], "bfloat16"),
        Y: T.Tensor([M, N], "int8"),
        S: T.Tensor([M], "float32"),
    ):
        with T.Kernel(cores, is_npu=True) as (cid, vid):
            band = T.alloc_ub([n_chunks, rows, chunk], "bfloat16")
            xf = T.alloc_ub([rows, chunk], "float32")
            xh = T.alloc_ub([rows, chunk], "float16")
            yq = T.alloc_ub([rows, chunk], "int8")
            amax = T.alloc_ub([rows], "float32")
            cmax = T.alloc_ub([rows], "float32")
            scale = T.alloc_ub([rows], "float32")

            with T.Scope("V"):
                for t in T.Pipelined(T.ceildiv(bands - cid, cores), num_stages=2):
                    r0 = (t * cores + cid) * block_M + vid * rows

                    # pass 1: load the band, running max of |x| (from the floor up)
                    T.tile.fill(amax, AMAX_FLOOR)
                    for c in T.serial(n_chunks):
                        T.copy(X[r0 : r0 + rows, c * chunk : c * chunk + chunk], band[c, :, :])
                        T.tile.cast(xf, band[c, :, :], mode="CAST_NONE", count=rows * chunk)
                        T.tile.abs(xf, xf)
                        T.reduce_max(xf, cmax, dim=-1)
                        T.tile.max(amax, amax, cmax)
                    for i in T.Parallel(rows):
                        scale[i] = amax[i] / 127.0
                    if round_scale:
                        for i in T.serial(rows):
                            scale[i] = pow2_ceil(scale[i])
                    T.copy(scale, S[r0 : r0 + rows])

                    # pass 2: quantise every chunk of the band
                    for c in T.serial(n_chunks):
                        T.tile.cast(xf, band[c, :, :], mode="CAST_NONE", count=rows * chunk)
                        for i, j in T.Parallel(rows, chunk):
                            xf[i, j] = xf[i, j] / scale[i]
                        T.tile.clamp(xf, xf, -127.0, 127.0, rows * chunk)
                        T.tile.round(xf, xf, rows * chunk)
                        T.tile.cast(xh, xf, mode="CAST_NONE", count=rows * chunk)
                        T.tile.cast(yq, xh, mode="CAST_NONE", count=rows * chunk)
                        T.copy(yq, Y[r0 : r0 + rows, c * chunk : c * chunk + chunk])

    return main


@tilelang.jit(out_idx=[1, 2], pass_configs=MIXED_MODE)
def act_quant_block(N=4096, block_M=16, group=128, out_dtype="float8_e4m3", round_scale=True):
    assert out_dtype in ("float8_e4m3", "int8"), "out_dtype: float8_e4m3 or int8"
    assert block_M % 2 == 0 and group % 32 == 0, "block_M even, group a multiple of 32"
    M = T.symbolic("M")
    rows = block_M // 2
    n_groups = (N + group - 1) // group
    groups_pad = (n_groups + 7) // 8 * 8  # 32-byte rows of float32 scales
    qmax = 448.0 if out_dtype == "float8_e4m3" else 127.0

    @T.prim_func
    def main(
        X: T.Tensor([M, N], "bfloat16"),
        Y: T.Tensor([M, N], out_dtype),
        S: T.Tensor([M, n_groups], "float32"),
    ):
        with T.Kernel(T.ceildiv(M, block_M), is_npu=True) as (cid, vid):
            r0 = cid * block_M + vid * rows

            xb = T.alloc_ub([rows, group], "bfloat16")
            xf = T.alloc_ub([rows, group], "float32")
            xa = T.alloc_ub([rows, group], "float32")
            yq = T.alloc_ub([rows, group], out_dtype)
            if out_dtype == "int8":
                xh = T.alloc_ub([rows, group], "float16")
            gmax = T.alloc_ub([rows], "float32")
            scale = T.alloc_ub([rows], "float32")
            scales = T.alloc_ub([rows, groups_pad], "float32")

            with T.Scope("V"):
                for g in T.serial(n_groups):
                    T.copy(X[r0 : r0 + rows, g * group : g * group + group], xb)
                    T.tile.cast(xf, xb, mode="CAST_NONE", count=rows * group)
                    T.tile.abs(xa, xf)
                    T.reduce_max(xa, gmax, dim=-1)
                    T.tile.max(gmax, gmax, AMAX_FLOOR)
                    for i in T.Parallel(rows):
                        scale[i] = gmax[i] / qmax
                    for i in T.serial(rows):
                        if round_scale:
                            scale[i] = pow2_ceil(scale[i])
                        scales[i, g] = scale[i]
                    for i, j in T.Parallel(rows, group):
                        xf[i, j] = xf[i, j] / scale[i]
                    T.tile.clamp(xf, xf, -qmax, qmax, rows * group)
                    if out_dtype == "int8":
                        T.tile.round(xf, xf, rows * group)
                        T.tile.cast(xh, xf, mode="CAST_NONE", count=rows * group)
                        T.tile.cast(yq, xh, mode="CAST_NONE", count=rows * group)
                    else:
                        T.tile.cast(yq, xf, mode="CAST_RINT", count=rows * group)
                    T.copy(yq, Y[r0 : r0 + rows, g * group : g * group + group])
                T.copy(scales, S[r0 : r0 + rows, :])

    return main
