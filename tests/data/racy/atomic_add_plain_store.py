# ok_atomic_add_blocks.py, but block 0 also writes its rows with a plain copy:
# an atomic accumulation and a plain store into the same bytes race.
# expect: race RAW GM mte3@plain mte3@atomic
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=128, blocks=4, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((blocks * M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(blocks, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            with T.Scope("V"):
                T.copy(A[cid * M + vid * half, 0], a)
                T.set_flag("mte2", "mte3", 0)
                T.wait_flag("mte2", "mte3", 0)
                if cid == 0:
                    T.copy(a, C[vid * half, 0])  # @plain
                else:
                    T.tile.atomic_add(C[vid * half, 0], a)  # @atomic

    return main
