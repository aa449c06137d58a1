# T.call_extern of upstream's tl::ascend::copy_ub_to_ub (tl_templates/ascend/common.h), the
# strided UB -> UB copy cann-bench's mhc_sinkhorn calls by name with buf.access_ptr(...):
# (src, dst, src_rows, src_cols, src_stride, dst_rows, dst_cols, dst_stride). Dense on both
# sides (cols == stride) it copies the template's len elements at once, else src_rows rows of
# src_cols elements at the strides; tilec makes the same rows T.copy ops.
import tilelang
import tilelang.language as T


def copy_rows(dst, dst_off, src, src_off, rows, cols, src_stride, dst_stride):
    return T.call_extern(
        "handle",
        f"tl::ascend::copy_ub_to_ub<float, float, {rows * cols}>",
        src.access_ptr("r", offset=src_off),
        dst.access_ptr("w", offset=dst_off),
        rows, cols, src_stride, rows, cols, dst_stride)


@tilelang.jit(out_idx=[-1])
def kernel(R=8, C=16):
    @T.prim_func
    def main(A: T.Tensor((R, C), "float32"), B: T.Tensor((R, C), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((R, C), "float32")
            b = T.alloc_ub((R, C), "float32")
            with T.Scope("V"):
                T.copy(A, a)
                T.barrier_all()
                copy_rows(b, 0, a, C, R // 2, C, 2 * C, C)  # odd rows of a -> rows 0..3 of b
                copy_rows(b, R // 2 * C, a, 0, R // 2, C, C, C)  # dense: rows 0..3 -> rows 4..7
                T.barrier_all()
                T.copy(b, B)

    return main
