// The tile-op table: every operation a kernel can perform on tiles, written once.
//
// Columns: id, name as spelled after `T.` / `T.tile.`, operand signature, class, pipe.
//
// Operand signature, one letter per operand (optional trailing operands in []):
//   w  region written            r  region read            x  region read and written
//   s  scalar expression         v  region read or scalar (the "src1" of binary ops)
// Classes say which executor routine handles the op and how passes treat it.
// Pipes are the Ascend hardware pipe that executes the op (copies pick theirs from
// the operand scopes, see tl_op_pipe in ir.h).
#ifndef TL_IR_OPS_H
#define TL_IR_OPS_H

#define TL_OPS(X)                                                                                  \
    /* data movement */                                                                            \
    X(TL_OP_COPY, "copy", "rw", TL_OPC_COPY, TL_PIPE_NONE)                                         \
    X(TL_OP_ATOMIC_ADD, "atomic_add", "xr", TL_OPC_COPY, TL_PIPE_NONE)                             \
    /* cube */                                                                                     \
    X(TL_OP_GEMM_V0, "gemm_v0", "rrx", TL_OPC_GEMM, TL_PIPE_M)                                     \
    X(TL_OP_MMA, "mma", "rrx", TL_OPC_GEMM, TL_PIPE_M)                                             \
    /* vector: fill and casts */                                                                   \
    X(TL_OP_FILL, "fill", "ws", TL_OPC_VEC, TL_PIPE_V)                                             \
    X(TL_OP_CAST, "cast", "wr[s]", TL_OPC_VEC, TL_PIPE_V)                                          \
    /* vector: binary (src1 may be a scalar) */                                                    \
    X(TL_OP_ADD, "add", "wrv", TL_OPC_VEC, TL_PIPE_V)                                              \
    X(TL_OP_SUB, "sub", "wrv", TL_OPC_VEC, TL_PIPE_V)                                              \
    X(TL_OP_MUL, "mul", "wrv", TL_OPC_VEC, TL_PIPE_V)                                              \
    X(TL_OP_DIV, "div", "wrv", TL_OPC_VEC, TL_PIPE_V)                                              \
    X(TL_OP_MAX, "max", "wrv", TL_OPC_VEC, TL_PIPE_V)                                              \
    X(TL_OP_MIN, "min", "wrv", TL_OPC_VEC, TL_PIPE_V)                                              \
    X(TL_OP_AND, "bitwise_and", "wrv", TL_OPC_VEC, TL_PIPE_V)                                      \
    X(TL_OP_OR, "bitwise_or", "wrv", TL_OPC_VEC, TL_PIPE_V)                                        \
    X(TL_OP_XOR, "bitwise_xor", "wrv", TL_OPC_VEC, TL_PIPE_V)                                      \
    X(TL_OP_SHL, "bitwise_lshift", "wrs", TL_OPC_VEC, TL_PIPE_V)                                   \
    X(TL_OP_SHR, "bitwise_rshift", "wrs", TL_OPC_VEC, TL_PIPE_V)                                   \
    X(TL_OP_POW, "pow", "wrv", TL_OPC_VEC, TL_PIPE_V)                                              \
    /* vector: unary (optional element count) */                                                   \
    X(TL_OP_EXP, "exp", "wr[s]", TL_OPC_VEC, TL_PIPE_V)                                            \
    X(TL_OP_LN, "ln", "wr[s]", TL_OPC_VEC, TL_PIPE_V)                                              \
    X(TL_OP_ABS, "abs", "wr[s]", TL_OPC_VEC, TL_PIPE_V)                                            \
    X(TL_OP_RECIPROCAL, "reciprocal", "wr[s]", TL_OPC_VEC, TL_PIPE_V)                              \
    X(TL_OP_SQRT, "sqrt", "wr[s]", TL_OPC_VEC, TL_PIPE_V)                                          \
    X(TL_OP_RSQRT, "rsqrt", "wr[s]", TL_OPC_VEC, TL_PIPE_V)                                        \
    X(TL_OP_RELU, "relu", "wr[s]", TL_OPC_VEC, TL_PIPE_V)                                          \
    X(TL_OP_SIGMOID, "sigmoid", "wr[s]", TL_OPC_VEC, TL_PIPE_V)                                    \
    X(TL_OP_SILU, "silu", "wr[s]", TL_OPC_VEC, TL_PIPE_V)                                          \
    X(TL_OP_SIN, "sin", "wr[s]", TL_OPC_VEC, TL_PIPE_V)                                            \
    X(TL_OP_COS, "cos", "wr[s]", TL_OPC_VEC, TL_PIPE_V)                                            \
    X(TL_OP_ROUND, "round", "wr[s]", TL_OPC_VEC, TL_PIPE_V)                                        \
    X(TL_OP_NOT, "bitwise_not", "wr[s]", TL_OPC_VEC, TL_PIPE_V)                                    \
    /* vector: fused and scalar-parameter forms */                                                 \
    X(TL_OP_LEAKY_RELU, "leaky_relu", "wrs[s]", TL_OPC_VEC, TL_PIPE_V)                             \
    X(TL_OP_AXPY, "axpy", "xrs[s]", TL_OPC_VEC, TL_PIPE_V)                                         \
    X(TL_OP_MUL_ADD_DST, "mul_add_dst", "xrr[s]", TL_OPC_VEC, TL_PIPE_V)                           \
    X(TL_OP_CLAMP, "clamp", "wrss[s]", TL_OPC_VEC, TL_PIPE_V)                                      \
    X(TL_OP_CLAMP_MAX, "clamp_max", "wrs[s]", TL_OPC_VEC, TL_PIPE_V)                               \
    X(TL_OP_CLAMP_MIN, "clamp_min", "wrs[s]", TL_OPC_VEC, TL_PIPE_V)                               \
    X(TL_OP_COMPARE, "compare", "wrv", TL_OPC_VEC, TL_PIPE_V)                                      \
    X(TL_OP_SELECT, "select", "wrrv", TL_OPC_VEC, TL_PIPE_V)                                       \
    X(TL_OP_BROADCAST, "broadcast", "wr", TL_OPC_VEC, TL_PIPE_V)                                   \
    X(TL_OP_ROW_EXPAND_MUL, "row_expand_mul", "wrr", TL_OPC_VEC, TL_PIPE_V)                        \
    X(TL_OP_ROW_EXPAND_SUB, "row_expand_sub", "wrr", TL_OPC_VEC, TL_PIPE_V)                        \
    X(TL_OP_ROW_EXPAND_DIV, "row_expand_div", "wrr", TL_OPC_VEC, TL_PIPE_V)                        \
    X(TL_OP_GATHER, "gather", "wrr[s]", TL_OPC_VEC, TL_PIPE_V)                                     \
    X(TL_OP_CREATEVECINDEX, "createvecindex", "ws", TL_OPC_VEC, TL_PIPE_V)                         \
    X(TL_OP_ARITH_PROGRESSION, "arith_progression", "wss[s]", TL_OPC_VEC, TL_PIPE_V)               \
    X(TL_OP_TRANSPOSE, "transpose", "wr", TL_OPC_VEC, TL_PIPE_V)                                   \
    X(TL_OP_REINTERPRETCAST, "reinterpretcast", "wr", TL_OPC_VEC, TL_PIPE_V)                       \
    /* reductions */                                                                               \
    X(TL_OP_REDUCE_SUM, "reduce_sum", "rx", TL_OPC_REDUCE, TL_PIPE_V)                              \
    X(TL_OP_REDUCE_MAX, "reduce_max", "rx", TL_OPC_REDUCE, TL_PIPE_V)                              \
    X(TL_OP_REDUCE_MIN, "reduce_min", "rx", TL_OPC_REDUCE, TL_PIPE_V)                              \
    /* state */                                                                                    \
    X(TL_OP_SET_DEQ_SCALE, "set_deq_scale", "s", TL_OPC_STATE, TL_PIPE_V)                           \
    /* vector: sorting, brcb (sized element ranges, tileop_sort.c) */                          \
    X(TL_OP_SORT, "sort", "wxs", TL_OPC_VEC, TL_PIPE_V)                                            \
    X(TL_OP_TOPK, "topk", "wxss", TL_OPC_VEC, TL_PIPE_V)                                           \
    X(TL_OP_MERGE_SORT, "merge_sort", "wrr[rr]", TL_OPC_VEC, TL_PIPE_V)                            \
    X(TL_OP_GATHER_MASK, "gather_mask", "wr[r]", TL_OPC_VEC, TL_PIPE_V)                            \
    X(TL_OP_BRCB, "brcb_experiment", "wrsss", TL_OPC_VEC, TL_PIPE_V)                               \
    X(TL_OP_INIT_SORT_BUF, "init_sort_buf", "wss", TL_OPC_VEC, TL_PIPE_V)

#endif
