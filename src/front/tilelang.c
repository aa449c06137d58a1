// The `tilelang` module: @tilelang.jit, tilelang.compile, tilelang.cdiv,
// DataType, PassConfigKey and the no-op cache/logging helpers; applying the
// jit settings (out_idx, workspace_idx, pass_configs, target) to a kernel.
#include "front/front.h"

#include <string.h>

// Both spellings of the Ascend pass switches tilec reads.
static const struct {
    const char *key, *string;
} pass_keys[] = {
    {"TL_ASCEND_AUTO_SYNC", "tl.ascend_auto_sync"},
    {"TL_ASCEND_MEMORY_PLANNING", "tl.ascend_memory_planning"},
    {"TL_ASCEND_AUTO_CV_COMBINE", "tl.ascend_auto_cv_combine"},
    {"TL_ASCEND_AUTO_CV_SYNC", "tl.ascend_auto_cross_core_sync"},
    // tilec's own: intra_sync's barrier-after-every-op baseline (benchmarks)
    {"TILEC_SYNC_BASELINE", "tl.tilec_sync_baseline"},
    // tilec's own: the schedule pass (on unless set to False)
    {"TILEC_SCHEDULE", "tl.tilec_schedule"},
    // upstream's opt-in tail-block scheme (AscendTailMaskPropagation: pass/tail_mask.c)
    {"TL_ASCEND_TAIL_MASK", "tl.ascend_tail_mask"},
    // upstream's AscendSyncInsertVS (on by default for target pto: npu/sim_auto.c)
    {"TL_ASCEND_AUTO_SYNC_VS", "tl.ascend_auto_sync_vs"},
};

const char *tl_front_pass_key_name(const char *string)
{
    for (size_t i = 0; i < TL_ARRAY_LEN(pass_keys); i++)
        if (!strcmp(pass_keys[i].string, string)) return pass_keys[i].key;
    return NULL;
}

bool tl_front_pass_config_known(tl_eval_t *ev, const char *name, const char **near, const char **known)
{
    tl_map_t m;
    tl_map_init(&m, ev->arena);
    tl_buf_t b;
    tl_buf_init(&b);
    bool found = false;
    for (size_t i = 0; i < TL_ARRAY_LEN(pass_keys); i++) {
        found = found || !strcmp(name, pass_keys[i].key) || !strcmp(name, pass_keys[i].string);
        tl_map_put(&m, pass_keys[i].key, (void *)pass_keys[i].string);
        tl_map_put(&m, pass_keys[i].string, (void *)pass_keys[i].string);
        tl_buf_printf(&b, "%s%s", i ? ", " : "", pass_keys[i].string);
    }
    int dist = 99;
    *near = found ? NULL : tl_eval_closest(&m, name, NULL, &dist);
    *known = tl_arena_strdup(ev->arena, tl_buf_cstr(&b));
    tl_buf_free(&b);
    return found;
}

static tl_value_t *make_jit(tl_eval_t *ev, tl_value_t *factory, tl_call_t *cfg)
{
    tl_value_t *j = tl_value_new(ev->arena, TL_V_JIT);
    j->jit.factory = factory;
    j->jit.cfg = cfg;
    if (cfg) {
        j->jit.out_idx = tl_call_arg(cfg, -1, "out_idx");
        j->jit.workspace_idx = tl_call_arg(cfg, -1, "workspace_idx");
        j->jit.pass_configs = tl_call_arg(cfg, -1, "pass_configs");
        j->jit.target = tl_call_arg(cfg, -1, "target");
    }
    return j;
}

// @tilelang.jit(...) returns this decorator; its self holds the settings call.
static tl_value_t *jit_decorator(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *f = tl_call_arg(c, 0, NULL);
    if (!f || f->kind != TL_V_FUNC) return tl_eval_fail(ev, c->loc, "@tilelang.jit decorates a function");
    tl_call_t *cfg = (tl_call_t *)c->self->builtin.data;
    return make_jit(ev, f, cfg);
}

static tl_value_t *l_jit(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"out_idx", "workspace_idx", "pass_configs", "target", "execution_backend",
                                "target_host", "verbose", "platform", "debug_root_path", "compile_flags", NULL};
    tl_value_t *f = tl_call_arg(c, 0, NULL);
    if (f && f->kind == TL_V_FUNC && c->nkw == 0 && c->nargs == 1) return make_jit(ev, f, NULL); // bare @jit
    if (!tl_call_check(ev, c, "tilelang.jit", 0, 0, kws)) return NULL;
    tl_value_t *d = tl_value_builtin(ev->arena, "tilelang.jit(...)", jit_decorator, NULL);
    d->builtin.self = d;
    d->builtin.data = tl_call_copy(ev, c);
    return d;
}

// tilelang.compile(prim_func, out_idx=..., pass_configs=..., target=...), and
// tilelang.lower(prim_func, target=...) with the config of the enclosing
// `with tvm.transform.PassContext(config=...)` (pass_configs: that config).
static tl_value_t *compile_call(tl_eval_t *ev, tl_call_t *c, const char *what, tl_value_t *pass_configs)
{
    tl_value_t *k = tl_call_arg(c, 0, "func");
    if (!k || k->kind != TL_V_KERNEL)
        return tl_eval_fail(ev, tl_call_arg_loc(c, 0, "func"), "%s needs a @T.prim_func, got %s", what,
                            k ? tl_value_type_name(k) : "nothing");
    tl_value_t *j = make_jit(ev, NULL, tl_call_copy(ev, c));
    j->jit.compiled = k;
    j->jit.lowered = !strcmp(what, "tilelang.lower");
    if (!j->jit.pass_configs) j->jit.pass_configs = pass_configs;
    if (ev->deferring) {
        // -k on that builder gets the settings of the first tilelang.compile
        // that runs it; a tilelang.lower (a codegen test: never run, often
        // without the pass configs the file's runtime tests give) only when
        // nothing compiles it
        tl_value_t *b = k->kernel.builder;
        if (b && b->kind == TL_V_FUNC && b->func.compiled_by && b->func.compiled_by->jit.lowered &&
            !j->jit.lowered && k->kernel.builder_call) {
            b->func.compiled_by = j; // (with that call's arguments)
            b->func.first_call = k->kernel.builder_call;
        }
        if (b && b->kind == TL_V_FUNC && !b->func.compiled_by) b->func.compiled_by = j;
        return j;
    }
    return tl_front_instantiate(ev, j, NULL);
}

static tl_value_t *l_compile(tl_eval_t *ev, tl_call_t *c)
{
    return compile_call(ev, c, "tilelang.compile", NULL);
}

static tl_value_t *l_lower(tl_eval_t *ev, tl_call_t *c)
{
    return compile_call(ev, c, "tilelang.lower", ev->pass_context);
}

static tl_value_t *l_cdiv(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *fn = tl_value_module_get(ev->lang, "ceildiv");
    return tl_eval_call(ev, fn, c);
}

static tl_value_t *l_datatype(tl_eval_t *ev, tl_call_t *c)
{
    tl_dtype_t t;
    tl_value_t *v = tl_call_arg(c, 0, NULL);
    if (!v) return tl_eval_fail(ev, c->loc, "DataType() needs a dtype");
    return tl_value_to_dtype(ev, v, c->loc, &t) ? tl_value_dtype(ev->arena, t) : NULL;
}

static tl_value_t *l_passthrough_decorator(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *f = tl_call_arg(c, 0, NULL);
    if (f && (f->kind == TL_V_FUNC || f->kind == TL_V_JIT) && c->nkw == 0) return f;
    // @tilelang.autotune(configs=...): a decorator that returns its argument.
    tl_value_t *d = tl_value_builtin(ev->arena, "decorator", l_passthrough_decorator, NULL);
    return d;
}

void tl_front_install_tilelang(tl_eval_t *ev)
{
    tl_arena_t *a = ev->arena;
    tl_value_t *tl = tl_value_module(a, "tilelang");
    tl->module.permissive = true; // cache, disable_cache, set_log_level, profiler, ...
    tl_value_module_set(a, tl, "jit", tl_value_builtin(a, "tilelang.jit", l_jit, NULL));
    tl_value_module_set(a, tl, "compile", tl_value_builtin(a, "tilelang.compile", l_compile, NULL));
    tl_value_module_set(a, tl, "lower", tl_value_builtin(a, "tilelang.lower", l_lower, NULL));
    tl_value_module_set(a, tl, "cdiv", tl_value_builtin(a, "tilelang.cdiv", l_cdiv, NULL));
    tl_value_module_set(a, tl, "DataType", tl_value_builtin(a, "DataType", l_datatype, NULL));
    tl_value_module_set(a, tl, "autotune", tl_value_builtin(a, "tilelang.autotune", l_passthrough_decorator, NULL));
    tl_value_t *keys = tl_value_module(a, "tilelang.PassConfigKey");
    keys->module.permissive = true; // other keys (TIR_MERGE_STATIC_SMEM ...) are accepted and ignored
    for (size_t i = 0; i < TL_ARRAY_LEN(pass_keys); i++)
        tl_value_module_set(a, keys, pass_keys[i].key, tl_value_str(a, pass_keys[i].string));
    tl_value_module_set(a, tl, "PassConfigKey", keys);
    tl_value_module_set(a, tl, "language", ev->lang);
    tl_value_t *tvm = tl_value_module(a, "tvm");
    tvm->module.permissive = true;
    tl_value_module_set(a, tl, "tvm", tvm);
    ev->tilelang = tl;
}

// --- applying the settings -----------------------------------------------------------------------

static bool mark_params(tl_eval_t *ev, tl_kernel_t *k, tl_value_t *idx, tl_param_role_t role,
                        const char *what, tl_loc_t loc)
{
    if (!idx || idx->kind == TL_V_NONE) return true;
    tl_value_t *one[1] = {idx};
    tl_value_t **items = one;
    int n = 1;
    if (idx->kind == TL_V_LIST || idx->kind == TL_V_TUPLE) {
        items = idx->seq.items;
        n = idx->seq.n;
    }
    for (int i = 0; i < n; i++) {
        int64_t p;
        if (!tl_value_to_int(ev, items[i], loc, what, &p)) return false;
        int64_t q = p < 0 ? p + k->nparams : p;
        if (q < 0 || q >= k->nparams) {
            tl_eval_fail(ev, loc, "%s %lld is out of range: the kernel has %d parameters (indices %d..%d)", what,
                         (long long)p, k->nparams, -k->nparams, k->nparams - 1);
            return false;
        }
        if (!k->params[q].buf) {
            tl_eval_fail(ev, loc, "%s %lld names scalar parameter '%s'; only tensors can be outputs or workspaces",
                         what, (long long)p, k->params[q].name);
            return false;
        }
        k->params[q].role = role;
    }
    return true;
}

static bool config_key(const tl_value_t *key, size_t *which)
{
    if (key->kind != TL_V_STR) return false;
    for (size_t i = 0; i < TL_ARRAY_LEN(pass_keys); i++)
        if (!strcmp(key->str.s, pass_keys[i].string) || !strcmp(key->str.s, pass_keys[i].key)) {
            *which = i;
            return true;
        }
    return false;
}

static tl_loc_t kw_loc(const tl_call_t *cfg, const char *kw, tl_loc_t loc)
{
    tl_loc_t l = cfg ? tl_call_arg_loc(cfg, -1, kw) : loc;
    return l.line ? l : loc;
}

bool tl_front_apply_jit(tl_eval_t *ev, tl_kernel_t *k, tl_value_t *out_idx,
                        tl_value_t *workspace_idx, tl_value_t *pass_configs, tl_value_t *target,
                        const tl_call_t *cfg, tl_loc_t loc)
{
    if (!mark_params(ev, k, out_idx, TL_ROLE_OUTPUT, "out_idx", kw_loc(cfg, "out_idx", loc))) return false;
    if (!mark_params(ev, k, workspace_idx, TL_ROLE_WORKSPACE, "workspace_idx", kw_loc(cfg, "workspace_idx", loc)))
        return false;
    tl_loc_t pc_loc = kw_loc(cfg, "pass_configs", loc);
    if (pass_configs && pass_configs->kind == TL_V_DICT) {
        for (int i = 0; i < pass_configs->dict.n; i++) {
            size_t w;
            if (!config_key(pass_configs->dict.keys[i], &w)) continue;
            bool on;
            if (!tl_value_to_flag(ev, pass_configs->dict.values[i], pc_loc, "a pass_configs value", &on)) return false;
            bool *flags[] = {&k->config.auto_sync,       &k->config.memory_planning,
                             &k->config.auto_cv_combine, &k->config.auto_cv_sync,
                             &k->config.sync_baseline,   &k->config.schedule,
                             &k->config.tail_mask,       &k->config.auto_sync_vs};
            *flags[w] = on;
        }
    } else if (pass_configs && pass_configs->kind == TL_V_OPAQUE) {
        // from a module tilec does not load (`from ._common import PASS_CONFIGS`): the
        // kernel runs on the NPU with settings tilec cannot see
        tl_diag_warning(ev->diag, pc_loc,
                        "pass_configs '%s' is computed by code tilec does not run; the kernel gets "
                        "tilec's defaults (give the real ones with --pass-config KEY=VALUE)",
                        pass_configs->opaque.what);
    } else if (pass_configs && pass_configs->kind != TL_V_NONE) {
        tl_eval_fail(ev, pc_loc, "pass_configs must be a dict {PassConfigKey: value}, got %s",
                     tl_value_type_name(pass_configs));
        return false;
    }
    if (target && target->kind != TL_V_NONE) {
        tl_loc_t t_loc = kw_loc(cfg, "target", loc);
        const char *t = tl_value_to_cstr(ev, target, t_loc, "target");
        if (!t) return false;
        if (strcmp(t, "auto") && strcmp(t, "ascendc") && strcmp(t, "pto") && strcmp(t, "npuir")) {
            tl_eval_fail(ev, t_loc, "unknown target \"%s\" (auto, ascendc, pto, npuir)", t);
            return false;
        }
        k->config.target = tl_arena_strdup(ev->arena, t);
    }
    // npuir: its compiler (bishengir) places every intra- and cross-core synchronisation
    // and splits cube from vector code itself, whatever the pass configs say; an expert
    // kernel (T.Scope("Cube") / T.Scope("Vector"): separate AIC and AIV functions) is split
    // already and pairs its cores with its own sync_block_set / sync_block_wait.
    if (k->config.target && !strcmp(k->config.target, "npuir")) {
        bool expert = tl_front_npuir_expert(k);
        if (pass_configs && pass_configs->kind == TL_V_DICT &&
            (!k->config.auto_sync || (!expert && (!k->config.auto_cv_combine || !k->config.auto_cv_sync))))
            tl_diag_note(ev->diag, pc_loc,
                         expert ? "target \"npuir\": its compiler inserts the synchronisation within a core itself; "
                                  "tilec's automatic sync (TL_ASCEND_AUTO_SYNC) stays on"
                                : "target \"npuir\": its compiler inserts all synchronisation itself; tilec's "
                                  "automatic sync (TL_ASCEND_AUTO_SYNC, _AUTO_CV_COMBINE, _AUTO_CV_SYNC) stays on");
        k->config.auto_sync = true;
        k->config.auto_cv_combine = k->config.auto_cv_sync = !expert;
        tl_front_npuir_kernel(k);
    }
    if (k->config.auto_cv_sync && !k->config.auto_cv_combine)
        tl_diag_warning(ev->diag, pc_loc,
                        "TL_ASCEND_AUTO_CV_SYNC has no effect without TL_ASCEND_AUTO_CV_COMBINE "
                        "(upstream ignores it silently; this kernel's own cross-core flags are used)");
    return true;
}

tl_value_t *tl_front_instantiate(tl_eval_t *ev, tl_value_t *jit, tl_call_t *call)
{
    tl_value_t *kv;
    tl_loc_t loc = call ? call->loc : (tl_loc_t){0};
    if (jit->jit.compiled) {
        kv = jit->jit.compiled;
    } else {
        const tl_ast_node_t *def = jit->jit.factory->func.def;
        // No call (a factory returned another factory): the arguments the file's driver
        // called that factory with (`program = builder(M, N); program(block_m)`), else its
        // defaults, as a call located at its definition.
        for (int i = 0; !call && i + 1 < ev->jit_calls.len; i += 2)
            if (ev->jit_calls.items[i] == (void *)def) call = ev->jit_calls.items[i + 1];
        tl_call_t none = {.loc = def->loc};
        if (ev->jit_depth >= 16)
            return tl_eval_fail(ev, def->loc, "factories returning factories nest too deeply");
        tl_value_t *saved = ev->jit;
        bool saved_def = ev->deferring;
        ev->jit = jit;
        ev->deferring = false;
        ev->jit_depth++;
        kv = tl_eval_call(ev, jit->jit.factory, call ? call : &none);
        ev->jit_depth--;
        ev->jit = saved;
        ev->deferring = saved_def;
        if (!kv) return NULL;
        loc = def->loc;
    }
    if (kv->kind == TL_V_JIT) {
        ev->jit_depth++;
        tl_value_t *r = tl_front_instantiate(ev, kv, NULL);
        ev->jit_depth--;
        return r;
    }
    if (kv->kind != TL_V_KERNEL)
        return tl_eval_fail(ev, loc, "the kernel factory returned %s, not a @T.prim_func", tl_value_type_name(kv));
    if (!kv->kernel.kernel) {
        tl_value_t *saved_target = ev->trace_target;
        ev->trace_target = jit->jit.target;
        tl_value_t *t = tl_front_trace(ev, kv->kernel.pending, loc);
        ev->trace_target = saved_target;
        if (!t) return NULL;
        kv->kernel.kernel = t->kernel.kernel;
    }
    if (!tl_front_apply_jit(ev, kv->kernel.kernel, jit->jit.out_idx, jit->jit.workspace_idx,
                            jit->jit.pass_configs, jit->jit.target, jit->jit.cfg, loc))
        return NULL;
    if (!ev->first_instantiated) ev->first_instantiated = kv;
    return kv;
}

// Calling a jit value: compile now, or (while a file is being loaded) remember
// the arguments of the first call so they can serve as the defaults later.
tl_value_t *tl_front_call_jit(tl_eval_t *ev, tl_value_t *jit, tl_call_t *call)
{
    if (ev->deferring) {
        if (!jit->jit.first_call) jit->jit.first_call = tl_call_copy(ev, call);
        // the factory's first call, for the jit a later call of its builder makes
        const tl_value_t *fac = jit->jit.factory;
        bool known = false;
        for (int i = 0; fac && fac->kind == TL_V_FUNC && i + 1 < ev->jit_calls.len; i += 2)
            known = known || ev->jit_calls.items[i] == (void *)fac->func.def;
        if (fac && fac->kind == TL_V_FUNC && !known) {
            tl_vec_push(ev->arena, &ev->jit_calls, (void *)fac->func.def);
            tl_vec_push(ev->arena, &ev->jit_calls, jit->jit.first_call);
        }
        // tilelang.jit(out_idx=..., pass_configs=...)(builder)(args) in a test: -k on the
        // builder takes these settings and arguments (as tilelang.compile's)
        tl_value_t *b = jit->jit.factory;
        if (b && b->kind == TL_V_FUNC && !b->func.compiled_by) {
            b->func.compiled_by = jit;
            b->func.first_call = tl_call_copy(ev, call);
        }
        return tl_value_opaque(ev->arena, "compiled kernel");
    }
    return tl_front_instantiate(ev, jit, call);
}
