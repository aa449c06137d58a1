# A plain Python helper called from the kernel runs as Python (issue 19): its
# `for d in range(n)` loop unrolls at trace time and `acc = acc + ...` rebinds a
# Python name, also when `acc` starts as a T.alloc_var passed in (upstream passes
# the variable's value, a BufferLoad). Before, tilec stored each rebinding into
# the variable v itself. B[i] is A[i] + v * (1 + 0 + 1 + 2) = A[i] + 4 * 3 with
# v still 3 at the end (B[N-1] = v).
import tilelang
import tilelang.language as T


def weighted(x, n):
    acc = x
    for d in range(n):
        acc = acc + x * d
    return acc


@tilelang.jit(out_idx=[1])
def helper_rebind(N=16):
    @T.prim_func
    def main(A: T.Tensor((N,), "int32"), B: T.Tensor((N,), "int32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            v = T.alloc_var("int32", init=3)
            ub = T.alloc_ub((N,), "int32")
            with T.Scope("V"):
                T.copy(A, ub)
                T.barrier_all()
                for i in T.serial(N - 1):
                    ub[i] = ub[i] + weighted(v, 3)
                ub[N - 1] = v
                T.barrier_all()
                T.copy(ub, B)

    return main
