# Upstream's npuir dialect (@tilelang.jit(target="npuir"), its AscendNPU-IR back
# end): the element-wise family with the destination LAST, T.vclamp, T.vexp2 /
# T.vlog2 (through a scratch buffer), T.vbrc (a row and an element), T.fill /
# T.clear (also of a region), T.vcast; no synchronisation in the file (npuir's
# compiler places it: tilec's automatic sync). Element by element:
#   O rows: 0 A + B, 1 A - 2, 2 A * B, 3 A / B, 4 max(A, B), 5 min(A, 0.5),
#   6 |A|, 7 relu(A), 8 sqrt(|A|), 9 1 / B, 10 clamp(A, -3, 5) (max, then min),
#   11 exp(A / 8 * ln 2), 12 ln(B) * (1 / ln 2), 13 exp(A / 8), 14 ln(B),
#   15 1 / sqrt(B), 16 sigmoid(A / 8), 17 tanh(A / 8), 18 erf(A / 8)
#   R: row A broadcast over M rows; F: 1.5 in rows 0..1, 0 in rows 2..M-1;
#   G: A[2] everywhere; H: float16(A / 4) (rint)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3, 4, 5, 6], target="npuir")
def npuir_ops(N=32, M=4):
    @T.prim_func
    def main(
        A: T.Tensor((N,), "float32"),
        B: T.Tensor((N,), "float32"),
        O: T.Tensor((19, N), "float32"),
        R: T.Tensor((M, N), "float32"),
        F: T.Tensor((M, N), "float32"),
        G: T.Tensor((M, N), "float32"),
        H: T.Tensor((N,), "float16"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, _):
            a = T.alloc_shared((N,), "float32")
            b = T.alloc_shared((N,), "float32")
            t = T.alloc_shared((N,), "float32")
            c = T.alloc_shared((N,), "float32")
            tmp = T.alloc_shared((N,), "float32")
            o = T.alloc_shared((19, N), "float32")
            row = T.alloc_shared((1, N), "float32")
            m = T.alloc_shared((M, N), "float32")
            h = T.alloc_shared((N,), "float16")
            T.copy(A, a)
            T.copy(B, b)
            T.vadd(a, b, o[0, :])
            T.vsub(a, 2.0, o[1, :])
            T.vmul(a, b, o[2, :])
            T.vdiv(a, b, o[3, :])
            T.vmax(a, b, o[4, :])
            T.vmin(a, 0.5, o[5, :])
            T.vabs(a, o[6, :])
            T.vrelu(a, o[7, :])
            T.vabs(a, t)
            T.vsqrt(t, o[8, :])
            T.vrec(b, o[9, :])
            T.vclamp(a, c, -3.0, 5.0)
            T.copy(c, o[10, :])
            T.vmul(a, 0.125, t)
            T.vexp2(t, o[11, :], tmp)
            T.vlog2(b, o[12, :], tmp)
            T.vexp(t, o[13, :])
            T.vln(b, o[14, :])
            T.vrsqrt(b, o[15, :])
            T.vsigmoid(t, o[16, :])
            T.vtanh(t, o[17, :])
            T.verf(t, o[18, :])
            T.copy(o, O)
            T.copy(A, row)
            T.vbrc(row, m)
            T.copy(m, R)
            T.fill(m, 1.5)
            T.clear(m[2:M, :])
            T.copy(m, F)
            T.vbrc(a[2], m)
            T.copy(m, G)
            T.vmul(a, 0.25, t)
            T.vcast(t, h, round_mode="rint")
            T.copy(h, H)

    return main
