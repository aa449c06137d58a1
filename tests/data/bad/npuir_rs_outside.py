# npuir's T.sync_block_set belongs to the pipe of an enclosing `with T.rs(...)`
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], target="npuir")
def kernel(N=64):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, subid):
            with T.Scope("Vector"):
                a = T.alloc_ub((N,), "float32")
                T.copy(A, a)
                T.sync_block_set(0)
                T.copy(a, B)

    return main
