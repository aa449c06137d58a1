# T.tile.pow's dtypes per target, as upstream compiles them (test_tile_pow.py):
# float16, float32 and int32 on ascendc (int32: integer powers), float16 and
# float32 on pto; int16 nowhere. ref=True computes the int32 power by repeated
# multiplication in a scalar loop (the reference).
import tilelang
import tilelang.language as T


def pow_dtype(dtype="int32", target="ascendc", ref=False, N=64):
    @tilelang.jit(out_idx=[-1], target=target)
    def kernel():
        @T.prim_func
        def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype), C: T.Tensor((N,), dtype)):
            with T.Kernel(1, is_npu=True) as (cid, vid):
                a = T.alloc_ub((N,), dtype)
                b = T.alloc_ub((N,), dtype)
                c = T.alloc_ub((N,), dtype)
                if vid == 0:
                    T.copy(A, a)
                    T.copy(B, b)
                    if ref:
                        for i in T.serial(N):
                            c[i] = 1
                            for k in T.serial(6):
                                if k < b[i]:
                                    c[i] = c[i] * a[i]
                    else:
                        T.tile.pow(c, a, b)
                    T.copy(c, C)

        return main

    return kernel()
