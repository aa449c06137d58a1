# A T.Pipelined loop of cube and vector statements (upstream's CrossCorePipeline)
# whose two vector runs share x, and the first reads x before writing it: upstream
# keeps num_stages versions of x (4 x 32 KB), so with memory planning off its UB
# buffers take 212992 B, past the 196352 B it plans in. tilec's own plan of the
# same buffers fits (tests/data/cli/upstream_ring_buffers.cli).
# inplace: a vector-only loop (upstream's PipelinePlanning and
# InjectSoftwarePipeline) loading from the tensor it writes back: upstream keeps
# num_stages versions of a_ub (stage 0, read in the last stage); tilec does not
# multi-buffer a load from a tensor the kernel writes.
import tilelang
import tilelang.language as T

CFG = {
    tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True,
    tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_SYNC: True,
    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
}


@tilelang.jit(out_idx=[2, 3], pass_configs=CFG)
def ring(nk=4, S=4):
    @T.prim_func
    def main(Q: T.Tensor((128, 128), "float16"), K: T.Tensor((nk * 32, 128), "float16"),
             O: T.Tensor((128, 32), "float32"), P: T.Tensor((128, 128), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            q_l1 = T.alloc_L1((128, 128), "float16")
            k_l1 = T.alloc_L1((32, 128), "float16")
            s_l0c = T.alloc_L0C((128, 32), "float32")
            t_l0c = T.alloc_L0C((128, 32), "float32")
            s_ub = T.alloc_ub((64, 32), "float32")
            acc = T.alloc_ub((64, 32), "float32")
            x = T.alloc_ub((64, 128), "float32")
            y = T.alloc_ub((64, 128), "float32")
            z = T.alloc_ub((64, 128), "float32")
            T.copy(Q, q_l1)
            T.tile.fill(acc, 0.0)
            T.tile.fill(y, 0.0)
            T.tile.fill(z, 1.0)
            for kb in T.Pipelined(nk, num_stages=S):
                T.copy(K[kb * 32, 0], k_l1)
                T.gemm_v0(q_l1, k_l1, s_l0c, transpose_B=True, init=True)
                T.copy(s_l0c[vid * 64, 0], s_ub)
                T.tile.add(acc, acc, s_ub)
                T.tile.mul(x, x, 0.5)
                T.gemm_v0(q_l1, k_l1, t_l0c, transpose_B=True, init=True)
                T.copy(t_l0c[vid * 64, 0], s_ub)
                T.tile.add(acc, acc, s_ub)
                T.tile.add(y, y, x)
            T.tile.add(y, y, z)
            T.copy(acc, O[vid * 64, 0])
            T.copy(y, P[vid * 64, 0])

    return main


@tilelang.jit(out_idx=[], pass_configs=CFG)
def inplace(n=4, S=4):
    @T.prim_func
    def main(A: T.Tensor((n * 64, 512), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_ub = T.alloc_ub((32, 512), "float32")
            for i in T.Pipelined(n, num_stages=S):
                T.copy(A[i * 64 + vid * 32, 0], a_ub)
                T.tile.mul(a_ub, a_ub, 2.0)
                T.copy(a_ub, A[i * 64 + vid * 32, 0])

    return main
