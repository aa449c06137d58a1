# T.reinterpretcast(v, a, ...) is a view: upstream declares `LocalTensor<T> v =
# a.ReinterpretCast<T>()` in the enclosing C++ block, so inside the loop body v
# names a's bytes, and after the loop v is its own buffer again. big=True: the
# view would be larger than its source; cast="int32": the view's type would not
# be v's dtype (both errors).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def kernel(N=64, big=False, cast="float"):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), C: T.Tensor((N,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((N,), "float32")
            v = T.alloc_ub((N * 2 if big else N,), "float32")
            with T.Scope("V"):
                if vid == 0:
                    T.copy(A[0:N], v[0:N])
                    for r in T.serial(2):
                        T.reinterpretcast(v, a, cast)
                        T.copy(A, v)
                    T.copy(v[0:N], C)

    return main
