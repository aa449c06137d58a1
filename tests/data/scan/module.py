# An nn.Module driver (tests/unit/test_scripts.c): calling the module runs its forward, whose
# nn.Linear gives the hidden size. The per-group row counts come from a tensor's contents, so
# `max(count, 1)` differs between the harness's two runs and the group calls are not the
# file's own; the call at the whole batch's row count (a shape) is.
import tilelang
import tilelang.language as T
import torch
import torch.nn as nn


@tilelang.jit(out_idx=[1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def rows_copy(rows, hidden, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((rows, hidden), dtype), B: T.Tensor((rows, hidden), dtype)):
        with T.Kernel(rows // 16, is_npu=True) as (bx, vid):
            a = T.alloc_ub((8, hidden), dtype)
            T.copy(A[bx * 16 + vid * 8, 0], a)
            T.copy(a, B[bx * 16 + vid * 8, 0])
    return main


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.proj = nn.Linear(width, 2 * width, bias=False)

    def forward(self, x, counts):
        h = self.proj(x)
        for count in counts:
            rows_copy(max(count, 1) * 16, h.shape[-1])  # a group's rows: contents
        return rows_copy(h.shape[0], h.shape[-1])(h)


if __name__ == "__main__":
    Block(32).to("npu")(torch.randn(64, 32).half(), torch.zeros(2, dtype=torch.int32))
