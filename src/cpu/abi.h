// The interface between a generated kernel module (a shared object compiled
// from the C that cgen.c writes) and the runtime that loads it (cpurt.c).
//
// The module does not link against libtilec: everything it needs from the
// runtime comes through the function table tlc_rt_t, passed on every call.
// cgen.c writes the same declarations as text at the top of every module
// (cgen_prelude.c); TL_CPU_ABI changes whenever these structs change, and
// the loader rejects a module built for another ABI.
#ifndef TL_CPU_ABI_H
#define TL_CPU_ABI_H

#include <stdint.h>

#define TL_CPU_ABI 4

// A tile-op scalar operand (the same layout as tl_scalar_t in exec/tileop.h).
typedef struct {
    _Bool is_float;
    int64_t i;
    double f;
} tlc_scalar_t;

// Read-only per-run data: dims and scalar parameters by variable id, GM
// tensors by buffer id (data and shape, TL_MAX_DIMS entries per buffer).
typedef struct {
    const int64_t *gi;
    const double *gf;
    uint8_t *const *gm;
    const int64_t *gshape;
    const int *gndim;
} tlc_env_t;

// One agent (AIC, AIV0, AIV1) as the module sees it: its scratchpads by
// scope (tl_scope_t order), its vector core index, and the runtime's agent.
typedef struct {
    uint8_t *mem[16];
    int64_t vid;
    void *ag;
} tlc_lane_t;

// A run-time error detected by generated code: the site (see tl_cgen_site_t)
// and up to 8 values for the message (indices, divisors).
typedef struct {
    int site;
    int n;
    int64_t v[8];
} tlc_err_t;

typedef struct {
    // Tile op `site` on lane: region starts and extents (per region operand,
    // start[0..ndim) then extent[0..ndim)) and scalar operands in order, then
    // gemm init and copy pad values. Returns a tl_status_t.
    int (*op)(tlc_lane_t *lane, int site, const int64_t *nums, const tlc_scalar_t *sc);
    // Cross-core flags and T.sync_all (may switch to another agent).
    int (*sync)(tlc_lane_t *lane, int site, int64_t id);
    // Reports a run-time error; returns its status.
    int (*fail)(tlc_lane_t *lane, const tlc_err_t *e);
    // Rounds a double (or an integer, when is_int) once to float dtype t.
    double (*round)(int t, double v, int64_t i, int is_int);
    // tl_expf (base/fexp.h), the exp of scalar float expressions as of tile ops.
    float (*fexp)(float x);
} tlc_rt_t;

typedef int (*tlc_agent_fn)(const tlc_rt_t *rt, const tlc_env_t *env, tlc_lane_t *lanes,
                            int64_t cid);

// What a module exports (symbol "tlk_module").
typedef struct {
    int abi;
    const char *key; // the cache key the module was built for
    // Expert mode: the cube agent and the vector agents (lanes[0]); developer
    // mode: `block` runs one block on lanes[0..2] (AIC, AIV0, AIV1).
    tlc_agent_fn cube, vec, block;
} tlc_module_t;

#endif
