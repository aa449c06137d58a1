# The driver passes a torch shape to the factory: the error names the parameter
# to give with -a (and where the file's call passes it), and a kernel computing
# with it (T.ceildiv) says so rather than that the operand types do not mix.
import tilelang
import tilelang.language as T
import torch


def copy_kernel(N, block):
    @T.prim_func
    def main(A: T.Tensor((1024,), "float32"), B: T.Tensor((1024,), "float32")):
        with T.Kernel(T.ceildiv(N, block), is_npu=True) as (cid, vid):
            a = T.alloc_ub((128,), "float32")
            T.copy(A[cid * 128], a)
            T.copy(a, B[cid * 128])

    return main


if __name__ == "__main__":
    x = torch.randn(1024)
    copy_kernel(1024, x.shape[0] // 8)(x)
