# T.call_extern names a device C++ function tilec has no model of
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(N=128, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((N,), dtype)
            with T.Scope("V"):
                T.copy(A[0], a)
                T.call_extern("handle", "AscendC::Exp<float, false>", a.access_ptr("w"), a.access_ptr("r"), N)
                T.copy(a, B[0])

    return main
