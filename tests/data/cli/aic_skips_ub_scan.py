# A top-level loop outside T.Scope that reads UB only to steer vector work
# (cann-bench moe_re_routing: a serial scan of `cnt_ub` into alloc_vars, then
# `if uflag == 0:` around copies). Upstream builds the kernel MIX_AIC_1_2 and
# runs the top level on the AIC too, but the AIC's build drops every vector op,
# so nothing the AIC runs depends on the scan: the AIC skips it (Y = 2 X shows
# the vector cores' scan found sum 24, max 3). With leak=True
# a GM store that every core runs reads the scanned sum: the AIC then needs the
# UB value (an error).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def kernel(E=8, N=64, leak=False):
    @T.prim_func
    def main(X: T.Tensor((N,), "float32"), S: T.Tensor((8,), "int32"),
             Y: T.Tensor((N,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            cnt_ub = T.alloc_ub((E,), "int32")
            x_ub = T.alloc_ub((N // 2,), "float32")
            acc = T.alloc_var("int32", init=0)
            mx = T.alloc_var("int32", init=0)
            T.tile.fill(cnt_ub, 3)
            T.copy(X[vid * (N // 2)], x_ub)
            for b in T.serial(E):
                cv = cnt_ub[b]
                acc = acc + cv
                mx = T.max(mx, cv)
            if acc == 3 * E and mx == 3:
                T.tile.mul(x_ub, x_ub, 2.0)
            T.copy(x_ub, Y[vid * (N // 2)])
            if leak:
                S[0] = acc

    return main
