# A vector op whose scalar operand is a buffer element (T.tile.mul(b, a, s[0])):
# tilelang-ascend's Ascend C code generator reads the element with GetValue
# after PipeBarrier<PIPE_ALL> (codegen_ascend.cc, AddsAndMulsOpCodegen), which
# also completes the loads of `a` and `s` before the mul: no flag is needed.
# expect: nothing
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), S: T.Tensor((8,), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            b = T.alloc_ub((half, N), dtype)
            s = T.alloc_ub((8,), dtype)
            with T.Scope("V"):
                row = vid * half
                T.copy(A[row, 0], a)
                T.copy(S[0], s)
                T.tile.mul(b, a, s[0])
                T.set_flag("v", "mte3", 0)
                T.wait_flag("v", "mte3", 0)
                T.copy(b, C[row, 0])

    return main
