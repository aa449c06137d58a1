# Loops whose buffers fit in UB only when the must-write analysis behind
# memplan's lifetimes (pass/live.c) sees that a value is not carried: each
# kernel has a 2 KiB (compare_mask) or 64 KiB buffer that is dead between
# iterations and a 191 KiB buffer `y` that can share its bytes. Kept live over
# the whole loop it would not fit, and memplan would fall back to upstream's
# intervals with a warning (memplan_must_write.cli). The arguments first = 2 and
# read_first make a value carried, which must keep the warning.
import tilelang
import tilelang.language as T

CFG = {tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True, tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True}
Y = 48896  # float32: 195,584 B of the 196,608 B of UB


# A compare writes one bit a source element: its 2 KiB mask is written in
# full before the select reads it.
@tilelang.jit(out_idx=[-2, -1], pass_configs=CFG)
def compare_mask(M=2, N=16384):
    @T.prim_func
    def main(A: T.Tensor([M, N], "float32"), B: T.Tensor([M, N], "float32"), C: T.Tensor([M, Y], "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            x = T.alloc_ub([N], "float32")
            m = T.alloc_ub([N // 8], "uint8")
            y = T.alloc_ub([Y], "float32")
            with T.Scope("V"):
                for i in T.serial(M):
                    T.copy(A[i, :], x)
                    T.tile.compare(m, x, 0.0, "GT")
                    T.tile.select(x, m, x, 0.0, "VSEL_TENSOR_SCALAR_MODE")
                    T.copy(x, B[i, :])
                    T.tile.fill(y, 1.0)
                    T.copy(y, C[i, :])

    return main


# r is written under `i < M - first` and read under `i < M - 1` later in the
# iteration: with first = 1 the condition is the same and cannot change in
# between; with first = 2 r may be read in an iteration that did not write it.
@tilelang.jit(out_idx=[-2, -1], pass_configs=CFG)
def same_condition(M=3, N=16384, first=1):
    @T.prim_func
    def main(A: T.Tensor([M, N], "float32"), B: T.Tensor([M, N], "float32"), C: T.Tensor([M, Y], "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            r = T.alloc_ub([N], "float32")
            y = T.alloc_ub([Y], "float32")
            with T.Scope("V"):
                for i in T.serial(M):
                    T.tile.fill(y, 1.0)
                    T.copy(y, C[i, :])
                    if i < M - first:
                        T.copy(A[i, :], r)
                    if i < M - 1:
                        T.copy(r, B[i, :])

    return main


# r is used in the loop and again after it, where it is written first: no value
# of the loop's flows out. With read_first the code after the loop reads the
# last iteration's value.
@tilelang.jit(out_idx=[-3, -2, -1], pass_configs=CFG)
def after_loop(M=2, N=16384, read_first=False):
    @T.prim_func
    def main(A: T.Tensor([M, N], "float32"), B: T.Tensor([M, N], "float32"), C: T.Tensor([M, Y], "float32"),
             D: T.Tensor([N], "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            r = T.alloc_ub([N], "float32")
            y = T.alloc_ub([Y], "float32")
            with T.Scope("V"):
                for i in T.serial(M):
                    T.tile.fill(y, 1.0)
                    T.copy(y, C[i, :])
                    T.copy(A[i, :], r)
                    T.copy(r, B[i, :])
                if not read_first:
                    T.tile.fill(r, 2.0)
                T.copy(r, D)

    return main
