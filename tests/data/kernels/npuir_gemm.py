# npuir's GEMM (@tilelang.jit(target="npuir")): T.gemm is npuir_dot, C = A x B with
# initC, else C += A x B.
#   C: expert spelling: K tiles loaded with T.load_nd2nz (size=), T.gemm(size=[m, k, n],
#      initC=(k == 0)) into L0C, T.store_fixpipe to float16;
#   D: developer spelling: acc = A[:, :bk] x B[:bk, :] (initC=True), doubled by the
#      vector cores, then acc += A[:, bk:] x B[bk:, :] (the rescaled accumulator);
#   E: a2 = A + A computed by the vector cores, then E = a2 x B (a vector result as a
#      GEMM operand; A's tile is a GEMM operand and a vector operand too).
# Integer inputs: every product and sum exact.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3, 4], target="npuir")
def npuir_gemm(M=32, N=32, K=64, bk=32):
    @T.prim_func
    def main(
        A: T.Tensor((M, K), "float16"),
        B: T.Tensor((K, N), "float16"),
        C: T.Tensor((M, N), "float16"),
        D: T.Tensor((M, N), "float32"),
        E: T.Tensor((M, N), "float32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, _):
            a_l1 = T.alloc_L1((M, bk), "float16")
            b_l1 = T.alloc_L1((bk, N), "float16")
            c_l0 = T.alloc_L0C((M, N), "float32")
            for k in T.serial(K // bk):
                T.load_nd2nz(A[0, k * bk], a_l1, [M, bk])
                T.load_nd2nz(B[k * bk, 0], b_l1, [bk, N])
                T.gemm(a_l1, b_l1, c_l0, size=[M, bk, N], initC=(k == 0))
            T.store_fixpipe(c_l0, C[0, 0], size=[M, N], enable_nz2nd=True)

            a_s = T.alloc_shared((M, K), "float16")
            b_s = T.alloc_shared((K, N), "float16")
            acc = T.alloc_fragment((M, N), "float32")
            T.copy(A, a_s)
            T.copy(B, b_s)
            T.gemm(a_s[:, 0:bk], b_s[0:bk, :], acc, initC=True)
            T.vmul(acc, 2.0, acc)
            T.gemm(a_s[:, bk:K], b_s[bk:K, :], acc)
            T.copy(acc, D)
            a2 = T.alloc_fragment((M, K), "float16")
            e = T.alloc_fragment((M, N), "float32")
            T.vadd(a_s, a_s, a2)
            T.gemm(a2, b_s, e, initC=True)
            T.copy(e, E)

    return main
