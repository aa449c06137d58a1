# A float32 matmul whose K streams through two L1 slots in chunks of `chunk`
# rows, each chunk fed to the cube in K tiles of `step` rows. A step of 24
# float32 rows starts inside a 16-row group but at a whole float32 K fractal
# (8 rows: asc-devkit Mmad, a float matrix's K is aligned to ceil(K / 8) * 8
# in L0A / L0B). K's last chunk is short: its copy into a slot picked at run
# time does not fill the slot, and upstream's copy_gm_to_l1 clears the slot
# first because the copy starts at a whole tile of the L1 buffer (need_clear
# at an offset that is a multiple of the tile's elements), so the K tiles past
# K add zeros, not the rows of the chunk the slot held before. C = A @ B.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def l1_ring_tail(M=16, N=16, K=120, chunk=48, step=24):
    nchunk = (K + chunk - 1) // chunk
    nstep = chunk // step

    @T.prim_func
    def main(
        A: T.Tensor([M, K], "float32"),
        B: T.Tensor([K, N], "float32"),
        C: T.Tensor([M, N], "float32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a1 = T.alloc_L1([2, M, chunk], "float32")
            b1 = T.alloc_L1([2, chunk, N], "float32")
            a0 = T.alloc_L0A([M, step], "float32")
            b0 = T.alloc_L0B([step, N], "float32")
            c0 = T.alloc_L0C([M, N], "float32")
            with T.Scope("C"):
                for k in T.serial(nchunk):
                    T.copy(A[0:M, k * chunk : (k + 1) * chunk], a1[k % 2, :, :])
                    T.copy(B[k * chunk : (k + 1) * chunk, 0:N], b1[k % 2, :, :])
                    for s in T.serial(nstep):
                        T.copy(a1[k % 2, :, s * step : (s + 1) * step], a0)
                        T.copy(b1[k % 2, s * step : (s + 1) * step, :], b0)
                        T.mma(a0, b0, c0, init=T.And(k == 0, s == 0))
                T.copy(c0, C)

    return main
