# cann-bench nms _iou_bitmap_kernel's pattern: compare packs a bit mask into a
# uint8 tile, barrier_all, the tile is viewed as uint16 (T.reinterpretcast: a
# C++ view upstream, no instruction) and the view is copied out. Ordered by the
# barrier; tilec ran the cast as a V-pipe copy after it, unordered with the MTE3
# copy (a false RAW).
# expect: nothing
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(N=256):
    @T.prim_func
    def main(X: T.Tensor((N,), "float32"), Bits: T.Tensor((N // 16,), "uint16")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            x = T.alloc_ub((N,), "float32")
            m = T.alloc_ub((N // 8,), "uint8")
            m16 = T.alloc_ub((N // 16,), "uint16")
            with T.Scope("V"):
                if vid == 0:
                    T.copy(X, x)
                    T.barrier_all()
                    T.tile.compare(m, x, 0.0, "LE")
                    T.barrier_all()
                    T.reinterpretcast(m16, m, "uint16_t")
                    T.copy(m16, Bits)

    return main
