# A name bound before a kernel loop or branch and assigned inside it is, after
# the body, its value from before (TileLang's parser gives the body's names a
# frame of their own): tilec warns where that stale value is read. B[t] is
# A[t]; the running sum `acc` stays in the loop, `total` (a T.alloc_var) does
# not. The inner `t` of T.Parallel shadows the outer loop variable without a
# warning (a loop's own variable).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def loop_rebind(N=8):
    @T.prim_func
    def main(A: T.Tensor((4 * N,), "float32"), B: T.Tensor((4 * N,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            total = T.alloc_var("float32", init=0.0)
            for t in T.serial(N):
                acc = A[t]
                for d in range(3):
                    acc = acc + A[t + d + 1]
                    total = total + A[t + d + 1]
                B[t] = acc
                for t in T.Parallel(2):
                    B[N + t] = A[t]
                B[2 * N + t] = total

    return main
