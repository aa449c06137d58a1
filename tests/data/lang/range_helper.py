# range() in a plain Python helper called while the body is traced is Python's
# range (issue 19): here it allocates two buffers and sums a list; in the body
# itself (and in a @T.macro) range() is a kernel loop.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(N=256, block=64, dtype="float32"):
    def make_bufs(n):
        bufs = []
        for _ in range(n):
            bufs.append(T.alloc_ub((block,), dtype))
        return bufs

    def total(xs):
        s = 0
        for i in range(len(xs)):
            s += xs[i]
        return s

    @T.macro
    def scale_rows(buf, k):
        for i in range(2):
            T.tile.mul(buf[i * (block // 2) : (i + 1) * (block // 2)], buf[i * (block // 2) : (i + 1) * (block // 2)], k)

    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(N // block, is_npu=True) as (cid, vid):
            a, b = make_bufs(2)
            with T.Scope("V"):
                T.copy(A[cid * block], a)
                T.tile.mul(b, a, float(total([1, 2, 3])))
                scale_rows(b, 0.5)
                for j in range(2):
                    T.tile.add(b, b, a)
                T.copy(b, B[cid * block])

    return main
