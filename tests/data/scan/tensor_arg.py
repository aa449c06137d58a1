# upstream_check's own-argument classes (tests/unit/test_scripts.c): a builder sized
# from the tensors its test passes (their .shape and .dtype, as elementwise.py's
# bilinear_interpolation is): the recorded call gives them as T.Tensor(shape, dtype).
import tilelang
import tilelang.language as T
import torch


def double_rows(src, idx):
    @T.prim_func
    def main(
        A: T.Tensor((src.shape[0], src.shape[1]), src.dtype),
        I: T.Tensor((idx.shape[0],), "uint32"),
        B: T.Tensor((src.shape[0], src.shape[1]), src.dtype),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((src.shape[0], src.shape[1]), src.dtype)
            if vid == 0:
                T.copy(A, a)
                T.tile.mul(a, a, 2.0)
                T.copy(a, B)

    return main


def test_double_rows():
    src = torch.arange(0, 512, dtype=torch.float16).reshape(4, -1)
    idx = torch.arange(0, 256, 32, dtype=torch.int64).to(dtype=torch.uint32)
    func = tilelang.compile(double_rows(src, idx), out_idx=[-1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
    func(src, idx)
