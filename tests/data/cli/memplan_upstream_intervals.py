# Two 100 KiB UB buffers used one after the other in each iteration of a loop:
# together they are over the 192 KiB of UB. 'c' is written in two halves, which
# tilec's must-write analysis does not combine, so it counts c as possibly read
# before written in an iteration and keeps it live over the whole loop; upstream's
# planner (first to last access) lets 'a' and 'c' share bytes, and so does tilec
# when nothing else fits, with a warning naming c and a.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-2, -1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True,
                                               tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def loop(M=4, N=25600):
    @T.prim_func
    def main(A: T.Tensor([M, N], "float32"), B: T.Tensor([M, N], "float32"),
             C: T.Tensor([M, N], "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub([N], "float32")
            c = T.alloc_ub([N], "float32")
            with T.Scope("V"):
                for i in T.serial(M):
                    T.copy(A[i, :], a)
                    T.tile.add(a, a, 1.0)
                    T.copy(a, B[i, :])
                    T.tile.fill(c[0:N // 2], 2.0)
                    T.tile.fill(c[N // 2:N], 3.0)
                    T.copy(c, C[i, :])

    return main
