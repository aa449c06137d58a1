# Both vector cores store the same values with scalar stores into the same
# elements of C (upstream's elementwise/example_arith_progression.py ignores
# the vector id so): the bytes are identical, a benign race (a warning), as for
# copies. Into D they store their own ids: the bytes differ, a race.
# expect: benign WAW GM s@same s@same
# expect: race WAW GM s@differ s@differ
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-2, -1])
def kernel(N=16, dtype="int32"):
    @T.prim_func
    def main(C: T.Tensor((N,), dtype), D: T.Tensor((N,), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            with T.Scope("V"):
                for i in range(N):
                    C[i] = i * 3  # @same
                for i in range(N):
                    D[i] = vid + i  # @differ

    return main
