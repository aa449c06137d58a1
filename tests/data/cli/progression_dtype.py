# T.tile.arith_progression's dtypes depend on the target: upstream's AscendC
# lowering has no uint16 / uint32 progression, its PTO lowering no float16.
import tilelang
import tilelang.language as T


def progression(dtype="float32", target="ascendc"):
    @tilelang.jit(out_idx=[-1], target=target)
    def kernel():
        @T.prim_func
        def main(Out: T.Tensor((64,), dtype)):
            with T.Kernel(1, is_npu=True) as (cid, _):
                seq = T.alloc_ub((64,), dtype)
                T.tile.arith_progression(seq, 3, 2, 64)
                T.copy(seq, Out)

        return main

    return kernel()
