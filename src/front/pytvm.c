// `from tvm import tir`: the expression helpers of tvm.tir that kernels write
// next to T.* (tir.Select in the DeepSeek-V4 sparse flash MLA kernels). Each is
// the T function of the same meaning; anything else of tvm stays an opaque
// stand-in (tir.decl_buffer in tests, tvm.TVMError in except clauses).
//
// tir.Select(c, a, b) evaluates both operands in TVM's IR, T.if_then_else only
// the chosen one; upstream's Ascend codegen prints both as C `c ? a : b`, so on
// the device they are the same, and tilec traces both to one select.
#include "front/front.h"

#include <string.h>

// tir.const(value, dtype="int32"), tir.IntImm(dtype, value), tir.FloatImm(dtype, value):
// a typed constant, as T.int32(value) makes it.
static tl_value_t *typed_const(tl_eval_t *ev, tl_call_t *c, tl_value_t *value, tl_value_t *dtype)
{
    if (!value)
        return tl_eval_fail(ev, c->loc, "%s needs a value", c->self ? c->self->str.s : "tir.const");
    tl_dtype_t t = tl_value_is_number(value) && value->kind == TL_V_FLOAT ? TL_F32 : TL_I32;
    if (dtype && !tl_value_to_dtype(ev, dtype, c->loc, &t)) return NULL;
    tl_value_t *args[1] = {value};
    tl_call_t cast = {.nargs = 1, .args = args, .loc = c->loc};
    return tl_eval_call(ev, tl_value_dtype(ev->arena, t), &cast);
}

static tl_value_t *tir_const(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"value", "dtype", "span", NULL};
    if (!tl_call_check(ev, c, "tir.const", 1, 3, kws)) return NULL;
    return typed_const(ev, c, tl_call_arg(c, 0, "value"), tl_call_arg(c, 1, "dtype"));
}

static tl_value_t *tir_imm(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"dtype", "value", "span", NULL};
    if (!tl_call_check(ev, c, "tir.IntImm", 2, 3, kws)) return NULL;
    return typed_const(ev, c, tl_call_arg(c, 1, "value"), tl_call_arg(c, 0, "dtype"));
}

// tir.all(*conds) / tir.any(*conds): T.And / T.Or folded over the arguments.
static tl_value_t *fold(tl_eval_t *ev, tl_call_t *c, const char *t_name)
{
    if (c->nargs == 0)
        return tl_eval_fail(ev, c->loc, "tir.%s needs at least one condition",
                            t_name[0] == 'A' ? "all" : "any");
    tl_value_t *fn = tl_value_module_get(ev->lang, t_name), *acc = c->args[0];
    for (int i = 1; i < c->nargs && acc; i++) {
        tl_value_t *args[2] = {acc, c->args[i]};
        tl_call_t call = {.nargs = 2, .args = args, .loc = c->arg_locs ? c->arg_locs[i] : c->loc};
        acc = tl_eval_call(ev, fn, &call);
    }
    return acc;
}

static tl_value_t *tir_all(tl_eval_t *ev, tl_call_t *c)
{
    return fold(ev, c, "And");
}

static tl_value_t *tir_any(tl_eval_t *ev, tl_call_t *c)
{
    return fold(ev, c, "Or");
}

// `with tvm.transform.PassContext(opt_level=3, config={...}):` makes the config
// the pass configs of tilelang.lower inside it (front/tilelang.c); the context
// object keeps the config it replaced in its "outer" slot.
static tl_value_t *pc_enter(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *ctx = c->self;
    tl_value_module_set(ev->arena, ctx, "outer", ev->pass_context ? ev->pass_context : tl_value_none());
    tl_value_t *cfg = tl_value_module_get(ctx, "config");
    ev->pass_context = cfg && cfg->kind != TL_V_NONE ? cfg : NULL;
    return ctx;
}

static tl_value_t *pc_exit(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *outer = tl_value_module_get(c->self, "outer");
    ev->pass_context = outer && outer->kind != TL_V_NONE ? outer : NULL;
    return tl_value_none();
}

static tl_value_t *pass_context(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *ctx = tl_value_module(ev->arena, "PassContext");
    tl_value_t *cfg = tl_call_arg(c, -1, "config");
    tl_value_module_set(ev->arena, ctx, "config", cfg ? cfg : tl_value_none());
    tl_front_def_self(ev, ctx, "__enter__", pc_enter, ctx);
    tl_front_def_self(ev, ctx, "__exit__", pc_exit, ctx);
    return ctx;
}

void tl_front_install_tvm(tl_eval_t *ev)
{
    tl_arena_t *a = ev->arena;
    tl_value_t *tvm = tl_value_module(a, "tvm"), *tir = tl_value_module(a, "tvm.tir");
    tvm->module.permissive = tir->module.permissive = true;
    // tvm.tir name -> T name.
    static const char *const alias[][2] = {
        {"Select", "if_then_else"},
        {"if_then_else", "if_then_else"},
        {"Cast", "Cast"},
        {"floordiv", "floordiv"},
        {"floormod", "floormod"},
        {"truncdiv", "truncdiv"},
        {"truncmod", "truncmod"},
        {"min", "min"},
        {"max", "max"},
        {"abs", "abs"},
        {"exp", "exp"},
        {"log", "log"},
        {"sqrt", "sqrt"},
        {"rsqrt", "rsqrt"},
        {"sigmoid", "sigmoid"},
        {"tanh", "tanh"},
        {"floor", "floor"},
        {"ceil", "ceil"},
        {"round", "round"},
        {"trunc", "trunc"},
        {"pow", "pow"},
        {"And", "And"},
        {"Or", "Or"},
        {"Not", "Not"},
        {"reinterpret", "reinterpret"},
    };
    for (size_t i = 0; i < TL_ARRAY_LEN(alias); i++) {
        tl_value_t *f = tl_value_module_get(ev->lang, alias[i][1]);
        if (f) tl_value_module_set(a, tir, alias[i][0], f);
    }
    tl_value_module_set(a, tir, "const",
                        tl_value_builtin(a, "tir.const", tir_const, tl_value_str(a, "tir.const")));
    tl_value_module_set(a, tir, "IntImm",
                        tl_value_builtin(a, "tir.IntImm", tir_imm, tl_value_str(a, "tir.IntImm")));
    tl_value_module_set(
        a, tir, "FloatImm",
        tl_value_builtin(a, "tir.FloatImm", tir_imm, tl_value_str(a, "tir.FloatImm")));
    tl_value_module_set(a, tir, "all", tl_value_builtin(a, "tir.all", tir_all, NULL));
    tl_value_module_set(a, tir, "any", tl_value_builtin(a, "tir.any", tir_any, NULL));
    tl_value_module_set(a, tvm, "tir", tir);
    tl_value_t *transform = tl_value_module(a, "tvm.transform");
    transform->module.permissive = true;
    tl_value_module_set(a, transform, "PassContext", tl_value_builtin(a, "PassContext", pass_context, NULL));
    tl_value_module_set(a, tvm, "transform", transform);
    tl_value_module_set(a, ev->builtins, "__tvm__", tvm);
    if (ev->tilelang) {
        tl_value_module_set(a, ev->tilelang, "tvm", tvm); // tilelang.tvm is tvm
        tl_value_t *dt = tl_value_module_get(ev->tilelang, "DataType");
        if (dt) tl_value_module_set(a, tvm, "DataType", dt);
    }
}
