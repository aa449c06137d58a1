# T.tile.createvecindex's dtypes per target, as upstream compiles them
# (tile_createvecindex_dtype_coverage): float16 on ascendc only, uint16 / uint32
# on pto only, int8 nowhere; the values are first_value, first_value + 1, ...
# (ref=True: T.tile.arith_progression(c, first, 1, N), the reference)
import tilelang
import tilelang.language as T


def vecindex(dtype="float32", target="ascendc", first=10, N=128, ref=False):
    @tilelang.jit(out_idx=[-1], target=target)
    def kernel():
        @T.prim_func
        def main(C: T.Tensor((N,), dtype)):
            with T.Kernel(1, is_npu=True) as (cid, _):
                c = T.alloc_ub((N,), dtype)
                if ref:
                    T.tile.arith_progression(c, first, 1, N)
                else:
                    T.tile.createvecindex(c, first)
                T.copy(c, C[0])

        return main

    return kernel()
