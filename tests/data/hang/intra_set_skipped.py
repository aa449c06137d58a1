# Only vector core 0 sets the flag (the condition skips the set on core 1);
# both wait for it, and core 1's mte3 pipe would wait forever. Intra-core
# flags belong to one core: core 0's set does not release core 1's wait.
# expect: @wait would wait forever
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            with T.Scope("V"):
                T.copy(A[vid * half, 0], a)
                if vid == 0:
                    T.set_flag("mte2", "mte3", 1)
                T.wait_flag("mte2", "mte3", 1)  # @wait
                T.copy(a, C[vid * half, 0])

    return main
