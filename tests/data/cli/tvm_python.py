# A plain Python function the kernel calls is run by Python on TVM's objects
# (tvm/tir/expr.py, the TVM tilelang-ascend pins), not parsed (eval_tvm.c):
# op 0: `k == 3` is an EqualOp, truthy by identity only: False, so 64;
# op 1: `k != 3`, a NotEqualOp: True, so 32;
# op 2: `k == k`: the same object, True;
# op 3: `k < 3` builds tir.LT: Python's truth of it raises (an error);
# op 4: `not k`: bool() of a variable raises (an error);
# op 5: `T.int32(3) == 3`: IntImm's __eq__ folds to a true constant;
# op 6: `(k == 3) or (block > 8)`: Python's `or` of False and True.
import tilelang
import tilelang.language as T


def width(k, block, op):
    if op == 0:
        return 32 if k == 3 else block
    if op == 1:
        return 32 if k != 3 else block
    if op == 2:
        return 32 if k == k else block
    if op == 3:
        if k < 3:
            return 32
        return block
    if op == 4:
        return 32 if not k else block
    if op == 5:
        return 32 if T.int32(3) == 3 else block
    return 32 if (k == 3) or (block > 8) else block


@tilelang.jit(out_idx=[1])
def kernel(N=256, block=64, op=0):
    @T.prim_func
    def main(X: T.Tensor((N,), "float32"), Y: T.Tensor((N,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            ub = T.alloc_ub((block,), "float32")
            for k in T.serial(N // block):
                cur = width(k, block, op)
                T.copy(X[k * block : k * block + cur], ub[:cur])
                T.copy(ub[:cur], Y[k * block : k * block + cur])

    return main
