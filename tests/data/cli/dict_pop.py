# dict.pop(key[, default]) removes the key (upstream's im2col_conv2d test in a
# fork: `kw = dict(case); kw.pop("name"); _run_conv2d(target, **kw)`); before,
# the key stayed and the call failed with an unexpected keyword argument.
import tilelang
import tilelang.language as T

CASES = [dict(name="base", n=32, extra=1)]


def run(n, extra, missing=False):
    kw = {"a": 1}
    if missing:
        kw.pop("b")
    k = kw.pop("b", 2) + kw.pop("a") - 3 + len(kw)

    @tilelang.jit(out_idx=[1])
    def kernel():
        @T.prim_func
        def main(A: T.Tensor((n + k,), "float32"), B: T.Tensor((n + k,), "float32")):
            with T.Kernel(1, is_npu=True) as (cid, vid):
                a = T.alloc_ub((n + k,), "float32")
                T.copy(A, a)
                T.copy(a, B)

        return main

    return kernel()


if __name__ == "__main__":
    for case in CASES:
        kw = dict(case)
        name = kw.pop("name")
        run(**kw)
