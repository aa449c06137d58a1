# A GM <-> UB copy of a region with more than one dimension of extent > 1
# before its columns: when the region is whole there (each such dimension
# after the first the tensor's, starting at 0), upstream folds them into the
# DataCopyPad rows (tilelang-ascend #1231): A[t : t + block, :, :] of a
# [tokens, heads, dim] tensor is block * heads rows of dim, the outermost
# dimension clipped at the tensor's edge (a tail block moves the tokens left;
# the tile's other rows get the pad value). Out = A, block by block, through
# a 3-D tile; and through a 2-D one from a 4-D tensor with a unit dimension
# between the folded ones and the columns (their stride is constant).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def copy_fold_rows(tokens=20, heads=4, dim=8, block=8):
    @T.prim_func
    def main(A: T.Tensor((tokens, heads, dim), "float32"), Out: T.Tensor((tokens, heads, dim), "float32")):
        with T.Kernel(T.ceildiv(tokens, block), is_npu=True) as (cid, vid):
            with T.Scope("V"):
                if vid == 0:
                    t = T.alloc_ub((block, heads, dim), "float32")
                    T.copy(A[cid * block : cid * block + block, :, :], t)
                    T.copy(t, Out[cid * block : cid * block + block, :, :])

    return main


@tilelang.jit(out_idx=[1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def copy_fold_unit(n=2, heads=4, planes=3, dim=16):
    @T.prim_func
    def main(A: T.Tensor((n, heads, planes, dim), "float16"), Out: T.Tensor((n * heads, dim), "float16")):
        with T.Kernel(planes, is_npu=True) as (cid, vid):
            with T.Scope("V"):
                if vid == 0 and cid == 1:
                    t = T.alloc_ub((n * heads, dim), "float16")
                    T.copy(A[:, :, cid : cid + 1, :], t)
                    T.copy(t, Out)

    return main
