# A 1-D UB allocation of size 0 is an empty scratch arena: upstream
# elides it, so as tmp= it is as if no tmp were given (the ops that take one
# still compute). Anything else that uses it as a buffer is a located error;
# on-chip buffers of other scopes still need positive dimensions.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def empty_arena(n=64, misuse=False, scope="ub"):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            with T.Scope("V"):
                a = T.alloc_ub((n,), "float32")
                b = T.alloc_ub((n,), "float32")
                if scope == "ub":
                    none_ub = T.alloc_ub((0,), "uint8")
                else:
                    none_ub = T.alloc_L1((0, 16), "float16")
                if vid == 0:
                    T.copy(A, a)
                    T.tile.sigmoid(b, a, tmp=none_ub)
                    T.tile.clamp(b, b, 0.25, 0.75, n, tmp=none_ub)
                    if misuse:
                        T.copy(a, none_ub)
                    T.copy(b, B)

    return main
