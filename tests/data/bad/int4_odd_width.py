# upstream's test_int4_odd_width_rejected: an int4 row of 17 elements has no
# byte-aligned layout (two elements share a byte)
import tilelang
import tilelang.language as T


@T.prim_func
def odd_width_kernel(A: T.Tensor((4, 17), "int4"), B: T.Tensor((4, 17), "int4")):
    with T.Kernel(1, is_npu=True):
        a_ub = T.alloc_ub((4, 17), "int4")
        with T.Scope("V"):
            T.copy(A[0, 0], a_ub)
            T.copy(a_ub, B[0, 0])
