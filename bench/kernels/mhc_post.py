# mHC post (DeepSeek-V4 hyper-connections), hc = 4 streams:
#     out[t, i, :] = post[t, i] * x[t, :] + sum_j comb[t, i, j] * residual[t, j, :]
#   x [n, width] bfloat16, post [n, 4] float32, comb [n, 4, 4] float32 (comb
#   already transposed: row i holds the weights of output stream i), residual
#   and out [n, 4, width] bfloat16; computed in float32.
#
# tilec's own kernel for the calibration rows C14, C15 and S26-S28
# (bench/calibration.rows): the same work, blocking and instruction stream as
# tilelang-ascend's examples/mhc_post/example_mhc_post.py (its "V6", whose
# msprof profile C14 quotes; that file is not ours to commit). One token per
# vector core (block b, core v: token 2b + v), the row walked in chunks of
# `chunk` columns, two chunks in flight (T.Pipelined): five loads and five
# widening casts, per output stream a multiply by post and four axpys by the
# comb weights (scalar operands read from UB), a narrowing cast and a store.
#
# Mode: developer (automatic intra-core sync and memory planning).
import tilelang
import tilelang.language as T


@tilelang.jit(
    out_idx=[4],
    pass_configs={
        tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
        tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True,
    },
)
def mhc_post(width, chunk=2048):
    n = T.symbolic("n")
    steps = (width + chunk - 1) // chunk
    io = "bfloat16"
    acc = "float32"

    @T.prim_func
    def main(
        x: T.Tensor((n, width), io),
        post: T.Tensor((n, 4), acc),
        comb: T.Tensor((n, 4, 4), acc),
        residual: T.Tensor((n, 4, width), io),
        out: T.Tensor((n, 4, width), io),
    ):
        with T.Kernel(T.ceildiv(n, 2), is_npu=True) as (cid, vid):
            t = cid * 2 + vid
            if t < n:
                with T.Scope("V"):
                    w_post = T.alloc_ub(4, acc)
                    w0 = T.alloc_ub(4, acc)
                    w1 = T.alloc_ub(4, acc)
                    w2 = T.alloc_ub(4, acc)
                    w3 = T.alloc_ub(4, acc)
                    T.copy(post[t, 0], w_post)
                    T.copy(comb[t, 0, 0], w0)
                    T.copy(comb[t, 1, 0], w1)
                    T.copy(comb[t, 2, 0], w2)
                    T.copy(comb[t, 3, 0], w3)
                    r0_io = T.alloc_ub(chunk, io)
                    r1_io = T.alloc_ub(chunk, io)
                    r2_io = T.alloc_ub(chunk, io)
                    r3_io = T.alloc_ub(chunk, io)
                    x_io = T.alloc_ub(chunk, io)
                    r0 = T.alloc_ub(chunk, acc)
                    r1 = T.alloc_ub(chunk, acc)
                    r2 = T.alloc_ub(chunk, acc)
                    r3 = T.alloc_ub(chunk, acc)
                    xf = T.alloc_ub(chunk, acc)
                    o0 = T.alloc_ub(chunk, acc)
                    o1 = T.alloc_ub(chunk, acc)
                    o2 = T.alloc_ub(chunk, acc)
                    o3 = T.alloc_ub(chunk, acc)
                    o_io = T.alloc_ub(chunk, io)
                    for c in T.Pipelined(steps, num_stages=2):
                        col = c * chunk
                        T.copy(residual[t, 0, col], r0_io)
                        T.copy(residual[t, 1, col], r1_io)
                        T.copy(residual[t, 2, col], r2_io)
                        T.copy(residual[t, 3, col], r3_io)
                        T.tile.cast(r0, r0_io, "CAST_NONE", chunk)
                        T.tile.cast(r1, r1_io, "CAST_NONE", chunk)
                        T.tile.cast(r2, r2_io, "CAST_NONE", chunk)
                        T.tile.cast(r3, r3_io, "CAST_NONE", chunk)
                        T.copy(x[t, col], x_io)
                        T.tile.cast(xf, x_io, "CAST_NONE", chunk)
                        T.tile.mul(o0, xf, w_post[0])
                        T.tile.axpy(o0, r0, w0[0])
                        T.tile.axpy(o0, r1, w0[1])
                        T.tile.axpy(o0, r2, w0[2])
                        T.tile.axpy(o0, r3, w0[3])
                        T.tile.mul(o1, xf, w_post[1])
                        T.tile.axpy(o1, r0, w1[0])
                        T.tile.axpy(o1, r1, w1[1])
                        T.tile.axpy(o1, r2, w1[2])
                        T.tile.axpy(o1, r3, w1[3])
                        T.tile.mul(o2, xf, w_post[2])
                        T.tile.axpy(o2, r0, w2[0])
                        T.tile.axpy(o2, r1, w2[1])
                        T.tile.axpy(o2, r2, w2[2])
                        T.tile.axpy(o2, r3, w2[3])
                        T.tile.mul(o3, xf, w_post[3])
                        T.tile.axpy(o3, r0, w3[0])
                        T.tile.axpy(o3, r1, w3[1])
                        T.tile.axpy(o3, r2, w3[2])
                        T.tile.axpy(o3, r3, w3[3])
                        T.tile.cast(o_io, o0, "CAST_RINT", chunk)
                        T.copy(o_io, out[t, 0, col])
                        T.tile.cast(o_io, o1, "CAST_RINT", chunk)
                        T.copy(o_io, out[t, 1, col])
                        T.tile.cast(o_io, o2, "CAST_RINT", chunk)
                        T.copy(o_io, out[t, 2, col])
                        T.tile.cast(o_io, o3, "CAST_RINT", chunk)
                        T.copy(o_io, out[t, 3, col])

    return main
