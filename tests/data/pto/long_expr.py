# A copy whose GM start is an expression of some 2,000 characters of C++: the
# emitted text must hold all of it (it was cut at 1,024 characters, leaving
# unbalanced parentheses, on upstream's sparse_flash_mla csa).
import tilelang
import tilelang.language as T


def grow(x, k, n):
    return x if k == 0 else grow((x * 3 + k) % n, k - 1, n)


@tilelang.jit(out_idx=[1])
def long_expr(N=4096, terms=60):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((64,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((64,), "float32")
            with T.Scope("V"):
                start = grow(cid + vid, terms, N - 64)
                T.copy(A[start:start + 64], a)
                T.copy(a, B[0:64])

    return main
