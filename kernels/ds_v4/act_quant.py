# DeepSeek-V4 activation quantisation (research/dsv4_ops.md §5). Two factories:
#
# act_quant: int8, one scale per row.
#     a = max(max_j |x[i, j]|, 1e-4)        (the amax floor: a zero row gets a
#     s[i] = a / 127                          tiny scale and y = 0, not NaN)
#     y[i, j] = round_half_even(clamp(x[i, j] / s[i], -127, 127))
#   X [M, N] bfloat16 -> Y [M, N] int8, S [M] float32.
#
# act_quant_block: one scale per 1 x group block of a row (group 128), output
#   int8 (qmax 127, the default) or float8_e4m3 (qmax 448), same formula per
#   block; S [M, ceil(N / group)] float32. float8_e4m3 needs a float32 -> fp8
#   vector cast, which Ascend A2/A3 do not have (asc-devkit Cast: Ascend 950
#   only): tilec rejects that form at its T.tile.cast. Each vector core takes block_M / 2
#   rows and walks their groups in a loop pipelined four deep (a group's load,
#   vector chain and store overlap the neighbours': 2.7x fewer cycles than
#   the serial loop on the simulator).
#
# With round_scale, s becomes 2^ceil(log2 s) by the exponent bit formula
# (bits + 0x7FFFFF) & 0x7F800000. M symbolic, N compile-time; any M and N (GM
# copies clip; padded columns are zeros and never raise the amax).
#
# Mode: mixed (T.Scope("V"), automatic intra-core sync and memory planning).
# act_quant is persistent: `cores` blocks (24 AI cores on A2), each vector core
# u = 2 * cid + vid taking the rows u, u + 2 * cores, ... (the first M mod 48
# vector cores one row more than the rest). A row is read once, whole: its
# bfloat16 copy is cast to float32 (kept for the quantisation) and |x| reduced
# to the amax; then the float32 row is quantised. The rows are software-
# pipelined by hand over two buffer sets: while row k is quantised, row k + 1's
# amax is taken (their vector ops alternate, so that one pipe barrier orders a
# pair of independent ops) and row k + 2 loads. With an even row count the
# second row of a core loads only once its first row is in (at the start
# every core waits for its first row, which then share the HBM bandwidth);
# with an odd count row 0 is quantised on its own first, so the next row
# queues right behind it (its load is booked before the later cores' second
# rows: at M = 512, N = 7168, where the 11-row cores are odd, 12,918 ->
# 12,655 cycles from a cold L2). The first two rows run one after the other
# (row 1 is needed only after row 0 is quantised). UB:
# 19 bytes per column, so this whole-row form takes N up to 10,304. Longer
# rows go to act_quant_chunked (same rows per vector core, column chunks of at
# most 4096: the bfloat16 row stays in UB between the amax pass and the
# quantise pass, the row loop pipelined while two rows fit, N up to about
# 94,000; past that pass 2 reads X again from GM, any N). The integer
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


@T.macro
def row_scale(sc, amax, round_scale):
    # sc = amax / 127 (2^ceil(log2) of it with round_scale); amax is floored
    for i in T.Parallel(1):
        sc[i] = amax[i] / 127.0
    if round_scale:
        for i in T.serial(1):
            sc[i] = pow2_ceil(sc[i])


@T.macro
def quantise_into(yq, xh, xf, sc, count):
    # yq = round_half_even(clamp(xf / sc, -127, 127)) through float16 (exact)
    for i, j in T.Parallel(1, count):
        xf[i, j] = xf[i, j] / sc[i]
    T.tile.clamp(xf, xf, -127.0, 127.0, count)
    T.tile.round(xf, xf, count)
    T.tile.cast(xh, xf, mode="CAST_NONE", count=count)
    T.tile.cast(yq, xh, mode="CAST_NONE", count=count)


@tilelang.jit(out_idx=[1, 2], pass_configs=MIXED_MODE)
def act_quant(N=4096, cores=24, round_scale=False):
    assert cores >= 1, "cores at least 1"
    M = T.symbolic("M")
    units = 2 * cores  # vector cores
    Np = (N + 31) // 32 * 32  # row length in UB (the padding loads as zeros)
    if Np * 19 + 3 * 32 > UB_BYTES:
        return act_quant_chunked(M, N, cores, round_scale)

    @T.prim_func
    def main(
        X: T.Tensor([M, N], "bfloat16"),
        Y: T.Tensor([M, N], "int8"),
        S: T.Tensor([M], "float32"),
    ):
        with T.Kernel(cores, is_npu=True) as (cid, vid):
            band0 = T.alloc_ub([1, Np], "bfloat16")
            band1 = T.alloc_ub([1, Np], "bfloat16")
            xf0 = T.alloc_ub([1, Np], "float32")
            xf1 = T.alloc_ub([1, Np], "float32")
            xa = T.alloc_ub([1, Np], "float32")
            xh = T.alloc_ub([1, Np], "float16")
            yq = T.alloc_ub([1, Np], "int8")
            amax = T.alloc_ub([1], "float32")
            sc0 = T.alloc_ub([1], "float32")
            sc1 = T.alloc_ub([1], "float32")

            u = cid * 2 + vid
            n = (M - u + units - 1) // units  # rows of this vector core

            @T.macro
            def load(k, band):
                row = k * units + u
                T.copy(X[row : row + 1, 0:Np], band)

            @T.macro
            def scale_of(sc):
                T.tile.max(amax, amax, AMAX_FLOOR)
                row_scale(sc, amax, round_scale)

            @T.macro
            def amax_of(xf, sc):
                T.tile.abs(xa, xf)
                T.reduce_max(xa, amax, dim=-1)
                scale_of(sc)

            @T.macro
            def first_row_in():
                # later loads wait until the first row is in UB and cast
                T.set_flag("v", "mte2", 7)
                T.wait_flag("v", "mte2", 7)

            @T.macro
            def quantise(k, xf, sc):
                quantise_into(yq, xh, xf, sc, Np)
                row = k * units + u
                T.copy(yq, Y[row : row + 1, 0:Np])

            @T.macro
            def store_scale(k, sc):
                row = k * units + u
                T.copy(sc, S[row : row + 1])

            @T.macro
            def step(k, bc, xc, sc_c, bn, xn, sc_n):
                # quantises row k (xc, sc_c) while taking row k + 1's amax (bn ->
                # xn, sc_n); row k + 2 loads into bc meanwhile
                if k + 2 < n:
                    load(k + 2, bc)
                for i, j in T.Parallel(1, Np):
                    xc[i, j] = xc[i, j] / sc_c[i]
                T.tile.cast(xn, bn, mode="CAST_NONE", count=Np)
                T.tile.abs(xa, xn)
                T.tile.clamp(xc, xc, -127.0, 127.0, Np)
                T.reduce_max(xa, amax, dim=-1)
                T.tile.round(xc, xc, Np)
                T.tile.max(amax, amax, AMAX_FLOOR)
                T.tile.cast(xh, xc, mode="CAST_NONE", count=Np)
                for i in T.Parallel(1):
                    sc_n[i] = amax[i] / 127.0
                T.tile.cast(yq, xh, mode="CAST_NONE", count=Np)
                if round_scale:
                    for i in T.serial(1):
                        sc_n[i] = pow2_ceil(sc_n[i])
                row = k * units + u
                T.copy(yq, Y[row : row + 1, 0:Np])
                store_scale(k + 1, sc_n)

            with T.Scope("V"):
                # An odd row count quantises row 0 on its own first; the even
                # number of rows from r0 on alternate between the buffer sets
                # B (band1, xf1, sc1) and A (band0, xf0, sc0), the last in A.
                r0 = n % 2
                if r0 == 1:
                    load(0, band0)
                    T.tile.cast(xf0, band0, mode="CAST_NONE", count=Np)
                    amax_of(xf0, sc0)
                    store_scale(0, sc0)
                    quantise(0, xf0, sc0)
                if n >= 2:
                    load(r0, band1)
                    T.tile.cast(xf1, band1, mode="CAST_NONE", count=Np)
                    if r0 == 0:
                        first_row_in()
                    load(r0 + 1, band0)
                    amax_of(xf1, sc1)
                    store_scale(r0, sc1)
                    if r0 + 2 < n:
                        load(r0 + 2, band1)
                    quantise(r0, xf1, sc1)
                    T.tile.cast(xf0, band0, mode="CAST_NONE", count=Np)
                    amax_of(xf0, sc0)
                    store_scale(r0 + 1, sc0)
                    for g in T.serial((n - r0 - 2) // 2):
                        k = r0 + 1 + 2 * g
                        step(k, band0, xf0, sc0, band1, xf1, sc1)
                        step(k + 1, band1, xf1, sc1, band0, xf0, sc0)
                    quantise(n - 1, xf0, sc0)

    return main


def act_quant_chunked(M, N, cores, round_scale, max_chunk=4096):
    # act_quant for rows too long for the whole-row form: the same rows per
    # vector core, each row walked in column chunks of at most max_chunk (equal
    # chunks, so an odd N pads little). Pass 1 takes the running amax, pass 2
    # quantises. The bfloat16 row stays in UB between the passes when it fits
    # (twice, and then the row loop is pipelined: row k + 1 loads while row k is
    # quantised); otherwise pass 2 reads its chunks from GM again (any N).
    units = 2 * cores
    Np = (N + 31) // 32 * 32
    n_chunks = (Np + max_chunk - 1) // max_chunk
    chunk = (Np + n_chunks * 32 - 1) // (n_chunks * 32) * 32
    work = chunk * 7 + 3 * 32  # xf, xh, yq and the scalars
    row_bytes = n_chunks * chunk * 2
    resident = row_bytes + work <= UB_BYTES
    stages = 2 if 2 * row_bytes + work <= UB_BYTES else 0

    @T.prim_func
    def main(
        X: T.Tensor([M, N], "bfloat16"),
        Y: T.Tensor([M, N], "int8"),
        S: T.Tensor([M], "float32"),
    ):
        with T.Kernel(cores, is_npu=True) as (cid, vid):
            band = T.alloc_ub([n_chunks if resident else 1, 1, chunk], "bfloat16")
            xf = T.alloc_ub([1, chunk], "float32")
            xh = T.alloc_ub([1, chunk], "float16")
            yq = T.alloc_ub([1, chunk], "int8")
            amax = T.alloc_ub([1], "float32")
            cmax = T.alloc_ub([1], "float32")
            scale = T.alloc_ub([1], "float32")

            u = cid * 2 + vid
            n = (M - u + units - 1) // units  # rows of this vector core

            @T.macro
            def load(row, c, dst):
                T.copy(X[row : row + 1, c * chunk : c * chunk + chunk], dst)

            with T.Scope("V"):
                for k in T.Pipelined(n, num_stages=stages):
                    row = k * units + u
                    # pass 1: running max of |x| (from the floor up)
                    T.tile.fill(amax, AMAX_FLOOR)
                    for c in T.serial(n_chunks):
                        src = band[c, :, :] if resident else band[0, :, :]
                        load(row, c, src)
                        T.tile.cast(xf, src, mode="CAST_NONE", count=chunk)
                        T.tile.abs(xf, xf)
                        T.reduce_max(xf, cmax, dim=-1)
                        T.tile.max(amax, amax, cmax)
                    row_scale(scale, amax, round_scale)
                    T.copy(scale, S[row : row + 1])

                    # pass 2: quantise every chunk
                    for c in T.serial(n_chunks):
                        if resident:
                            src = band[c, :, :]
                        else:
                            src = band[0, :, :]
                            load(row, c, src)
                        T.tile.cast(xf, src, mode="CAST_NONE", count=chunk)
                        quantise_into(yq, xh, xf, scale, chunk)
                        T.copy(yq, Y[row : row + 1, c * chunk : c * chunk + chunk])

    return main


@tilelang.jit(out_idx=[1, 2], pass_configs=MIXED_MODE)
def act_quant_block(N=4096, block_M=16, group=128, out_dtype="int8", round_scale=True):
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
                for g in T.Pipelined(n_groups, num_stages=4):
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
