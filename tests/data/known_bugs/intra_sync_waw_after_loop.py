# Known bug (found by make fuzz, passes target, 2026-12-02; not run by the suite).
# After the NPU pipeline the simulator reports a WAW race on UB between the
# workspace read-back of the L0C->UB hand-off in the first serial loop (MTE2)
# and the later T.copy(X[row, 0], t3) (MTE2): intra_sync leaves out the
# pipe_barrier(mte2) between them when another loop sits in between.
# Reproduce: build/tilec sim tests/data/known_bugs/intra_sync_waw_after_loop.py
import tilelang
import tilelang.language as T

@tilelang.jit(out_idx=[2], pass_configs={
    tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True,
    tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_SYNC: True,
    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
    tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True})
def gen(M=16, N=64, blocks=2):
    @T.prim_func
    def main(X: T.Tensor((2 * M * blocks, N), "float32"), W: T.Tensor((N, N), "float32"),
             Y: T.Tensor((2 * M * blocks, N), "float32")):
        with T.Kernel(blocks, is_npu=True) as (cid, vid):
            row = (cid * 2 + vid) * M
            t0 = T.alloc_shared((M, N), "float32")
            t1 = T.alloc_shared((M, N), "float32")
            t2 = T.alloc_shared((M, N), "float32")
            t3 = T.alloc_shared((M, N), "float32")
            s = T.alloc_shared((M,), "float32")
            a_l1 = T.alloc_shared((M, N), "float32")
            b_l1 = T.alloc_shared((N, N), "float32")
            c_l0 = T.alloc_fragment((M, N), "float32")
            T.copy(X[row, 0], t0)
            T.tile.fill(t0, 1.25)
            T.tile.exp(t3, t0)
            T.tile.min(t3, t3, 4.0)
            t3[0, 3] = t3[0, 0] + 1.0
            T.copy(X[cid * 2 * M, 0], a_l1)
            T.copy(W, b_l1)
            T.gemm_v0(a_l1, b_l1, c_l0, init=True)
            T.copy(c_l0, t2)
            for it in T.serial(2):
                T.copy(X[cid * 2 * M, 0], a_l1)
                T.copy(W, b_l1)
                T.gemm_v0(a_l1, b_l1, c_l0, init=True)
                T.copy(c_l0, t3)
            for it in T.serial(1):
                T.tile.sub(t2, t0, 1.5)
                T.copy(X[row, 0], t2)
                T.tile.sub(t2, t2, t2)
            T.copy(X[row, 0], t3)
            T.copy(X[row, 0], t0)
            T.tile.add(t0, t0, t2)
            T.tile.add(t0, t0, t3)
            T.copy(t0, Y[row, 0])
    return main
