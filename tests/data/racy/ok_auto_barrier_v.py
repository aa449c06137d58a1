# missing_barrier_v.py for the Ascend C target (the default): tilelang-ascend
# compiles the kernel with `bisheng -xasc` and a <<<>>> launch, for which the
# compiler's automatic sync is on by default; it puts PipeBarrier<PIPE_V>
# between dependent vector instructions, so the add does read what the exp
# wrote. The chain exp -> add -> mul (in place) -> store needs only the
# kernel's MTE2 -> V and V -> MTE3 flags.
# expect: nothing
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            b = T.alloc_ub((half, N), dtype)
            c = T.alloc_ub((half, N), dtype)
            with T.Scope("V"):
                row = vid * half
                T.copy(A[row, 0], a)
                T.set_flag("mte2", "v", 0)
                T.wait_flag("mte2", "v", 0)
                T.tile.exp(b, a)
                T.tile.add(c, b, a)
                T.tile.mul(c, c, 2.0)
                T.set_flag("v", "mte3", 0)
                T.wait_flag("v", "mte3", 0)
                T.copy(c, C[row, 0])

    return main
