# A torch.autograd.Function whose backward launches a kernel: the stand-in's .backward() runs
# it, so the driver's test reaches grad_kernel; torch_npu.npu_moe_token_permute is a pair
# (tests/unit/test_scripts.c).
import tilelang
import tilelang.language as T
import torch
import torch_npu


@tilelang.jit(out_idx=[1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def grad_kernel(M, dtype="float16"):
    @T.prim_func
    def main(G: T.Tensor((M,), dtype), D: T.Tensor((M,), dtype)):
        with T.Kernel(1, is_npu=True) as (bx, vid):
            g = T.alloc_ub((M // 2,), dtype)
            T.copy(G[vid * (M // 2)], g)
            T.tile.mul(g, g, 2.0)
            T.copy(g, D[vid * (M // 2)])
    return main


class _Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad_kernel(x.shape[0])(grad)


if __name__ == "__main__":
    tokens = torch.randn(16, 8).half()
    permuted, order = torch_npu.npu_moe_token_permute(tokens, torch.randint(0, 4, (16, 4)))
    x = torch.randn(permuted.shape[0] * 4).half()
    _Double.apply(x).backward(torch.ones(256).half())
