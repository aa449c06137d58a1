# A name bound to a T.alloc_var reads as the variable's value in the kernel body
# (TileLang's parser, issue 19): `w = v` with both variables stores v's value
# into w; `u = v` with u a new name binds u to the value at that point (a let),
# not to the variable. B is [9, 9, 100, 10]: w took v's 9, u kept v's initial 100
# after v changed, v ended at 10.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def var_assign(N=16):
    @T.prim_func
    def main(A: T.Tensor((N,), "int32"), B: T.Tensor((N,), "int32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            v = T.alloc_var("int32", init=100)
            w = T.alloc_var("int32", init=0)
            ub = T.alloc_ub((N,), "int32")
            with T.Scope("V"):
                T.copy(A, ub)
                T.barrier_all()
                u = v
                for i in T.serial(4):
                    if i == 2:
                        v = ub[i]
                    if i == 3:
                        w = v
                v = v + 1
                ub[0] = w
                ub[1] = w
                ub[2] = u
                ub[3] = v
                T.barrier_all()
                T.copy(ub, B)

    return main
