# The vector ops the PTO target lowers through pto/emit_mask.c, each once:
# compare (two tiles, a tile and a scalar) into bit masks and select by them
# (two tiles, a tile and a scalar), createvecindex, bitwise_xor (tiles and a
# scalar), the shifts, silu, axpy, reinterpretcast (a view: oi is a's bytes
# after it), row reductions merging into their output (clear=False), and pow
# (PW = |A| ** B, PS = A ** 2). One block, one vector core.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def mask_ops(N=256):
    f32, i32 = "float32", "int32"

    @T.prim_func
    def main(
        A: T.Tensor([N], f32),
        B: T.Tensor([N], f32),
        K: T.Tensor([N], i32),
        A2: T.Tensor([8, 32], f32),
        MX: T.Tensor([N], f32),
        TH: T.Tensor([N], f32),
        IX: T.Tensor([N], i32),
        XO: T.Tensor([N], i32),
        SH: T.Tensor([N], i32),
        SI: T.Tensor([N], f32),
        AX: T.Tensor([N], f32),
        RB: T.Tensor([N], i32),
        XS: T.Tensor([N], i32),
        RS: T.Tensor([8], f32),
        RX: T.Tensor([8], f32),
        PW: T.Tensor([N], f32),
        PS: T.Tensor([N], f32),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub([N], f32)
            b = T.alloc_ub([N], f32)
            k = T.alloc_ub([N], i32)
            o = T.alloc_ub([N], f32)
            oi = T.alloc_ub([N], i32)
            m = T.alloc_ub([N // 8], "uint8")
            a2 = T.alloc_ub([8, 32], f32)
            acc = T.alloc_ub([8], f32)
            with T.Scope("V"):
                if vid == 0:
                    T.copy(A[0], a)
                    T.copy(B[0], b)
                    T.copy(K[0], k)
                    T.tile.compare(m, a, b, "GT")
                    T.tile.select(o, m, a, b, "VSEL_TENSOR_TENSOR_MODE")
                    T.copy(o, MX[0])
                    T.tile.compare(m, a, 0.25, "LE")
                    T.tile.select(o, m, a, -1.5, "VSEL_TENSOR_SCALAR_MODE")
                    T.copy(o, TH[0])
                    T.tile.createvecindex(oi, 7)
                    T.copy(oi, IX[0])
                    T.tile.bitwise_xor(oi, k, oi)
                    T.copy(oi, XO[0])
                    T.tile.bitwise_lshift(oi, k, 3)
                    T.tile.bitwise_rshift(oi, oi, 5)
                    T.copy(oi, SH[0])
                    T.tile.silu(o, a)
                    T.copy(o, SI[0])
                    T.copy(b, o)
                    T.tile.axpy(o, a, 0.75)
                    T.copy(o, AX[0])
                    T.tile.abs(o, a)
                    T.tile.pow(o, o, b)
                    T.copy(o, PW[0])
                    T.tile.pow(o, a, 2.0)
                    T.copy(o, PS[0])
                    # a view of a (upstream: no instruction); the xor below writes a's bytes
                    T.tile.reinterpretcast(oi, a, "int32_t")
                    T.copy(oi, RB[0])
                    T.tile.bitwise_xor(oi, k, 21845)
                    T.copy(oi, XS[0])
                    T.copy(A2[0, 0], a2)
                    T.tile.fill(acc, 1.5)
                    T.reduce_sum(a2, acc, dim=-1, clear=False)
                    T.copy(acc, RS[0])
                    T.tile.fill(acc, 0.25)
                    T.reduce_max(a2, acc, dim=-1, clear=False)
                    T.copy(acc, RX[0])

    return main
