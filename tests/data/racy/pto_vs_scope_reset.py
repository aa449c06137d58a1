# upstream's AscendSyncInsertVS (target pto, on by default) forgets what it has
# seen when it enters a T.Scope and restores, when it leaves it, what it had
# seen before (its visit of the resource_scope attribute): the exp in the first
# T.Scope("V") and the dependent add in the second get no pipe_barrier(PIPE_V),
# nor do the add and the mul in the T.Scope of the loop after it, nor the muls
# of successive iterations (each entry starts afresh). Within one scope it
# orders them (ok_pto_vs_default.py); the copies have the kernel's own flags.
# expect: race RAW UB v@exp v@add
# expect: race RAW UB v@add v@mul
# expect: race RAW UB v@mul v@mul
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], target="pto")
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            b = T.alloc_ub((half, N), dtype)
            c = T.alloc_ub((half, N), dtype)
            row = vid * half
            with T.Scope("V"):
                T.copy(A[row, 0], a)
                T.set_flag("mte2", "v", 0)
                T.wait_flag("mte2", "v", 0)
                T.tile.exp(b, a)  # @exp
            with T.Scope("V"):
                T.tile.add(c, b, a)  # @add
            for i in T.serial(2):
                with T.Scope("V"):
                    T.tile.mul(c, c, a)  # @mul
            with T.Scope("V"):
                T.set_flag("v", "mte3", 0)
                T.wait_flag("v", "mte3", 0)
                T.copy(c, C[row, 0])

    return main
