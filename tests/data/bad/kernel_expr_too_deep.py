# A plain helper that a kernel calls builds its expression in a compile-time
# loop: 5,000 levels is past the nesting limit (docs/language.md, "Limits"),
# a located error where the level past it is added, not a crash in a later
# walk of the expression.
import tilelang
import tilelang.language as T


def smooth(x, n):
    for _ in range(n):
        x = x * 0.5 + 1.0
    return x


@tilelang.jit(out_idx=[-1])
def deep(M=16, N=64):
    @T.prim_func
    def main(A: T.Tensor([M, N], "float32"), B: T.Tensor([M, N], "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub([M, N], "float32")
            with T.Scope("V"):
                T.copy(A, a)
                for i, j in T.Parallel(M, N):
                    a[i, j] = smooth(a[i, j], 5000)
                T.copy(a, B)

    return main
