// The tile-op table: every operation a kernel can perform on tiles, written
// once. A row says everything about its op; the IR (ir.c), the front end
// (front/tapi_ops.c), the tile-op library (exec/tileop.c) and the cost model
// (target/cost.c) are generated from it, and no other file lists the ops.
//
// Columns of TL_OPS:
//   id      the opcode (tl_opcode_t)
//   name    the op's name in the IR and its dumps
//   sig     operand signature, one letter per operand (optional trailing
//           operands in []): w region written, r region read, x region read
//           and written, s scalar expression, v region read or scalar (the
//           "src1" of binary ops)
//   cls     how passes treat it (tl_opclass_t without the TL_OPC_ prefix):
//           COPY, GEMM, VEC (vector ops on UB), REDUCE, STATE
//   pipe    the Ascend pipe that runs it (TL_PIPE_ without the prefix; NONE
//           for copies: their scopes pick the pipe, tl_op_pipe in ir.h)
//   cost    its cost class (TL_COSTS below, without the TL_COST_ prefix):
//           what the chip model prices it as (target/arch.c, target/cost.c)
//   bin     the operator it applies element by element (tl_binop_t without
//           the TL_BIN_ prefix; NONE for the other ops): ADD SUB MUL DIV MAX
//           MIN AND OR XOR. With signature "wrv" it is a binary op,
//           dst = src0 OP src1 with src1 a tile or a scalar (tl_op_binary in
//           ir.h); the row_expand ops apply it to a tile and a row's element.
//           Backends read it rather than listing the ops (pow and the shifts
//           have their own routines: NONE)
//   run     the tile-op library routine that computes it (exec/tileop_impl.h)
//   front   how the front end binds a call (front/tapi_ops.c, op_<front>):
//           bind reads the parameter list of `api`; copy, gemm, reduce,
//           deq_scale and reinterpret are hand-written binders
//   api     the spelling in a kernel ("T.copy", "T.tile.add") followed, for
//           `bind`, by the parameters in upstream order, each prefixed by its
//           role: ':' the next operand of the signature, '@' a mode string
//           attribute, '#' the broadcast axis attribute, '~' accepted and
//           ignored, '%' a gather_mask pattern (a name such as "P1010", or the
//           next operand: a uint32 buffer), '^' the destination (operand 0)
//           given last: upstream's npuir dialect (T.vexp(src, dst)), whose
//           spellings only npuir kernels may use
//
// Adding a tile op: one row here (and an alias row in TL_OP_ALIASES for each
// further spelling), its library routine (`run`, declared in
// exec/tileop_impl.h, with its operand accesses in exec/tileop_access.c), and
// a cost class: an existing one, or a new TL_COSTS entry with its numbers in
// every arch of target/arch.c. docs/architecture.md walks through it.
#ifndef TL_IR_OPS_H
#define TL_IR_OPS_H

#define TL_OPS(X)                                                                                  \
    /* data movement */                                                                            \
    X(TL_OP_COPY, "copy", "rw", COPY, NONE, MOVE, NONE, tl_tileop_copy_run, copy, "T.copy")        \
    X(TL_OP_ATOMIC_ADD, "atomic_add", "xr", COPY, NONE, MOVE, NONE, tl_tileop_copy_atomic_add,     \
      bind, "T.tile.atomic_add :dst :src")                                                         \
    /* the paged-KV gather GM -> L1 (exec/tileop_pa.c), on MTE2 (ir.c tl_op_pipe) */               \
    X(TL_OP_COPY_PA, "copy_pa", "wrrssssssssssss", COPY, NONE, MOVE, NONE, tl_tileop_copy_pa_run,  \
      bind,                                                                                        \
      "T.copy_pa :dst :kv :block_table :block_size :head_num :head_dim :kv_stride "                \
      ":max_block_num_per_batch :act_head_dim :copy_row_num :copy_row_num_align :b_idx :n2_idx "   \
      ":s2_idx :d_idx")                                                                            \
    /* the convolution tile load L1 NC1HWC0 -> L0A (exec/tileop_im2col.c), on MTE1 */              \
    X(TL_OP_IM2COL, "im2col", "wrssssssssssssssss", COPY, NONE, MOVE, NONE, tl_tileop_im2col_run,  \
      im2col, "T.tile.im2col")                                                                     \
    /* cube */                                                                                     \
    X(TL_OP_GEMM_V0, "gemm_v0", "rrx", GEMM, M, CUBE, NONE, tl_tileop_gemm_run, gemm, "T.gemm_v0") \
    X(TL_OP_MMA, "mma", "rrx", GEMM, M, CUBE, NONE, tl_tileop_gemm_run, gemm, "T.mma")             \
    /* vector: fill and casts */                                                                   \
    X(TL_OP_FILL, "fill", "ws", VEC, V, VOTHER, NONE, tl_tileop_vec_run, bind,                     \
      "T.tile.fill :buffer :value")                                                                \
    X(TL_OP_CAST, "cast", "wr[s]", VEC, V, VOTHER, NONE, tl_tileop_unary_run, bind,                \
      "T.tile.cast :dst :src @mode :count")                                                        \
    /* vector: binary (src1 may be a scalar) */                                                    \
    X(TL_OP_ADD, "add", "wrv", VEC, V, VADD, ADD, tl_tileop_vec_run, bind,                         \
      "T.tile.add :dst :src0 :src1")                                                               \
    X(TL_OP_SUB, "sub", "wrv", VEC, V, VADD, SUB, tl_tileop_vec_run, bind,                         \
      "T.tile.sub :dst :src0 :src1")                                                               \
    X(TL_OP_MUL, "mul", "wrv", VEC, V, VMUL, MUL, tl_tileop_vec_run, bind,                         \
      "T.tile.mul :dst :src0 :src1")                                                               \
    X(TL_OP_DIV, "div", "wrv", VEC, V, VDIV, DIV, tl_tileop_vec_run, bind,                         \
      "T.tile.div :dst :src0 :src1")                                                               \
    X(TL_OP_MAX, "max", "wrv", VEC, V, VMAX, MAX, tl_tileop_vec_run, bind,                         \
      "T.tile.max :dst :src0 :src1")                                                               \
    X(TL_OP_MIN, "min", "wrv", VEC, V, VMAX, MIN, tl_tileop_vec_run, bind,                         \
      "T.tile.min :dst :src0 :src1")                                                               \
    X(TL_OP_AND, "bitwise_and", "wrv", VEC, V, VINT, AND, tl_tileop_vec_run, bind,                 \
      "T.tile.bitwise_and :dst :src0 :src1")                                                       \
    X(TL_OP_OR, "bitwise_or", "wrv", VEC, V, VINT, OR, tl_tileop_vec_run, bind,                    \
      "T.tile.bitwise_or :dst :src0 :src1")                                                        \
    X(TL_OP_XOR, "bitwise_xor", "wrv", VEC, V, VINT, XOR, tl_tileop_vec_run, bind,                 \
      "T.tile.bitwise_xor :dst :src0 :src1 ~tmp")                                                  \
    X(TL_OP_SHL, "bitwise_lshift", "wrs", VEC, V, VINT, NONE, tl_tileop_vec_run, bind,             \
      "T.tile.bitwise_lshift :dst :src0 :scalarValue")                                             \
    X(TL_OP_SHR, "bitwise_rshift", "wrs", VEC, V, VINT, NONE, tl_tileop_vec_run, bind,             \
      "T.tile.bitwise_rshift :dst :src0 :scalarValue")                                             \
    X(TL_OP_POW, "pow", "wrv", VEC, V, VEXP, NONE, tl_tileop_vec_run, bind,                        \
      "T.tile.pow :dst :src0 :src1")                                                               \
    /* vector: unary (optional element count) */                                                   \
    X(TL_OP_EXP, "exp", "wr[s]", VEC, V, VEXP, NONE, tl_tileop_unary_run, bind,                    \
      "T.tile.exp :dst :src0 :count")                                                              \
    X(TL_OP_LN, "ln", "wr[s]", VEC, V, VEXP, NONE, tl_tileop_unary_run, bind,                      \
      "T.tile.ln :dst :src0 :count")                                                               \
    X(TL_OP_ABS, "abs", "wr[s]", VEC, V, VMAX, NONE, tl_tileop_unary_run, bind,                    \
      "T.tile.abs :dst :src0 :count")                                                              \
    X(TL_OP_RECIPROCAL, "reciprocal", "wr[s]", VEC, V, VRSQRT, NONE, tl_tileop_unary_run, bind,    \
      "T.tile.reciprocal :dst :src0 :count")                                                       \
    X(TL_OP_SQRT, "sqrt", "wr[s]", VEC, V, VDIV, NONE, tl_tileop_unary_run, bind,                  \
      "T.tile.sqrt :dst :src0 :count")                                                             \
    X(TL_OP_RSQRT, "rsqrt", "wr[s]", VEC, V, VRSQRT, NONE, tl_tileop_unary_run, bind,              \
      "T.tile.rsqrt :dst :src0 :count")                                                            \
    X(TL_OP_RELU, "relu", "wr[s]", VEC, V, VMAX, NONE, tl_tileop_unary_run, bind,                  \
      "T.tile.relu :dst :src0 :count")                                                             \
    X(TL_OP_SIGMOID, "sigmoid", "wr[s]", VEC, V, VEXP, NONE, tl_tileop_unary_run, bind,            \
      "T.tile.sigmoid :dst :src :count")                                                           \
    X(TL_OP_SILU, "silu", "wr[s]", VEC, V, VEXP, NONE, tl_tileop_unary_run, bind,                  \
      "T.tile.silu :dst :src :count")                                                              \
    X(TL_OP_SIN, "sin", "wr[s]", VEC, V, VEXP, NONE, tl_tileop_unary_run, bind,                    \
      "T.tile.sin :dst :src :count")                                                               \
    X(TL_OP_COS, "cos", "wr[s]", VEC, V, VEXP, NONE, tl_tileop_unary_run, bind,                    \
      "T.tile.cos :dst :src :count")                                                               \
    /* npuir's vtanh / verf (no Ascend C spelling; priced as exp, an estimate) */                  \
    X(TL_OP_TANH, "tanh", "wr", VEC, V, VEXP, NONE, tl_tileop_unary_run, bind,                     \
      "T.vtanh :src ^dst")                                                                         \
    X(TL_OP_ERF, "erf", "wr", VEC, V, VEXP, NONE, tl_tileop_unary_run, bind, "T.verf :src ^dst")   \
    X(TL_OP_ROUND, "round", "wr[s]", VEC, V, VOTHER, NONE, tl_tileop_unary_run, bind,              \
      "T.tile.round :out :buffer :count")                                                          \
    X(TL_OP_NOT, "bitwise_not", "wr[s]", VEC, V, VINT, NONE, tl_tileop_unary_run, bind,            \
      "T.tile.bitwise_not :dst :src0 :count")                                                      \
    /* vector: fused and scalar-parameter forms */                                                 \
    X(TL_OP_LEAKY_RELU, "leaky_relu", "wrs[s]", VEC, V, VMAX, NONE, tl_tileop_vec_run, bind,       \
      "T.tile.leaky_relu :dst :src0 :scalar_value :count")                                         \
    X(TL_OP_AXPY, "axpy", "xrs[s]", VEC, V, VMUL, NONE, tl_tileop_vec_run, bind,                   \
      "T.tile.axpy :dst :src0 :scalar_value :count")                                               \
    X(TL_OP_MUL_ADD_DST, "mul_add_dst", "xrr[s]", VEC, V, VMUL, NONE, tl_tileop_vec_run, bind,     \
      "T.tile.mul_add_dst :dst :src0 :src1 :count")                                                \
    X(TL_OP_CLAMP, "clamp", "wrss[s]", VEC, V, VMAX, NONE, tl_tileop_vec_run, bind,                \
      "T.tile.clamp :out :buffer :min_scalar :max_scalar :count")                                  \
    X(TL_OP_CLAMP_MAX, "clamp_max", "wrs[s]", VEC, V, VMAX, NONE, tl_tileop_vec_run, bind,         \
      "T.tile.clamp_max :out :buffer :scalar_value :count")                                        \
    X(TL_OP_CLAMP_MIN, "clamp_min", "wrs[s]", VEC, V, VMAX, NONE, tl_tileop_vec_run, bind,         \
      "T.tile.clamp_min :out :buffer :scalar_value :count")                                        \
    X(TL_OP_COMPARE, "compare", "wrv", VEC, V, VOTHER, NONE, tl_tileop_misc_run, bind,             \
      "T.tile.compare :dst :src0 :src1 @mode")                                                     \
    X(TL_OP_SELECT, "select", "wrrv", VEC, V, VOTHER, NONE, tl_tileop_misc_run, bind,              \
      "T.tile.select :dst :selMask :src0 :src1 @selMode")                                          \
    X(TL_OP_BROADCAST, "broadcast", "wr", VEC, V, VOTHER, NONE, tl_tileop_misc_run, bind,          \
      "T.tile.broadcast :dst :src #axis")                                                          \
    X(TL_OP_ROW_EXPAND_MUL, "row_expand_mul", "wrr", VEC, V, VMUL, MUL, tl_tileop_misc_run, bind,  \
      "T.tile.row_expand_mul :dst :src0 :src1 ~tmp")                                               \
    X(TL_OP_ROW_EXPAND_SUB, "row_expand_sub", "wrr", VEC, V, VADD, SUB, tl_tileop_misc_run, bind,  \
      "T.tile.row_expand_sub :dst :src0 :src1 ~tmp")                                               \
    X(TL_OP_ROW_EXPAND_DIV, "row_expand_div", "wrr", VEC, V, VDIV, DIV, tl_tileop_misc_run, bind,  \
      "T.tile.row_expand_div :dst :src0 :src1 ~tmp")                                               \
    /* vector: the ascendc *_experiment ops, one 256-byte repeat per row (tileop_rows.c) */        \
    X(TL_OP_ROW_EXPAND_MUL_X, "row_expand_mul_experiment", "wrr[w]", VEC, V, VMUL, MUL,            \
      tl_tileop_rows_run, bind, "T.tile.row_expand_mul_experiment :dst :src0 :src1 :tmp")          \
    X(TL_OP_ROW_EXPAND_SUB_X, "row_expand_sub_experiment", "wrr[w]", VEC, V, VADD, SUB,            \
      tl_tileop_rows_run, bind, "T.tile.row_expand_sub_experiment :dst :src0 :src1 :tmp")          \
    X(TL_OP_ROW_EXPAND_DIV_X, "row_expand_div_experiment", "wrr[w]", VEC, V, VDIV, DIV,            \
      tl_tileop_rows_run, bind, "T.tile.row_expand_div_experiment :dst :src0 :src1 :tmp")          \
    X(TL_OP_EXP_X, "exp_experiment", "wr", VEC, V, VEXP, NONE, tl_tileop_rows_run, bind,           \
      "T.tile.exp_experiment :dst :src")                                                           \
    X(TL_OP_GATHER, "gather", "wrr[s]", VEC, V, VGATHER, NONE, tl_tileop_misc_run, bind,           \
      "T.tile.gather :dst :src :src_offset :src_base_addr")                                        \
    X(TL_OP_CREATEVECINDEX, "createvecindex", "ws", VEC, V, VOTHER, NONE, tl_tileop_misc_run,      \
      bind, "T.tile.createvecindex :dst :firstValue")                                              \
    X(TL_OP_ARITH_PROGRESSION, "arith_progression", "wss[s]", VEC, V, VOTHER, NONE,                \
      tl_tileop_misc_run, bind,                                                                    \
      "T.tile.arith_progression :buffer :first_value :diff_value :count")                          \
    X(TL_OP_TRANSPOSE, "transpose", "wr", VEC, V, VOTHER, NONE, tl_tileop_misc_run, bind,          \
      "T.tile.transpose :dst :src")                                                                \
    X(TL_OP_REINTERPRETCAST, "reinterpretcast", "wr", VEC, V, VOTHER, NONE, tl_tileop_misc_run,    \
      reinterpret, "T.reinterpretcast")                                                            \
    /* reductions */                                                                               \
    X(TL_OP_REDUCE_SUM, "reduce_sum", "rx", REDUCE, V, VREDUCE, NONE, tl_tileop_reduce_run,        \
      reduce, "T.reduce_sum")                                                                      \
    X(TL_OP_REDUCE_MAX, "reduce_max", "rx", REDUCE, V, VREDUCE, NONE, tl_tileop_reduce_run,        \
      reduce, "T.reduce_max")                                                                      \
    X(TL_OP_REDUCE_MIN, "reduce_min", "rx", REDUCE, V, VREDUCE, NONE, tl_tileop_reduce_run,        \
      reduce, "T.reduce_min")                                                                      \
    /* |x| summed / maxed (one abs pass, then the reduction); cumsum(src, dst): the running  */    \
    /* sums along dim (reverse: from the end), dst the size of src (exec/tileop_reduce.c)    */    \
    X(TL_OP_REDUCE_ABSSUM, "reduce_abssum", "rx", REDUCE, V, VREDUCE, NONE, tl_tileop_reduce_run,  \
      reduce, "T.reduce_abssum")                                                                   \
    X(TL_OP_REDUCE_ABSMAX, "reduce_absmax", "rx", REDUCE, V, VREDUCE, NONE, tl_tileop_reduce_run,  \
      reduce, "T.reduce_absmax")                                                                   \
    X(TL_OP_CUMSUM, "cumsum", "rx", REDUCE, V, VREDUCE, NONE, tl_tileop_cumsum_run, cumsum,        \
      "T.cumsum")                                                                                  \
    /* state */                                                                                    \
    X(TL_OP_SET_DEQ_SCALE, "set_deq_scale", "s", STATE, V, VOTHER, NONE, tl_tileop_deq_scale_run,  \
      deq_scale, "T.set_deq_scale")                                                                \
    /* vector: sorting, brcb (sized element ranges, tileop_sort.c) */                              \
    X(TL_OP_SORT, "sort", "wxs", VEC, V, VSORT, NONE, tl_tileop_sort_run, bind,                    \
      "T.tile.sort :dst :src :actual_num")                                                         \
    X(TL_OP_TOPK, "topk", "wxss", VEC, V, VSORT, NONE, tl_tileop_sort_run, bind,                   \
      "T.tile.topk :dst :src :K :actual_num")                                                      \
    X(TL_OP_MERGE_SORT, "merge_sort", "wrr[rr]", VEC, V, VSORT, NONE, tl_tileop_sort_run, bind,    \
      "T.tile.merge_sort :dst :src0 :src1 :src2 :src3")                                            \
    X(TL_OP_GATHER_MASK, "gather_mask", "wr[r]", VEC, V, VGATHERMASK, NONE, tl_tileop_sort_run,    \
      bind, "T.tile.gather_mask :dst :src %src1Pattern")                                           \
    X(TL_OP_BRCB, "brcb_experiment", "wrsss", VEC, V, VOTHER, NONE, tl_tileop_sort_run, bind,      \
      "T.tile.brcb_experiment :dst :src :repeat_times :dst_blk_stride :dst_repeat_stride")         \
    X(TL_OP_INIT_SORT_BUF, "init_sort_buf", "wss", VEC, V, VOTHER, NONE, tl_tileop_sort_run, bind, \
      "T.tile.init_sort_buf :buffer :num :rsv")                                                    \
    /* vector: AscendC's repeat-form instructions (sized ranges, tileop_repeat.c) */               \
    /* block_reduce_max's "dstPepStride" is upstream's own keyword spelling (ascend_tile.py) */    \
    X(TL_OP_BLOCK_REDUCE_SUM, "block_reduce_sum", "wrsssss", VEC, V, VREDUCE, NONE,                \
      tl_tileop_repeat_run, bind,                                                                  \
      "T.tile.block_reduce_sum :dst :src :repeat :mask :dstRepStride :srcBlkStride "               \
      ":srcRepStride")                                                                             \
    X(TL_OP_BLOCK_REDUCE_MAX, "block_reduce_max", "wrsssss", VEC, V, VREDUCE, NONE,                \
      tl_tileop_repeat_run, bind,                                                                  \
      "T.tile.block_reduce_max :dst :src :repeat :mask :dstPepStride :srcBlkStride "               \
      ":srcRepStride")                                                                             \
    X(TL_OP_BLOCK_REDUCE_MIN, "block_reduce_min", "wrsssss", VEC, V, VREDUCE, NONE,                \
      tl_tileop_repeat_run, bind,                                                                  \
      "T.tile.block_reduce_min :dst :src :repeat :mask :dstRepStride :srcBlkStride "               \
      ":srcRepStride")                                                                             \
    X(TL_OP_WHOLE_REDUCE_SUM, "wholereducesum", "wrsssss", VEC, V, VREDUCE, NONE,                  \
      tl_tileop_repeat_run, bind,                                                                  \
      "T.tile.wholereducesum :dst :src :mask :repeattimes :dstrepstride :srcblkstride "            \
      ":srcrepstride")                                                                             \
    X(TL_OP_WHOLE_REDUCE_MAX, "wholereducemax", "wrsssss", VEC, V, VREDUCE, NONE,                  \
      tl_tileop_repeat_run, bind,                                                                  \
      "T.tile.wholereducemax :dst :src :mask :repeattimes :dstrepstride :srcblkstride "            \
      ":srcrepstride @ReduceOrder")                                                                \
    X(TL_OP_WHOLE_REDUCE_MIN, "wholereducemin", "wrsssss", VEC, V, VREDUCE, NONE,                  \
      tl_tileop_repeat_run, bind,                                                                  \
      "T.tile.wholereducemin :dst :src :mask :repeattimes :dstrepstride :srcblkstride "            \
      ":srcrepstride @ReduceOrder")                                                                \
    /* AscendC's ReduceSum of count elements (tensor-front form) into dst[0] */                    \
    X(TL_OP_REDUCE_SUM_X, "reduce_sum_experiment", "wrs", VEC, V, VREDUCE, NONE,                   \
      tl_tileop_repeat_run, bind, "T.tile.reduce_sum_experiment :dst :src :count")                 \
    X(TL_OP_REDUCE_SUM_MASK_X, "reduce_sum_mask_experiment", "wrsss", VEC, V, VREDUCE, NONE,       \
      tl_tileop_repeat_run, bind,                                                                  \
      "T.tile.reduce_sum_mask_experiment :dst :src :mask :repeatTime :srcRepStride")               \
    /* AscendC's BilinearInterpolation (deprecated upstream; exec/tileop_bilinear.c) */            \
    X(TL_OP_BILINEAR, "bilinear_interpolation", "wrrrssssss", VEC, V, VGATHERB, NONE,              \
      tl_tileop_bilinear_run, bind,                                                                \
      "T.tile.bilinear_interpolation :dst :src0 :src0_offset :src1 :mask :h_repeat :repeat_mode "  \
      ":dst_blk_stride :v_r_offset :v_repeat")                                                     \
    X(TL_OP_SORT32, "sort32", "wrr", VEC, V, VSORT, NONE, tl_tileop_repeat_run, bind,              \
      "T.tile.sort32 :dst :src0 :src1")                                                            \
    X(TL_OP_GATHERB, "gatherb", "wrrsss", VEC, V, VGATHERB, NONE, tl_tileop_repeat_run, bind,      \
      "T.tile.gatherb :dst :src0 :offset :repeat_time :dst_blk_stride :dst_rep_stride")

// The ops whose operands' touched elements their sizes decide (sort .. the
// repeat-form instructions): tl_tileop_sort_ranges, not their regions.
#define TL_OP_SIZED_FIRST TL_OP_SORT
#define TL_OP_SIZED_LAST  TL_OP_GATHERB

// Further spellings of an op: X(id, front, api) as in TL_OPS.
#define TL_OP_ALIASES(X)                                                                           \
    X(TL_OP_EXP_X, bind, "T.exp_experiment :dst :src")                                             \
    X(TL_OP_REINTERPRETCAST, reinterpret, "T.tile.reinterpretcast")                                \
    X(TL_OP_BLOCK_REDUCE_SUM, bind,                                                                \
      "T.block_reduce_sum :dst :src :repeat :mask :dstRepStride :srcBlkStride :srcRepStride")      \
    X(TL_OP_BLOCK_REDUCE_MAX, bind,                                                                \
      "T.block_reduce_max :dst :src :repeat :mask :dstPepStride :srcBlkStride :srcRepStride")      \
    X(TL_OP_BLOCK_REDUCE_MIN, bind,                                                                \
      "T.block_reduce_min :dst :src :repeat :mask :dstRepStride :srcBlkStride :srcRepStride")      \
    X(TL_OP_SORT32, bind, "T.sort32 :dst :src0 :src1")                                             \
    X(TL_OP_GATHERB, bind,                                                                         \
      "T.gatherb :dst :src0 :offset :repeat_time :dst_blk_stride :dst_rep_stride")                 \
    X(TL_OP_FILL, clear, "T.tile.clear")                                                           \
    /* upstream's ascendc row_expand_mul (its PTO one keeps the plain name)                  */    \
    X(TL_OP_ROW_EXPAND_MUL, bind, "T.tile.row_expand_mul_nd :dst :src0 :src1 ~tmp")                \
    /* the T-level names of upstream's front end before the T.tile namespace (ascend.py      */    \
    /* until 2025-12-08, pto.py): same ops, same parameters; T.exp/abs/sqrt/rsqrt/max/min    */    \
    /* with a buffer first dispatch here from their expression forms (front/tapi.c)          */    \
    X(TL_OP_ADD, bind, "T.add :dst :src0 :src1")                                                   \
    X(TL_OP_SUB, bind, "T.sub :dst :src0 :src1")                                                   \
    X(TL_OP_MUL, bind, "T.mul :dst :src0 :src1")                                                   \
    X(TL_OP_DIV, bind, "T.div :dst :src0 :src1")                                                   \
    X(TL_OP_AND, bind, "T.and_tl :dst :src0 :src1")                                                \
    X(TL_OP_OR, bind, "T.or_tl :dst :src0 :src1")                                                  \
    X(TL_OP_AND, bind, "T.tile.and_tl :dst :src0 :src1")                                           \
    X(TL_OP_OR, bind, "T.tile.or_tl :dst :src0 :src1")                                             \
    X(TL_OP_LN, bind, "T.ln :dst :src0 :count")                                                    \
    X(TL_OP_RECIPROCAL, bind, "T.reciprocal :dst :src0 :count")                                    \
    X(TL_OP_RELU, bind, "T.relu :dst :src0 :count")                                                \
    X(TL_OP_NOT, bind, "T.not_tl :dst :src0 :count")                                               \
    X(TL_OP_NOT, bind, "T.tile.not_tl :dst :src0 :count")                                          \
    X(TL_OP_LEAKY_RELU, bind, "T.leaky_relu :dst :src0 :scalar_value :count")                      \
    X(TL_OP_AXPY, bind, "T.axpy :dst :src0 :scalar_value :count")                                  \
    X(TL_OP_SHL, bind, "T.shiftleft :dst :src0 :scalarValue")                                      \
    X(TL_OP_SHR, bind, "T.shiftright :dst :src0 :scalarValue")                                     \
    X(TL_OP_COMPARE, bind, "T.compare :dst :src0 :src1 @mode")                                     \
    X(TL_OP_SELECT, bind, "T.select :dst :selMask :src0 :src1 @selMode")                           \
    X(TL_OP_GATHER, bind, "T.gather :dst :src :src_offset :src_base_addr")                         \
    X(TL_OP_CREATEVECINDEX, bind, "T.createvecindex :dst :firstValue")                             \
    X(TL_OP_TRANSPOSE, bind, "T.transpose :dst :src")                                              \
    /* upstream's npuir dialect (target="npuir", customize_npuir.py): the destination LAST,    */    \
    /* marked '^'; only in npuir kernels (front/tapi_ops.c, front/tapi_npuir.c)              */    \
    X(TL_OP_ADD, bind, "T.vadd :A :B ^C")                                                          \
    X(TL_OP_SUB, bind, "T.vsub :A :B ^C")                                                          \
    X(TL_OP_MUL, bind, "T.vmul :A :B ^C")                                                          \
    X(TL_OP_DIV, bind, "T.vdiv :A :B ^C")                                                          \
    X(TL_OP_MAX, bind, "T.vmax :A :B ^C")                                                          \
    X(TL_OP_MIN, bind, "T.vmin :A :B ^C")                                                          \
    X(TL_OP_OR, bind, "T.vor :A :B ^C")                                                            \
    X(TL_OP_AND, bind, "T.vand :A :B ^C")                                                          \
    X(TL_OP_XOR, bind, "T.vxor :A :B ^C")                                                          \
    X(TL_OP_POW, bind, "T.vpow :A :B ^C")                                                          \
    X(TL_OP_SHL, bind, "T.vshl :A :B ^C")                                                          \
    X(TL_OP_EXP, bind, "T.vexp :A ^B")                                                             \
    X(TL_OP_RELU, bind, "T.vrelu :A ^B")                                                           \
    X(TL_OP_SIGMOID, bind, "T.vsigmoid :A ^B")                                                     \
    X(TL_OP_LN, bind, "T.vln :A ^B")                                                               \
    X(TL_OP_SQRT, bind, "T.vsqrt :A ^B")                                                           \
    X(TL_OP_RSQRT, bind, "T.vrsqrt :A ^B")                                                         \
    X(TL_OP_ABS, bind, "T.vabs :A ^B")                                                             \
    X(TL_OP_RECIPROCAL, bind, "T.vrec :A ^B")                                                      \
    X(TL_OP_NOT, bind, "T.vnot :A ^B")                                                             \
    X(TL_OP_SIN, bind, "T.vsin :src ^dst")                                                         \
    X(TL_OP_COS, bind, "T.vcos :src ^dst")                                                         \
    /* T.tile.reduce_*(dst, src, tmp, dim): the destination first (front/tapi_ops.c) */            \
    X(TL_OP_REDUCE_SUM, reduce, "T.tile.reduce_sum")                                               \
    X(TL_OP_REDUCE_MAX, reduce, "T.tile.reduce_max")                                               \
    X(TL_OP_REDUCE_MIN, reduce, "T.tile.reduce_min")

// Cost classes: what the chip model prices an op as. MOVE: a transfer priced
// by its path (the pipe its scopes pick; on the vector pipe, a UB -> UB copy);
// CUBE: mmad fractal steps; the V classes: vector ops, 256-byte repeats with
// the class's latency after the last one (VSORT: repeats from the sort's
// pairs and merge rounds; VGATHER, VGATHERB, VGATHERMASK: the gathers at
// their own published rates, target/arch.c).
#define TL_COSTS(X)                                                                                \
    X(TL_COST_MOVE)                                                                                \
    X(TL_COST_CUBE)                                                                                \
    X(TL_COST_VADD)                                                                                \
    X(TL_COST_VMUL)                                                                                \
    X(TL_COST_VDIV)                                                                                \
    X(TL_COST_VEXP)                                                                                \
    X(TL_COST_VRSQRT)                                                                              \
    X(TL_COST_VMAX)                                                                                \
    X(TL_COST_VREDUCE)                                                                             \
    X(TL_COST_VINT)                                                                                \
    X(TL_COST_VSORT)                                                                               \
    X(TL_COST_VGATHER)                                                                             \
    X(TL_COST_VGATHERB)                                                                            \
    X(TL_COST_VGATHERMASK)                                                                         \
    X(TL_COST_VOTHER)

#endif
