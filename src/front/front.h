// The front end's entry point: a kernel file (plus the kernel name and factory
// arguments the user gives) to verified Tile IR.
//
//   tl_front_compile(arena, "kernels/gemm.py", &opts, diag, &kernel)
//
// runs: read + parse the file, evaluate its top level (tolerantly), pick the
// kernel, evaluate the factory with the arguments, trace the @T.prim_func body,
// apply the @tilelang.jit settings (out_idx, workspace_idx, pass_configs),
// verify. Everything lives in `arena`.
#ifndef TL_FRONT_FRONT_H
#define TL_FRONT_FRONT_H

#include "front/eval.h"

typedef struct {
    const char *name;  // factory argument name
    const char *value; // a Python expression (`128`, `"float16"`, `lambda a, b: a + b`)
} tl_front_arg_t;

// The NPU that driver code sees through torch.npu.get_device_properties().
typedef struct {
    const char *name; // the SoC name torch_npu reports ("Ascend910B2")
    int cube_cores, vector_cores;
} tl_front_chip_t;

typedef struct {
    const char *kernel; // -k NAME: factory, builder, prim_func or Class.method; NULL = the only one
    int nargs;
    const tl_front_arg_t *args; // -a NAME=VALUE
    const char *out_idx;        // --out-idx (Python expression), overrides the jit's
    int npass_configs;
    const tl_front_arg_t *pass_configs; // --pass-config KEY=VALUE
    const tl_front_chip_t *chip;        // NULL: torch.npu is not modelled (an opaque stand-in)
    long max_steps; // statements compile-time evaluation may run; 0: TL_EVAL_MAX_STEPS
} tl_front_opts_t;

tl_status_t tl_front_compile(tl_arena_t *arena, const char *path, const tl_front_opts_t *opts,
                             tl_diag_t *d, tl_kernel_t **out);
// `tilec list`: the file's @tilelang.jit factories and builders with their
// parameters and defaults, and its module-level prim_funcs with their
// parameters, one entry a line (appended to out).
tl_status_t tl_front_list(tl_arena_t *arena, const char *path, const tl_front_opts_t *opts, tl_buf_t *out,
                          tl_diag_t *d);
// The same with the file's text given (path used for messages and imports).
tl_status_t tl_front_compile_source(tl_arena_t *arena, const char *path, const char *text,
                                    const tl_front_opts_t *opts, tl_diag_t *d, tl_kernel_t **out);

// --- shared by the front-end files ------------------------------------------------------------
// Loads (once) and evaluates a file; NULL on error (reported).
tl_module_rec_t *tl_front_load_file(tl_eval_t *ev, const char *path, const char *modname);
tl_module_rec_t *tl_front_load_text(tl_eval_t *ev, const char *path, const char *text);
tl_env_t *tl_front_module_globals(tl_module_rec_t *rec);
const tl_ast_module_t *tl_front_module_ast(tl_module_rec_t *rec);
const tl_source_t *tl_front_module_source(tl_module_rec_t *rec);
// Sets m.name to the builtin fn (called with self as c->self: a bound method).
void tl_front_def(tl_eval_t *ev, tl_value_t *m, const char *name, tl_builtin_fn fn);
void tl_front_def_self(tl_eval_t *ev, tl_value_t *m, const char *name, tl_builtin_fn fn,
                       tl_value_t *self);
// Builds the modelled modules (builtins, math, tilelang, T) into ev.
void tl_front_install_builtins(tl_eval_t *ev);
void tl_front_install_tilelang(tl_eval_t *ev);
// Whether `name` is a pass config key tilec knows (either spelling: tl.ascend_auto_sync or
// TL_ASCEND_AUTO_SYNC); when not, *near is the closest key or NULL. *known lists them.
bool tl_front_pass_config_known(tl_eval_t *ev, const char *name, const char **near, const char **known);
// The PassConfigKey member name of a key string (tl.ascend_auto_sync -> TL_ASCEND_AUTO_SYNC), or NULL.
const char *tl_front_pass_key_name(const char *string);
void tl_front_install_lang(tl_eval_t *ev);
void tl_front_install_pymods(tl_eval_t *ev);
// os (an empty environment) and the chip torch.npu describes (pyenv.c).
void tl_front_install_env(tl_eval_t *ev, const tl_front_opts_t *opts);
// A model of torch.npu / torch_npu.npu named `name`; NULL without a chip.
tl_value_t *tl_front_npu_module(tl_eval_t *ev, const char *name);
// open() into an in-memory file system, os.path, importlib.util (pyfiles.c).
void tl_front_install_pyfiles(tl_eval_t *ev);
// The text the host code wrote to `path` (NULL when it wrote none).
const char *tl_front_vfs_get(tl_eval_t *ev, const char *path);
// The module value exposing a loaded file's globals.
tl_value_t *tl_front_module_ns(tl_module_rec_t *rec);
// tvm with tvm.tir's expression helpers (pytvm.c).
void tl_front_install_tvm(tl_eval_t *ev);
void tl_front_install_tile_ops(tl_eval_t *ev, tl_value_t *lang, tl_value_t *tile);
// Upstream's npuir dialect (tapi_npuir.c): T.clear, T.fill, T.vbrc, T.vcast, T.vclamp,
// T.vexp2/vlog2 and the family's members tilec does not implement (located errors).
void tl_front_install_npuir(tl_eval_t *ev, tl_value_t *T);
// ... and its T.npuir_* long names (after the op table's rows are installed).
void tl_front_install_npuir_names(tl_eval_t *ev, tl_value_t *T);
// Whether the kernel being traced is an npuir one (@tilelang.jit(target="npuir")); the
// _require form reports that `fname` needs one.
bool tl_front_npuir(tl_eval_t *ev);
bool tl_front_npuir_require(tl_eval_t *ev, tl_loc_t loc, const char *fname);
// An npuir kernel without T.Scope runs its vector code once per block (bishengir's AIV
// kernel: one vector core; a developer-mode MIX kernel: modelled as C:V = 1:1):
// k->threads = 1 unless T.Kernel gave it; expert (T.Scope) kernels keep 1:2.
void tl_front_npuir_kernel(tl_kernel_t *k);
// An npuir expert kernel: one with T.Scope (bishengir's separate AIC and AIV functions).
bool tl_front_npuir_expert(const tl_kernel_t *k);
// npuir's implicit broadcast of a binary op (T.vadd(a[:, :], b[0, :], c[:, :])): the op
// once per row of its 2-D destination, a (1, N) operand's row repeated, a second operand
// of (M, 1) read as a scalar per row; *done when it emitted them (then `s` is dropped).
bool tl_front_npuir_broadcast(tl_eval_t *ev, tl_stmt_t *s, const char *fname, bool *done);
// An npuir T.copy whose regions' constant shapes differ without their unit dimensions: an error.
// A whole buffer against a slice of the same rank first takes the slice's extents (npuir's rule).
bool tl_front_npuir_copy_check(tl_eval_t *ev, tl_op_t *op, tl_loc_t loc);
// npuir's tensors used by both cores (npuir_flow.c): kept in UB, their GEMM uses given L1 /
// L0C twins with the copies between them; fragments the vector cores compute on in UB.
void tl_front_npuir_flow(tl_eval_t *ev, tl_kernel_t *k);
// npuir's size= (customize_npuir.py, copy.py): a list of extents, the trailing ones
// for an operand of lower rank (n = 0: none given).
typedef struct {
    int n;
    tl_expr_t *e[TL_MAX_DIMS];
} tl_npuir_size_t;
// An npuir T.copy's own parameters (src, dst, coalesced_width, size): size= read into *size
// and the last two removed from the call; false after an error.
bool tl_front_npuir_copy_args(tl_eval_t *ev, tl_call_t *c, tl_npuir_size_t *size);
// npuir's reduce_sum / reduce_max / reduce_min(buffer, out, dim=-1, size=None, clear=True):
// size= read into *size and removed from the call (clear= keeps its place after dim).
bool tl_front_npuir_reduce_args(tl_eval_t *ev, tl_call_t *c, const char *fname, tl_npuir_size_t *size);
// The operand region npuir's _to_region makes: a slice keeps its extents; a whole buffer
// (from its origin) or a point (from its indices) takes size= (else its shape / unit extents).
void tl_front_npuir_extent(tl_eval_t *ev, tl_region_t *r, const tl_npuir_size_t *size, tl_loc_t loc);
// buf.access_ptr(...) and T.call_extern("tl::ascend::copy_ub_to_ub<...>", ...) (tapi_extern.c).
tl_value_t *tl_front_access_ptr(tl_eval_t *ev, tl_value_t *buf);
tl_value_t *tl_front_extern_copy_ub(tl_eval_t *ev, tl_call_t *c, const char *name);
// Trace-time checks of the sorting ops (sort, topk, merge_sort, gather_mask,
// init_sort_buf): operand dtypes and, where sizes are constant, the element
// counts they read and write (tapi_sort.c). False after reporting an error.
bool tl_front_check_sort_op(tl_eval_t *ev, const tl_op_t *op, tl_loc_t loc);
// Traces a @T.prim_func function now (KERNEL value with kernel set).
tl_value_t *tl_front_trace(tl_eval_t *ev, tl_value_t *fn, tl_loc_t loc);
// Instantiates a jit factory with a call (returns a traced KERNEL value with
// the jit's settings applied).
tl_value_t *tl_front_instantiate(tl_eval_t *ev, tl_value_t *jit, tl_call_t *call);
// Calls a jit value (deferred while a file loads, see tilelang.c).
tl_value_t *tl_front_call_jit(tl_eval_t *ev, tl_value_t *jit, tl_call_t *call);
// Applies out_idx / workspace_idx / pass_configs / target values to a kernel.
// Errors point at the keyword in `cfg` (the @tilelang.jit call) when given, else at loc.
bool tl_front_apply_jit(tl_eval_t *ev, tl_kernel_t *k, tl_value_t *out_idx,
                        tl_value_t *workspace_idx, tl_value_t *pass_configs, tl_value_t *target,
                        const tl_call_t *cfg, tl_loc_t loc);
const char *tl_trace_unique_name(tl_eval_t *ev, const char *base);

#endif
