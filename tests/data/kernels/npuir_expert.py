# npuir's expert mode (@tilelang.jit(target="npuir") with T.Scope("Cube") /
# T.Scope("Vector")): the cube computes A x B into the workspace W (T.store_fixpipe
# inside `with T.rs("PIPE_FIX")`, then T.sync_block_set(0)); each of the block's two
# vector cores waits for it (T.sync_block_wait(0) inside T.rs("PIPE_MTE2")), loads its
# half of the rows (by the sub-block index), orders the load before the multiply with
# npuir's set_flag / wait_flag (the pipe from the enclosing T.rs) and writes
# C = 3 (A x B). Integer inputs: exact.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2], target="npuir")
def npuir_expert(M=32, N=32, K=32):
    h = M // 2

    @T.prim_func
    def main(
        A: T.Tensor((M, K), "float16"),
        B: T.Tensor((K, N), "float16"),
        C: T.Tensor((M, N), "float32"),
        W: T.Tensor((M, N), "float32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, subid):
            with T.Scope("Cube"):
                a = T.alloc_L1((M, K), "float16")
                b = T.alloc_L1((K, N), "float16")
                c = T.alloc_L0C((M, N), "float32")
                T.load_nd2nz(A, a)
                T.load_nd2nz(B, b)
                T.gemm(a, b, c, initC=True)
                with T.rs("PIPE_FIX"):
                    T.store_fixpipe(c, W, enable_nz2nd=True)
                    T.sync_block_set(0)
            with T.Scope("Vector"):
                u = T.alloc_ub((h, N), "float32")
                with T.rs("PIPE_MTE2"):
                    T.sync_block_wait(0)
                    T.copy(W[subid * h, 0], u, size=[h, N])
                    T.set_flag("PIPE_V", 0)
                with T.rs("PIPE_V"):
                    T.wait_flag("PIPE_MTE2", 0)
                T.vmul(u, 3.0, u)
                T.copy(u, C[subid * h : subid * h + h, :])

    return main
