# npuir's size= and atomic add (@tilelang.jit(target="npuir")): blocks of bs elements,
# the last one a tail of N % bs: T.copy(X[i], ub, size=[n]) moves n elements from X[i]
# (a point and a whole buffer, both from size=), Y's part is set to Y0's, then
# T.atomic_add(Y[i], ub, [n]) adds X's into it (Y = Y0 + X). T.atomic_addx4 (the same
# op) adds 2 X[0:bs] twice into a cleared row of Z per block (Z[b, :] = 4 X[0:bs]).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3], target="npuir")
def npuir_atomic(N=100, bs=32):
    R = (N + bs - 1) // bs

    @T.prim_func
    def main(
        X: T.Tensor((N,), "float32"),
        Y0: T.Tensor((N,), "float32"),
        Y: T.Tensor((N,), "float32"),
        Z: T.Tensor((R, bs), "float32"),
    ):
        with T.Kernel(R, is_npu=True) as (cid, _):
            ub = T.alloc_ub((bs,), "float32")
            y0 = T.alloc_ub((bs,), "float32")
            row = T.alloc_ub((1, bs), "float32")
            n = T.min(bs, N - cid * bs)
            T.copy(X[cid * bs], ub, size=[n])
            T.copy(Y0[cid * bs], y0, size=[n])
            T.copy(y0, Y[cid * bs], size=[n])
            T.atomic_add(Y[cid * bs], ub, [n])
            T.copy(X[0:bs], row)
            T.vadd(row, row, row)
            T.clear(ub)
            T.copy(ub, Z[cid, :])
            T.atomic_addx4(Z[cid, :], row)
            T.atomic_addx4(Z[cid, :], row)

    return main
