# npuir's copy rule (@tilelang.jit(target="npuir")): a copy moves exactly its
# regions, element k of the source (row-major, unit dimensions dropped) to
# element k of the destination, writing nothing else, at any alignment:
#   Y = [X[0] | X[1]]: GM rows W apart into the halves of a UB tile whose rows
#     are 2W apart (no pad fill of the tile's rows), then the whole tile out;
#   P: X[0]'s elements in groups of 4 (16 bytes) in reverse group order, moved
#     by a T.Parallel over 4 elements at 16-byte offsets (UB -> UB) and 16-byte
#     copies out (UB -> GM);
#   C: the column X[1, :, 3] (GM elements W apart) into a 1-D buffer;
#   S: X[0] with rows 0..1 replaced by X[1]'s: a whole buffer against a slice of
#     the same rank takes the slice's extents (npuir's copy.py: tail tiles).
# The file turns automatic sync off, as npuir files may: npuir's compiler
# places every synchronisation whatever the pass configs say, and so does tilec
# (race-free on the simulator only so).
import tilelang
import tilelang.language as T


@tilelang.jit(
    out_idx=[1, 2, 3, 4],
    target="npuir",
    pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: False},
)
def npuir_copy(R=4, W=32):
    G = R * W // 4

    @T.prim_func
    def main(
        X: T.Tensor((2, R, W), "float32"),
        Y: T.Tensor((R, 2 * W), "float32"),
        P: T.Tensor((R * W,), "float32"),
        C: T.Tensor((R,), "float32"),
        S: T.Tensor((R, W), "float32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, _):
            t = T.alloc_shared((R, 2 * W), "float32")
            s = T.alloc_shared((R, W), "float32")
            q = T.alloc_shared((4,), "float32")
            col = T.alloc_shared((R,), "float32")
            T.copy(X[0, :, :], t[:, 0:W])
            T.copy(X[1, :, :], t[:, W : 2 * W])
            T.copy(t, Y)
            T.copy(X[0, :, :], s)
            for g in T.serial(G):
                for i in T.Parallel(4):
                    q[i] = s[g * 4 // W, g * 4 % W + i]
                T.copy(q, P[(G - 1 - g) * 4 : (G - g) * 4])
            T.copy(X[1, :, 3], col)
            T.copy(col, C)
            T.copy(t[0:2, W : 2 * W], s)
            T.copy(s, S)

    return main
