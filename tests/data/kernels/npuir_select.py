# npuir's T.vcmp and T.vselect (@tilelang.jit(target="npuir")): a bool tensor
# per element (not Ascend C's bit mask), element by element:
#   C = A > B (bool), M = C ? A : B (= max(A, B)), L = (A <= 0) ? A : -1.5
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3, 4], target="npuir")
def npuir_select(N=32):
    @T.prim_func
    def main(
        A: T.Tensor((N,), "float32"),
        B: T.Tensor((N,), "float32"),
        C: T.Tensor((N,), "bool"),
        M: T.Tensor((N,), "float32"),
        L: T.Tensor((N,), "float32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, _):
            a = T.alloc_shared((N,), "float32")
            b = T.alloc_shared((N,), "float32")
            m = T.alloc_shared((N,), "float32")
            c = T.alloc_shared((N,), "bool")
            T.copy(A, a)
            T.copy(B, b)
            T.vcmp(a, b, c, "gt")
            T.copy(c, C)
            T.vselect(c, a, b, m)
            T.copy(m, M)
            T.vcmp(a, 0.0, c, "le")
            T.vselect(c, a, -1.5, m)
            T.copy(m, L)

    return main
