/* tilec — compile and run TileLang-Ascend kernels from C.
 *
 * A context owns everything and keeps the formatted diagnostic of the last
 * failed call. Kernels are compiled from a file or a string with factory
 * arguments, their parameters can be queried, and they are launched on a
 * target with caller-owned tensors. Every call returns a status; nothing in the
 * library prints or exits. Contexts are independent: separate contexts can be
 * used from separate threads at the same time (one context is not thread-safe).
 *
 *   tilec_context_t *ctx;
 *   tilec_context_create(&ctx);
 *   tilec_arg_t args[] = {{"M", "1024"}, {"N", "1024"}};
 *   tilec_compile_options_t o = {.args = args, .nargs = 2};
 *   tilec_kernel_t *k;
 *   if (tilec_compile_file(ctx, "gemm.py", &o, &k) != TILEC_OK)
 *       fprintf(stderr, "%s", tilec_context_error(ctx));
 *   tilec_value_t v[3] = {tilec_tensor(a, TILEC_F16, 2, shape_a), ...};
 *   tilec_launch(k, TILEC_TARGET_REF, v, 3, NULL);
 *   tilec_kernel_destroy(k);
 *   tilec_context_destroy(ctx);
 */
#ifndef TILEC_H
#define TILEC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TILEC_API __attribute__((visibility("default")))

typedef enum {
    TILEC_OK = 0,
    TILEC_ERR_COMPILE = -1,     /* the kernel file has an error (see tilec_context_error) */
    TILEC_ERR_RUNTIME = -2,     /* the kernel failed while running (bounds, deadlock, ...) */
    TILEC_ERR_IO = -3,
    TILEC_ERR_FORMAT = -4,
    TILEC_ERR_ARG = -5,         /* a bad argument to the API */
    TILEC_ERR_NOMEM = -6,
    TILEC_ERR_UNSUPPORTED = -7, /* e.g. a target not built into this library */
    TILEC_ERR_MISMATCH = -8,
    TILEC_ERR_RACE = -9,        /* the simulator found races or sync misuse */
    TILEC_ERR_INTERNAL = -10,
} tilec_status_t;

/* Element types (same order as tilec's internal table). */
typedef enum {
    TILEC_BOOL, TILEC_I8, TILEC_U8, TILEC_I16, TILEC_U16, TILEC_I32, TILEC_U32, TILEC_I64,
    TILEC_U64, TILEC_F8E4M3, TILEC_F8E5M2, TILEC_F16, TILEC_BF16, TILEC_F32, TILEC_F64,
    TILEC_DTYPE_COUNT
} tilec_dtype_t;

typedef enum {
    TILEC_TARGET_REF, /* the reference semantics (functional executor) */
    TILEC_TARGET_SIM, /* the modeled Ascend core: values, races, cycles */
    TILEC_TARGET_CPU, /* native code on the host CPU */
    TILEC_TARGET_PTO, /* PTO-ISA C++ on pto-isa's CPU implementation ($PTO_ISA_DIR) */
} tilec_target_t;

typedef struct tilec_context tilec_context_t;
typedef struct tilec_kernel tilec_kernel_t;

typedef struct {
    const char *name;
    const char *value; /* a Python expression: "128", "'float16'", "(64, 128)" */
} tilec_arg_t;

typedef struct {
    const char *kernel;             /* factory / prim_func name; NULL: the file's only one */
    const tilec_arg_t *args;        /* factory arguments */
    int nargs;
    const tilec_arg_t *pass_configs; /* e.g. {"tl.ascend_auto_sync", "True"} */
    int npass_configs;
    const char *out_idx; /* override @tilelang.jit(out_idx=...), a Python expression */
} tilec_compile_options_t;

typedef enum { TILEC_PARAM_INPUT, TILEC_PARAM_OUTPUT, TILEC_PARAM_WORKSPACE } tilec_param_role_t;

enum { TILEC_MAX_DIMS = 8 };

typedef struct {
    const char *name;
    int is_tensor;            /* 0: a scalar parameter */
    tilec_param_role_t role;
    tilec_dtype_t dtype;
    int ndim;
    /* per dimension: its size, or -1 when it depends on a symbolic dim, whose
       expression is in shape_expr (e.g. "M", "b * m") */
    int64_t shape[TILEC_MAX_DIMS];
    const char *shape_expr[TILEC_MAX_DIMS];
} tilec_param_info_t;

/* A launch argument: a caller-owned contiguous tensor or a scalar value. For
   outputs the caller provides memory of the right shape; a workspace may be
   left NULL (allocated internally). */
typedef struct {
    void *data; /* NULL for a scalar, or for an internal workspace */
    tilec_dtype_t dtype;
    int ndim;
    int64_t shape[TILEC_MAX_DIMS];
    int is_scalar;
    int64_t i; /* scalar value for integer parameters */
    double f;  /* scalar value for float parameters */
} tilec_value_t;

/* What the simulator measured (TILEC_TARGET_SIM); other targets fill `seconds`. */
typedef struct {
    double seconds;       /* host wall time of the launch */
    int64_t cycles;       /* simulated cycles */
    double time_us;       /* device time: kernel start + cycles at the modeled clock */
    int races;            /* races and sync misuse found (benign races excluded) */
    int benign_races;
    char *json;           /* the full report as JSON (free with tilec_free), or NULL */
} tilec_report_t;

TILEC_API const char *tilec_version(void);
/* A target's name as `tilec run --target` spells it ("ref", "sim", "cpu",
   "pto"), or NULL for a value that is no target. */
TILEC_API const char *tilec_target_name(tilec_target_t target);
TILEC_API const char *tilec_status_str(tilec_status_t s);

TILEC_API tilec_status_t tilec_context_create(tilec_context_t **out);
TILEC_API void tilec_context_destroy(tilec_context_t *ctx);
/* The formatted diagnostics of the last failed call on this context (with
   file:line:col, the source line and a caret), or "" */
TILEC_API const char *tilec_context_error(const tilec_context_t *ctx);

TILEC_API tilec_status_t tilec_compile_file(tilec_context_t *ctx, const char *path,
                                            const tilec_compile_options_t *opts,
                                            tilec_kernel_t **out);
/* `name` is used in diagnostics and to resolve imports relative to its folder. */
TILEC_API tilec_status_t tilec_compile_string(tilec_context_t *ctx, const char *name,
                                              const char *source,
                                              const tilec_compile_options_t *opts,
                                              tilec_kernel_t **out);
TILEC_API void tilec_kernel_destroy(tilec_kernel_t *k);

/* The kernel's name: the factory, builder or prim_func compiled (what
   tilec_compile_options_t.kernel names, e.g. "act_quant"), not the prim_func's
   own name ("main" in most files). */
TILEC_API const char *tilec_kernel_name(const tilec_kernel_t *k);
TILEC_API int tilec_kernel_num_params(const tilec_kernel_t *k);
TILEC_API tilec_status_t tilec_kernel_param(const tilec_kernel_t *k, int index,
                                            tilec_param_info_t *info);
/* Symbolic dims, in order of appearance (names valid while the kernel lives). */
TILEC_API int tilec_kernel_num_dims(const tilec_kernel_t *k);
TILEC_API const char *tilec_kernel_dim_name(const tilec_kernel_t *k, int index);
/* The shape of tensor parameter `index` for given values of the symbolic dims
   (`dims[i]` is the value of tilec_kernel_dim_name(k, i)); fails when a needed
   dim is missing (-1). */
TILEC_API tilec_status_t tilec_kernel_param_shape(const tilec_kernel_t *k, int index,
                                                  const int64_t *dims, int64_t *shape);
/* The IR as text (free with tilec_free). */
TILEC_API char *tilec_kernel_ir(const tilec_kernel_t *k);

/* Options of the simulator target (TILEC_TARGET_SIM); all zero: the defaults. */
typedef enum {
    TILEC_L2_COLD, /* every GM tensor starts in HBM: a line's first read misses (default) */
    TILEC_L2_WARM, /* the input tensors start L2-resident, as far as the L2 holds them (in a
                      model the previous operator has just written them) */
} tilec_l2_t;

typedef struct {
    const char *arch; /* "a2" (default) or "a3" */
    tilec_l2_t l2;
    int no_races;     /* 1: model time only, no race detection */
} tilec_sim_options_t;

/* The options of this kernel's later TILEC_TARGET_SIM launches (copied; NULL:
   the defaults). An unknown arch or l2 gives TILEC_ERR_ARG. */
TILEC_API tilec_status_t tilec_kernel_set_sim_options(tilec_kernel_t *k,
                                                      const tilec_sim_options_t *opts);

/* Runs the kernel. `values` has one entry per parameter, in order. Symbolic
   dims are taken from the tensors' shapes. `report` may be NULL. On
   TILEC_TARGET_SIM, races or sync misuse give TILEC_ERR_RACE (the outputs are
   still written and the report is filled; report->json is the full report). */
TILEC_API tilec_status_t tilec_launch(tilec_kernel_t *k, tilec_target_t target,
                                      const tilec_value_t *values, int nvalues,
                                      tilec_report_t *report);

/* Convenience constructors for launch arguments. */
TILEC_API tilec_value_t tilec_tensor(void *data, tilec_dtype_t dtype, int ndim,
                                     const int64_t *shape);
TILEC_API tilec_value_t tilec_scalar_int(int64_t v);
TILEC_API tilec_value_t tilec_scalar_float(double v);

TILEC_API void tilec_free(void *p);

#ifdef __cplusplus
}
#endif
#endif
