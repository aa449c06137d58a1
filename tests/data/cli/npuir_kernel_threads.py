# npuir's T.Kernel(n, threads=t) without is_npu (mhc_post): TVM's GPU launch
# frame, whose threadIdx npuir's code generators never bind, so each of the n
# blocks runs its body once with `as i` the block index: the same values as the
# NPU spelling T.Kernel(n, is_npu=True) as (i, _) (ref=True).
import tilelang
import tilelang.language as T


@tilelang.jit(target="npuir")
def npuir_kernel_threads(n=3, h=64, threads=128, ref=False):
    def body(i, A, O):
        a = T.alloc_shared((h,), "float32")
        T.copy(A[i, 0], a)
        for j in T.Parallel(h):
            a[j] = a[j] * 2.0 + i
        T.copy(a, O[i, 0])

    @T.prim_func
    def main(A: T.Tensor((n, h), "float32"), O: T.Tensor((n, h), "float32")):
        if ref:
            with T.Kernel(n, is_npu=True) as (i, _):
                body(i, A, O)
        else:
            with T.Kernel(n, threads=threads) as i:
                body(i, A, O)

    return main
