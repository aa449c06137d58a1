# A binary T.tile op whose src1 is a whole buffer longer than dst: its first
# dst-size elements take part (upstream's binary ops check dst against src0 and
# against a src1 region, not a whole src1 buffer). shape: src1's shape;
# region=True passes the prefix as an explicit region instead (the reference).
import tilelang.language as T


def src1_longer(shape=(2, 64), region=False, op="add"):
    fn = T.tile.add if op == "add" else T.tile.max

    @T.prim_func
    def main(
        A: T.Tensor((64,), "float32"),
        B: T.Tensor(shape, "float32"),
        C: T.Tensor((64,), "float32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, _):
            a = T.alloc_ub((64,), "float32")
            b = T.alloc_ub(shape, "float32")
            c = T.alloc_ub((64,), "float32")
            T.copy(A, a)
            T.copy(B, b)
            if region:
                fn(c, a, b[0, 0:64])
            else:
                fn(c, a, b)
            T.copy(c, C)

    return main
