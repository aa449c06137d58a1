# A developer-mode kernel whose vector code orders its own pipes with manual
# intra-core flags (issue 19; the shape of upstream's cann-bench
# sparse_flash_attention dense and v3 kernels): per row tile the cube reads B
# from a workspace that the vector cores fill (negated) further down the same
# loop body, past their set_flag / wait_flag pairs, and writes the product to a
# workspace the vector cores read back, negate and store. Upstream pairs each
# workspace read with the other core's write of the same iteration
# (AutoInsertCrossCoreSync); a vector core's flags order the vector core only,
# so the cube's statements move across them. With dual=True the two cores'
# code are sibling loops (fused). fence="barrier_all" puts a T.barrier_all() in
# place of the first flag pair: upstream's CombineCV keeps it in the program of
# the statement before it (the vector cores'), so it too orders only those.
# fence="sync_all" (T.sync_all(), a barrier of every core) leaves no order in
# which the read follows the write: `tilec run` then warns that it runs the body
# in program order (tests/data/cli/dev_flags_cycle.cli). C = A @ B.
import tilelang
import tilelang.language as T


@tilelang.jit(
    out_idx=[2],
    workspace_idx=[3, 4],
    pass_configs={
        tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True,
        tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_SYNC: True,
        tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True,
    },
)
def dev_flags(M=64, N=32, K=64, block_M=32, dual=False, fence="flag"):
    tiles = M // block_M
    h = block_M // 2
    kh = K // 2

    @T.macro
    def cube(A, ws_b, ws_s, a_l1, b_l1, acc):
        T.copy(ws_b, b_l1)
        T.gemm_v0(a_l1, b_l1, acc, init=True)
        T.copy(acc, ws_s)

    @T.macro
    def vector(B, C, ws_b, ws_s, b_ub, s_ub, t, vid):
        T.copy(B[vid * kh : vid * kh + kh, :], b_ub)
        if fence == "barrier_all":
            T.barrier_all()
        elif fence == "sync_all":
            T.sync_all()
        else:
            T.set_flag("mte2", "v", 0)
            T.wait_flag("mte2", "v", 0)
        T.tile.mul(b_ub, b_ub, -1.0)
        T.set_flag("v", "mte3", 1)
        T.wait_flag("v", "mte3", 1)
        T.copy(b_ub, ws_b[vid * kh : vid * kh + kh, :])
        T.copy(ws_s[vid * h : vid * h + h, :], s_ub)
        T.set_flag("mte2", "v", 2)
        T.wait_flag("mte2", "v", 2)
        T.tile.mul(s_ub, s_ub, -1.0)
        T.pipe_barrier("v")
        T.set_flag("v", "mte3", 3)
        T.wait_flag("v", "mte3", 3)
        T.copy(s_ub, C[t * block_M + vid * h : t * block_M + vid * h + h, :])

    @T.prim_func
    def main(
        A: T.Tensor((M, K), "float16"),
        B: T.Tensor((K, N), "float16"),
        C: T.Tensor((M, N), "float32"),
        ws_b: T.Tensor((K, N), "float16"),
        ws_s: T.Tensor((block_M, N), "float32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((block_M, K), "float16")
            b_l1 = T.alloc_L1((K, N), "float16")
            acc = T.alloc_L0C((block_M, N), "float32")
            b_ub = T.alloc_ub((kh, N), "float16")
            s_ub = T.alloc_ub((h, N), "float32")
            for t in T.serial(tiles):
                T.copy(A[t * block_M : t * block_M + block_M, :], a_l1)
                if dual:
                    for u in T.serial(1):
                        cube(A, ws_b, ws_s, a_l1, b_l1, acc)
                    for u in T.serial(1):
                        vector(B, C, ws_b, ws_s, b_ub, s_ub, t, vid)
                else:
                    cube(A, ws_b, ws_s, a_l1, b_l1, acc)
                    vector(B, C, ws_b, ws_s, b_ub, s_ub, t, vid)

    return main
