# A vector op's count may run past its operands' buffers (issue 19): the device
# has no bound per buffer, so the op runs on into the UB bytes after them, as
# upstream's elementwise tests do (count 4096 on 256-element tiles, a row
# slice with the whole block's count). What lands in the output tiles is
# computed from the right inputs with the buffers in declaration order.
import tilelang
import tilelang.language as T

CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
       tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True}


# each vector core's half tile, count 4096 on 8 x 16 elements: 16 KB of UB
# from a float32 operand; rows=1: each row from its start with that count;
# an int32 source is dequantised (scale 0.5) to float16: reads 16 KB, writes 8 KB
@tilelang.jit(out_idx=[1], pass_configs=CFG)
def cast_past(M=64, N=64, tile=16, count=4096, rows=0, src="float32", dst="float32"):
    @T.prim_func
    def main(A: T.Tensor((M, N), src), B: T.Tensor((M, N), dst)):
        with T.Kernel((M // tile) * (N // tile), is_npu=True) as (cid, vid):
            r = cid // (N // tile) * tile + vid * (tile // 2)
            c = cid % (N // tile) * tile
            a = T.alloc_ub((tile // 2, tile), src)
            b = T.alloc_ub((tile // 2, tile), dst)
            T.copy(A[r, c], a)
            if src == "int32":
                T.set_deq_scale(0.5)
            if rows == 1:
                for i in range(tile // 2):
                    T.tile.cast(b[i, :], a[i, :], "CAST_RINT", count)
            else:
                T.tile.cast(b, a, "CAST_RINT", count)
            T.copy(b, B[r, c])

    return main


# per row of each vector core's half, clamp with the half's count: row i runs
# i rows past both buffers
@tilelang.jit(out_idx=[1], pass_configs=CFG)
def clamp_rows(M=256, N=128, bm=64, bn=64, dtype="float16"):
    half = bm // 2

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype)):
        with T.Kernel((M // bm) * (N // bn), is_npu=True) as (cid, vid):
            r = cid // (N // bn) * bm + vid * half
            c = cid % (N // bn) * bn
            x = T.alloc_ub((half, bn), dtype)
            y = T.alloc_ub((half, bn), dtype)
            T.copy(X[r, c], x)
            for i in range(half):
                T.tile.clamp(y[i, :], x[i, :], -1.5, 2.0, half * bn)
            T.copy(y, Y[r, c])

    return main
