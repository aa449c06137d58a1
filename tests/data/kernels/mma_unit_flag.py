# The cube path of tilelang-ascend's sparse flash MLA, small: L1 -> L0A/L0B
# loads of only the valid K and N (real_k, real_n), mmads over them
# (k_actual, n_actual) with unit flags, and the L0C ping-pong handed to the
# fixpipe by the unit flags alone (no M -> FIX or FIX -> M flags).
# C[:, t*NV:(t+1)*NV] = A[:, :KV] @ B[:KV, t*N : t*N + NV]; A and B hold
# data past KV and NV, which must not count. explicit_init: the two mmads
# written out, the second with init=False (a constant: accumulate).
# The unit flag of the second mmad is chosen with tir.Select, as upstream does:
# `0b11 if h == 1 else 0b10` on the loop variable is refused by TVM's parser.
import tilelang
import tilelang.language as T
from tvm import tir


@tilelang.jit(out_idx=[-1])
def mma_unit_flag(M=64, KV=100, NV=40, NT=4, dtype="float16", explicit_init=False):
    K, N = 128, 64  # buffer extents: KV <= K and NV <= N are valid
    KC = K // 2

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, NT * N), dtype),
             C: T.Tensor((M, NT * NV), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((M, K), dtype)
            b_l1 = T.alloc_L1((K, NT * N), dtype)
            a_l0 = T.alloc_L0A((2, M, KC), dtype)
            b_l0 = T.alloc_L0B((2, 2, KC, N), dtype)
            c_l0 = T.alloc_L0C((2, M, N), "float32")
            with T.Scope("C"):
                T.copy(A[0, 0], a_l1)
                T.copy(B[0, 0], b_l1)
                T.set_flag("mte2", "mte1", 0)
                T.wait_flag("mte2", "mte1", 0)
                for h in range(2):
                    T.copy(a_l1[:, h * KC:(h + 1) * KC], a_l0[h, :, :], real_k=min(KC, KV - h * KC))
                T.set_flag("m", "mte1", 0)
                T.set_flag("m", "mte1", 1)
                for t in T.serial(NT):
                    cs = t % 2
                    T.wait_flag("m", "mte1", cs)
                    for h in range(2):
                        T.copy(b_l1[h * KC:(h + 1) * KC, t * N:t * N + N], b_l0[cs, h, :, :],
                               real_k=min(KC, KV - h * KC), real_n=NV)
                    T.set_flag("mte1", "m", cs)
                    T.wait_flag("mte1", "m", cs)
                    if explicit_init:
                        T.mma(a_l0[0, :, :], b_l0[cs, 0, :, :], c_l0[cs, :, :], init=True,
                              k_actual=min(KC, KV), n_actual=NV, unit_flag=0b10)
                        T.mma(a_l0[1, :, :], b_l0[cs, 1, :, :], c_l0[cs, :, :], init=False,
                              k_actual=min(KC, KV - KC), n_actual=NV, unit_flag=0b11)
                    else:
                        for h in range(2):
                            T.mma(a_l0[h, :, :], b_l0[cs, h, :, :], c_l0[cs, :, :], init=(h == 0),
                                  k_actual=min(KC, KV - h * KC), n_actual=NV,
                                  unit_flag=tir.Select(h == 1, 0b11, 0b10))
                    T.set_flag("m", "mte1", cs)
                    T.copy(c_l0[cs, :, 0:NV], C[0:M, t * NV:(t + 1) * NV], unit_flag=0b11)
                T.wait_flag("m", "mte1", 0)
                T.wait_flag("m", "mte1", 1)

    return main
