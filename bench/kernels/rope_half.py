# Rotary position embedding, "half" layout (GPT-NeoX / LLaMA), in place:
#     x[r, :] = x[r, :] * cos[s(r), :] + rot(x[r, :]) * sin[s(r), :] * sign
#   rot swaps the two halves of a row, sign is -1 on the first half and +1 on
#   the second; s(r) = (r // heads) % sc_rows (TND: one sin/cos row per token,
#   BSND: per sequence position). x [rows, width] float16 or bfloat16, sin and
#   cos [sc_rows, width]; computed in float32.
#
# tilec's own kernel for the calibration rows C1-C13 (bench/calibration.rows):
# the same work, blocking and instruction stream as tilelang-ascend's
# examples/pos_embedding/RotaryPositionEmbedding/rope_half_interleaved.py with
# layout "half" (whose published msprof times the rows quote; that file is not
# ours to commit). Each block takes chunks of block_rows rows, each of its two
# vector cores half of a chunk: one load of its rows, one load of the sin and
# cos rows they share (heads is a multiple of block_rows / 2), the sign applied
# to sin, both broadcast to the sub-chunk, the halves swapped row by row with
# two UB -> UB copies per row, two multiplies, an add, the cast back, one store.
# A sub-chunk past the last row stores (and loads) only its rows below `rows`.
#
# Mode: developer (automatic intra-core sync and memory planning).
import tilelang
import tilelang.language as T


@tilelang.jit(
    pass_configs={
        tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
        tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True,
    }
)
def rope_half(rows, block_rows, blocks, heads, sc_rows, width, dtype="float16"):
    sub = block_rows // 2
    half = width // 2
    chunks = (rows + block_rows - 1) // block_rows
    per_block = (chunks + blocks - 1) // blocks
    acc = "float32"

    @T.prim_func
    def main(
        x: T.Tensor([rows, width], dtype),
        sin: T.Tensor([sc_rows, width], dtype),
        cos: T.Tensor([sc_rows, width], dtype),
    ):
        with T.Kernel(blocks, is_npu=True) as (cid, vid):
            x_io = T.alloc_ub([sub, width], dtype)
            x_f = T.alloc_ub([sub, width], acc)
            swapped = T.alloc_ub([sub, width], acc)
            result = T.alloc_ub([sub, width], acc)
            sin_io = T.alloc_ub([1, width], dtype)
            cos_io = T.alloc_ub([1, width], dtype)
            sin_f = T.alloc_ub([1, width], acc)
            cos_f = T.alloc_ub([1, width], acc)
            sin_rows = T.alloc_ub([sub, width], acc)
            cos_rows = T.alloc_ub([sub, width], acc)
            sign = T.alloc_ub(width, acc)

            T.tile.fill(sign, -1.0)
            for j in T.serial(0, half):
                sign[half + j] = 1.0

            for step in T.serial(0, per_block):
                chunk = cid * per_block + step
                if chunk < chunks:
                    r0 = chunk * block_rows + vid * sub
                    sc = (r0 // heads) % sc_rows
                    if r0 + sub <= rows:
                        T.copy(x[r0 : r0 + sub, :], x_io)
                    else:
                        for i in T.serial(0, sub):
                            if r0 + i < rows:
                                T.copy(x[r0 + i, :], x_io[i, :])
                    T.tile.cast(x_f, x_io, "CAST_NONE", sub * width)
                    T.copy(sin[sc, :], sin_io[0, :])
                    T.tile.cast(sin_f, sin_io, "CAST_NONE", width)
                    T.copy(cos[sc, :], cos_io[0, :])
                    T.tile.cast(cos_f, cos_io, "CAST_NONE", width)
                    T.tile.mul(sin_f[0, :], sin_f[0, :], sign)
                    T.tile.broadcast(sin_rows, sin_f)
                    T.tile.broadcast(cos_rows, cos_f)
                    for i in T.serial(0, sub):
                        T.copy(x_f[i, half:], swapped[i, :half])
                        T.copy(x_f[i, :half], swapped[i, half:])
                    T.tile.mul(result, x_f, cos_rows)
                    T.tile.mul(swapped, swapped, sin_rows)
                    T.tile.add(result, result, swapped)
                    T.tile.cast(x_io, result, "CAST_RINT", sub * width)
                    if r0 + sub <= rows:
                        T.copy(x_io, x[r0 : r0 + sub, :])
                    else:
                        for i in T.serial(0, sub):
                            if r0 + i < rows:
                                T.copy(x_io[i, :], x[r0 + i, :])

    return main
