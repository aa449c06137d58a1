# The harness's launch records with workspaces (tests/unit/test_scripts.c): upstream's jit
# allocates the workspace_idx parameters, so the driver passes neither W nor the output B;
# the empty tensor E (0 rows: no cache) gives -d K=0. After the launch the driver goes on
# through a torch_npu pair, an elementwise comparison and a concatenation of values the
# stand-in does not model to the second kernel, whose size comes from a tensor's shape.
import tilelang
import tilelang.language as T
import torch
import torch_npu


@tilelang.jit(out_idx=[2], workspace_idx=[1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def ws_kernel(N, dtype="float16"):
    R = T.symbolic("R")
    K = T.symbolic("K")

    @T.prim_func
    def main(A: T.Tensor((R, N), dtype), W: T.Tensor((2, N), dtype), B: T.Tensor((R, N), dtype),
             E: T.Tensor((K, N), dtype)):
        with T.Kernel(1, is_npu=True) as (bx, vid):
            a = T.alloc_ub((1, N), dtype)
            for i in T.serial(R // 2):
                T.copy(A[vid * (R // 2) + i, 0], a)
                T.tile.add(a, a, a)
                T.copy(a, B[vid * (R // 2) + i, 0])
    return main


@tilelang.jit(out_idx=[1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def after_kernel(M, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M,), dtype), B: T.Tensor((M,), dtype)):
        with T.Kernel(1, is_npu=True) as (bx, vid):
            a = T.alloc_ub((M // 2,), dtype)
            T.copy(A[vid * (M // 2)], a)
            T.copy(a, B[vid * (M // 2)])
    return main


if __name__ == "__main__":
    x = torch.randn(40, 64).half()
    cache = torch.zeros(0, 64).half()
    y = ws_kernel(64)(x, cache)
    ref, rstd = torch_npu.npu_rms_norm(x, torch.ones(64).half())
    rows = (torch.arange(40) == 3).nonzero().squeeze(-1)
    both = torch.cat([torch.einsum("ij->ij", y), ref])
    after_kernel(rstd.shape[0] * 8)(torch.randn(320).half())
