# range() in a plain Python helper is Python's range: a run-time bound is an error there
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(N=128, dtype="float32"):
    def clear_rows(buf, n):
        for i in range(n):
            T.tile.fill(buf[i * 16 : i * 16 + 16], 0.0)

    @T.prim_func
    def main(A: T.Tensor((N,), dtype), lens: T.Tensor((2,), "int32"), B: T.Tensor((N,), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((N,), dtype)
            with T.Scope("V"):
                T.copy(A[0], a)
                clear_rows(a, lens[vid])
                T.copy(a, B[0])

    return main
