# Every block's vector cores add their rows into the same C rows with
# T.tile.atomic_add: the destination accumulates what arrives (SetAtomicAdd),
# so the order of the blocks is free and nothing races, as upstream's split-K
# GEMM relies on. (atomic_add_plain_store.py: a plain store into those bytes does.)
# expect: nothing
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=128, blocks=4, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((blocks * M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(blocks, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            with T.Scope("V"):
                T.copy(A[cid * M + vid * half, 0], a)
                T.set_flag("mte2", "mte3", 0)
                T.wait_flag("mte2", "mte3", 0)
                T.tile.atomic_add(C[vid * half, 0], a)

    return main
