# npuir's implicit broadcast in binary ops (upstream's vec_add_auto_brc: a
# (1, N) operand repeats over the rows; a second operand of (M, 1) over the
# columns), in float32:
#   C = B[1, :] / ((A + B[0, :]) - B[:, 3])
# (the subtraction by its long name, T.npuir_sub, which T.vsub aliases upstream)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], target="npuir")
def npuir_broadcast(M=8, N=64):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, _):
            a = T.alloc_shared((M, N), "float32")
            b = T.alloc_shared((M, N), "float32")
            c = T.alloc_shared((M, N), "float32")
            T.copy(A, a)
            T.copy(B, b)
            T.vadd(a[:, :], b[0, :], c[:, :])
            T.npuir_sub(c[:, :], b[:, 3:4], c[:, :])
            T.vdiv(b[1:2, :], c[:, :], c[:, :])
            T.copy(c, C)

    return main
