# A test class whose static method builds the kernel: -k names it bare when only
# one class has a method of that name (issue 19).
import tilelang
import tilelang.language as T


class TestScale:
    @staticmethod
    def scale_kernel(N=128, block=64, dtype="float32"):
        @T.prim_func
        def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
            with T.Kernel(N // block, is_npu=True) as (cid, vid):
                a = T.alloc_ub((block,), dtype)
                with T.Scope("V"):
                    T.copy(A[cid * block], a)
                    T.tile.mul(a, a, 3.0)
                    T.copy(a, B[cid * block])

        return main

    def test_scale(self):
        tilelang.compile(TestScale.scale_kernel(256), out_idx=[-1])


class TestOther:
    @staticmethod
    def other_kernel(N=64, dtype="float32"):
        @T.prim_func
        def main(A: T.Tensor((N,), dtype)):
            with T.Kernel(1, is_npu=True) as (cid, vid):
                T.barrier_all()

        return main
