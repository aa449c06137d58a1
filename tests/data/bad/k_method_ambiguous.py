# -k with a bare method name that two classes define
import tilelang
import tilelang.language as T


class TestA:
    @staticmethod
    def build(N=64, dtype="float32"):
        @T.prim_func
        def main(A: T.Tensor((N,), dtype)):
            with T.Kernel(1, is_npu=True) as (cid, vid):
                T.barrier_all()

        return main


class TestB:
    @staticmethod
    def build(N=64, dtype="float16"):
        @T.prim_func
        def main(A: T.Tensor((N,), dtype)):
            with T.Kernel(1, is_npu=True) as (cid, vid):
                T.barrier_all()

        return main
