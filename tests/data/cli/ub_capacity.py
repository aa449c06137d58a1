# An on-chip buffer of M * N float32: 512 KiB by default, over the 192 KiB of
# UB (tilec sim, --target pto); -a N=4194304 -a M=8 is 128 MiB, over the
# 64 MiB per scratchpad of the reference run and the CPU target.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def big(M=16, N=8192):
    @T.prim_func
    def main(A: T.Tensor([M, N], "float32"), B: T.Tensor([M, N], "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub([M, N], "float32")
            with T.Scope("V"):
                T.copy(A, a)
                T.tile.add(a, a, 1.0)
                T.copy(a, B)

    return main
