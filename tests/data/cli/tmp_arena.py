# The ops whose upstream API takes a keyword-only scratch arena (tmp=: a UB
# buffer or region used as the op's workspace) accept it; tilec's ops need no
# scratch, so the results are those without it. arena=False leaves it out
# (the reference); bad=True passes a number instead of a buffer.
import tilelang.language as T


def tmp_arena(arena=True, bad=False):
    @T.prim_func
    def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32"), R: T.Tensor((8,), "float32")):
        with T.Kernel(1, is_npu=True) as (_, vid):
            a = T.alloc_ub((64,), "float32")
            b = T.alloc_ub((64,), "float32")
            m = T.alloc_ub((8, 8), "float32")
            r = T.alloc_ub((8,), "float32")
            t = T.alloc_ub((2048,), "uint8")
            kw = {"tmp": 3 if bad else t[0:1024]} if arena else {}
            if vid == 0:
                T.copy(A, a)
                T.tile.sigmoid(b, a, **kw)
                T.tile.sin(b, b, **kw)
                T.tile.pow(b, b, a, **kw)
                T.tile.clamp(b, b, -0.5, 0.5, 64, **kw)
                T.tile.round(b, b, 64, **kw)
                T.tile.broadcast(m, a[0:8], **kw)
                T.reduce_sum(m, r, dim=-1, **kw)
                T.copy(b, B)
                T.copy(r, R)

    return main
