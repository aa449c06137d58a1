# Lists nested 600,000 deep are compared and printed (deeper than the nesting
# limit: compared as unequal, printed as [...] past it) without a crash; the
# error after them shows the evaluation went on.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def nested(N=16):
    l = []
    m = []
    for _ in range(600000):
        l = [l]
        m = [m]
    same = l == m
    text = str(l)
    raise ValueError("went on: " + str(same) + " " + str(len(text)))

    @T.prim_func
    def main(A: T.Tensor([N], "float32"), B: T.Tensor([N], "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub([N], "float32")
            T.copy(A, a)
            T.copy(a, B)

    return main
