# Conditions in a kernel body as the TVM tilelang-ascend pins parses them
# (src/front/eval_tvm.c, docs/language.md "The body"). Accepted:
# op 0: `a if c else b` on a factory value is Python's choice;
# op 1: on an IntImm it is the IntImm's truth;
# op 2: `(k == loop_k - 1) and (tail > 0)` is tir.And (the bool a constant),
#       fine as an `if` condition and in T.if_then_else;
# op 3: `not` / `or` of comparisons in an `if`.
# Refused, as TVM's parser refuses them (Python's truth of a PrimExpr node):
# ops 4-9: `a if k OP 3 else b` for each comparison OP on a loop variable;
# op 10: upstream's gemm_tail_block.py, `tail if is_tail else block` with
#        is_tail the tir.And of op 2 (refused even when tail is 0);
# op 11: a name assigned in the body is a LetStmt variable, even for 2;
# op 12: `T.int32(3) == 3` is a tir.EQ node, never folded;
# op 13: `not k` on an int32 variable (tir.Not takes bool);
# op 14: `(k == 0) and 1` (tir.And takes bool; 1 is an int);
# op 15: names bound by a tuple assignment are LetStmt variables too;
# op 16: `0 <= k < 4` is `(0 <= k) < 4` to TVM's parser, a bool compared
#        with an int (refused); op 17: on Python values it is that too:
#        `3 > 2 > 1` is `True > 1`, false (Python: true), so 64.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def tvm_logic(N=256, block=64, tail=0, op=0):
    loop_k = T.ceildiv(N, block)

    @T.prim_func
    def main(X: T.Tensor((N,), "float32"), Y: T.Tensor((N,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            ub = T.alloc_ub((block,), "float32")
            for k in T.serial(loop_k):
                cur = block
                if op == 0:
                    cur = 32 if tail > 0 else block
                elif op == 1:
                    cur = 32 if T.int32(1) else block
                elif op == 2:
                    is_tail = (k == loop_k - 1) and (tail > 0)
                    cur = T.if_then_else(is_tail, tail, block)
                    if is_tail:
                        T.tile.fill(ub, 0.0)
                elif op == 3:
                    if not (k < 2) or (k == 0):
                        T.tile.fill(ub, 1.0)
                elif op == 4:
                    cur = 32 if k == 3 else block
                elif op == 5:
                    cur = 32 if k != 3 else block
                elif op == 6:
                    cur = 32 if k < 3 else block
                elif op == 7:
                    cur = 32 if k <= 3 else block
                elif op == 8:
                    cur = 32 if k > 3 else block
                elif op == 9:
                    cur = 32 if k >= 3 else block
                elif op == 10:
                    is_tail = (k == loop_k - 1) and (tail > 0)
                    cur = tail if is_tail else block
                elif op == 11:
                    c = 2
                    cur = 32 if c == 2 else block
                elif op == 12:
                    cur = 32 if T.int32(3) == 3 else block
                elif op == 13:
                    if not k:
                        T.tile.fill(ub, 1.0)
                elif op == 14:
                    if (k == 0) and 1:
                        T.tile.fill(ub, 1.0)
                elif op == 15:
                    c, d = 2, block
                    cur = d if c == 2 else 32
                elif op == 16:
                    if 0 <= k < 4:
                        T.tile.fill(ub, 1.0)
                elif op == 17:
                    cur = 32 if 3 > 2 > 1 else block
                T.copy(X[k * block : k * block + cur], ub[:cur])
                T.copy(ub[:cur], Y[k * block : k * block + cur])

    return main
