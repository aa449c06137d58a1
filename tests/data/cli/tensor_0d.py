# A 0-d GM tensor (T.Tensor((), dtype)): one element, a whole-buffer T.copy
# operand into a one-element UB buffer. bad=True copies a two-element tensor
# into it instead, which is an error.
import tilelang.language as T


def tensor_0d(bad=False):
    @T.prim_func
    def main(
        S: T.Tensor((2,) if bad else (), "float32"),
        Out: T.Tensor((4, 8), "float32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, _):
            s = T.alloc_ub((1,), "float32")
            o = T.alloc_ub((4, 8), "float32")
            T.copy(S, s)
            T.tile.fill(o, 1.5)
            o[2, 3] = s[0] * 2
            T.copy(o, Out)

    return main
