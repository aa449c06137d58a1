# A string that doubles sixty times (2^61 bytes) would take terabytes: the
# compile-time evaluation's memory limit (docs/language.md, "Limits") stops it
# with a located error within a second.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def doubling(N=16):
    s = "ab"
    for _ in range(60):
        s = s + s

    @T.prim_func
    def main(A: T.Tensor([N], "float32"), B: T.Tensor([N], "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub([N], "float32")
            T.copy(A, a)
            T.copy(a, B)

    return main
