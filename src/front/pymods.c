// Small models of Python modules that kernel files use at module level to pick
// their sizes: argparse (parse_args() returns the declared defaults, so
// `M = args.m` is the script's default size), itertools.product (autotune
// config lists), functools' decorators (identity), pytest's parametrize and
// fixture (to call test functions for builder arguments), tilelang.math and
// random (test drivers draw kernel arguments: `random.randint(1, 16)`).
#include "front/front.h"

#include <string.h>

static tl_value_t *parser_defaults(tl_call_t *c)
{
    return c->self ? tl_value_module_get(c->self, "__defaults__") : NULL;
}

// add_argument("--block-m", "-b", type=int, default=64, dest=..., action=...)
static tl_value_t *ap_add_argument(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *defaults = parser_defaults(c);
    if (!defaults) return tl_value_none();
    const char *dest = NULL;
    tl_value_t *d = tl_call_arg(c, -1, "dest");
    if (d && d->kind == TL_V_STR) dest = d->str.s;
    for (int i = 0; i < c->nargs && !dest; i++) {
        tl_value_t *n = c->args[i];
        if (n->kind != TL_V_STR) continue;
        if (!strncmp(n->str.s, "--", 2)) dest = n->str.s + 2;
        else if (n->str.s[0] != '-') dest = n->str.s;
    }
    if (!dest && c->nargs && c->args[0]->kind == TL_V_STR) dest = c->args[0]->str.s + 1;
    if (!dest) return tl_value_none();
    char *name = tl_arena_strdup(ev->arena, dest);
    for (char *p = name; *p; p++)
        if (*p == '-') *p = '_';
    tl_value_t *dflt = tl_call_arg(c, -1, "default");
    tl_value_t *action = tl_call_arg(c, -1, "action");
    if (!dflt && action && action->kind == TL_V_STR) {
        if (!strcmp(action->str.s, "store_true")) dflt = tl_value_bool(false);
        else if (!strcmp(action->str.s, "store_false")) dflt = tl_value_bool(true);
    }
    tl_value_t *type = tl_call_arg(c, -1, "type");
    if (dflt && dflt->kind == TL_V_STR && type && type->kind == TL_V_BUILTIN) {
        tl_value_t *args[1] = {dflt};
        tl_call_t conv = {.nargs = 1, .args = args, .loc = c->loc};
        dflt = tl_eval_call(ev, type, &conv); // type=int with default "128"
        if (!dflt) return NULL;
    }
    if (!dflt) {
        // None, as argparse gives, remembering why for messages.
        dflt = tl_value_new(ev->arena, TL_V_NONE);
        dflt->error.message = tl_arena_printf(ev->arena, "argparse option '%s' has no default value "
                                                         "(tilec does not read the command line of the script)",
                                              c->nargs && c->args[0]->kind == TL_V_STR ? c->args[0]->str.s : name);
        dflt->error.loc = c->loc;
    }
    tl_value_dict_set(ev->arena, defaults, tl_value_str(ev->arena, name), dflt);
    return tl_value_none();
}

static tl_value_t *ap_parse_args(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *defaults = parser_defaults(c);
    tl_value_t *ns = tl_value_module(ev->arena, "argparse.Namespace");
    for (int i = 0; defaults && i < defaults->dict.n; i++)
        tl_value_module_set(ev->arena, ns, defaults->dict.keys[i]->str.s, defaults->dict.values[i]);
    return ns;
}

static tl_value_t *ap_parse_known_args(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *pair[2] = {ap_parse_args(ev, c), tl_value_list(ev->arena, 0, NULL)};
    return tl_value_tuple(ev->arena, 2, pair);
}

static tl_value_t *ap_set_defaults(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *defaults = parser_defaults(c);
    for (int i = 0; defaults && i < c->nkw; i++)
        tl_value_dict_set(ev->arena, defaults, tl_value_str(ev->arena, c->kw_names[i]), c->kw_values[i]);
    return tl_value_none();
}

static tl_value_t *ap_self(tl_eval_t *ev, tl_call_t *c)
{
    (void)ev;
    return c->self ? c->self : tl_value_none(); // add_argument_group returns the parser itself
}

static tl_value_t *ap_parser(tl_eval_t *ev, tl_call_t *c)
{
    (void)c;
    tl_arena_t *a = ev->arena;
    tl_value_t *p = tl_value_module(a, "argparse.ArgumentParser");
    tl_value_module_set(a, p, "__defaults__", tl_value_dict(a));
    tl_front_def_self(ev, p, "add_argument", ap_add_argument, p);
    tl_front_def_self(ev, p, "parse_args", ap_parse_args, p);
    tl_front_def_self(ev, p, "parse_known_args", ap_parse_known_args, p);
    tl_front_def_self(ev, p, "set_defaults", ap_set_defaults, p);
    tl_front_def_self(ev, p, "add_argument_group", ap_self, p);
    tl_front_def_self(ev, p, "add_mutually_exclusive_group", ap_self, p);
    return p;
}

static tl_value_t *tm_next_power_of_2(tl_eval_t *ev, tl_call_t *c)
{
    int64_t x;
    if (!c->nargs || !tl_value_to_int(ev, c->args[0], c->loc, "next_power_of_2's argument", &x)) return NULL;
    int64_t p = 1;
    while (p < x && p < ((int64_t)1 << 62)) p <<= 1;
    return tl_value_int(ev->arena, p);
}

// itertools.product(a, b, ...): the list of tuples, last iterable fastest.
static tl_value_t *it_product(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *out = tl_value_list(ev->arena, 0, NULL), *lists[TL_MAX_DIMS];
    int n = c->nargs;
    if (n > TL_MAX_DIMS) return tl_eval_fail(ev, c->loc, "itertools.product of more than %d iterables", TL_MAX_DIMS);
    int64_t total = 1;
    for (int i = 0; i < n; i++) {
        if (!(lists[i] = tl_eval_iterate(ev, c->args[i], c->arg_locs ? c->arg_locs[i] : c->loc))) return NULL;
        total *= lists[i]->seq.n;
        if (total > (1 << 20)) return tl_eval_fail(ev, c->loc, "itertools.product is too large to build at compile time");
    }
    for (int64_t k = 0; k < total; k++) {
        tl_value_t *row[TL_MAX_DIMS];
        int64_t r = k;
        for (int i = n - 1; i >= 0; i--) {
            row[i] = lists[i]->seq.items[r % lists[i]->seq.n];
            r /= lists[i]->seq.n;
        }
        tl_value_list_append(ev->arena, out, tl_value_tuple(ev->arena, n, row));
    }
    return out;
}

// functools: decorators that leave the decorated function as it is.
static tl_value_t *ft_return_arg(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *f = tl_call_arg(c, 0, NULL);
    return f ? f : tl_eval_fail(ev, c->loc, "a decorator needs a function");
}

// @lru_cache / @cache, or @lru_cache(maxsize=...) which returns the decorator.
static tl_value_t *ft_lru_cache(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *f = tl_call_arg(c, 0, NULL);
    if (f && (f->kind == TL_V_FUNC || f->kind == TL_V_JIT)) return f;
    return tl_value_builtin(ev->arena, "lru_cache(...)", ft_return_arg, NULL);
}

// @wraps(fn) applied to a wrapper gives the wrapper.
static tl_value_t *ft_wraps(tl_eval_t *ev, tl_call_t *c)
{
    (void)c;
    return tl_value_builtin(ev->arena, "wraps(...)", ft_return_arg, NULL);
}

// @pytest.mark.parametrize("a, b", [(1, 2), ...]): remembers the first value of
// each name on the test function, which tilec calls to find builder arguments.
static tl_value_t *pt_parametrize_apply(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *fn = tl_call_arg(c, 0, NULL), *spec = c->self;
    if (!fn || fn->kind != TL_V_FUNC || !spec) return fn ? fn : tl_value_none();
    tl_value_t *names = spec->seq.items[0];
    // pytest takes any iterable: a dict gives its keys (upstream's {op_name: lambda}).
    tl_value_t *values = tl_eval_iterate(ev, spec->seq.items[1], c->loc);
    if (!values) return NULL;
    int nv;
    tl_value_t **vs = tl_value_items(ev, values, c->loc, "parametrize values", &nv);
    if (!vs || nv == 0) return fn;
    tl_value_t *first = vs[0];
    tl_value_t *list = names->kind == TL_V_STR ? tl_value_list(ev->arena, 0, NULL) : names;
    if (names->kind == TL_V_STR) { // "a, b" or "a,b"
        const char *p = names->str.s;
        while (*p) {
            while (*p == ' ' || *p == ',') p++;
            size_t n = strcspn(p, ", ");
            if (n) tl_value_list_append(ev->arena, list, tl_value_strn(ev->arena, p, n));
            p += n;
        }
    }
    if (list->kind != TL_V_LIST && list->kind != TL_V_TUPLE) return fn;
    if (!fn->func.parametrize) fn->func.parametrize = tl_value_dict(ev->arena);
    for (int i = 0; i < list->seq.n; i++) {
        tl_value_t *v = list->seq.n == 1 ? first
                        : (first->kind == TL_V_TUPLE || first->kind == TL_V_LIST) && i < first->seq.n
                            ? first->seq.items[i]
                            : NULL;
        if (v) tl_value_dict_set(ev->arena, fn->func.parametrize, list->seq.items[i], v);
    }
    return fn;
}

static tl_value_t *pt_parametrize(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *names = tl_call_arg(c, 0, "argnames"), *values = tl_call_arg(c, 1, "argvalues");
    if (!names || !values) return tl_eval_fail(ev, c->loc, "parametrize needs names and values");
    tl_value_t *pair[2] = {names, values};
    return tl_value_builtin(ev->arena, "parametrize(...)", pt_parametrize_apply, tl_value_tuple(ev->arena, 2, pair));
}

// @pytest.fixture and @pytest.fixture(scope=...): the function itself.
static tl_value_t *pt_fixture(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *f = tl_call_arg(c, 0, NULL);
    if (f && f->kind == TL_V_FUNC) return f;
    return tl_value_builtin(ev->arena, "fixture(...)", pt_fixture, NULL);
}

// --- random: test drivers draw compile-time arguments (a shift amount, clamp
// bounds). tilec draws from its own generator (splitmix64), seeded 0 at each
// compile, so a compile is reproducible; the values are not CPython's sequence.
// Arguments of code tilec does not run give an unknown result.

static uint64_t rnd_next(tl_eval_t *ev)
{
    uint64_t z = (ev->py_random += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double rnd_unit(tl_eval_t *ev) { return (double)(rnd_next(ev) >> 11) * 0x1.0p-53; }

static int64_t rnd_below(tl_eval_t *ev, uint64_t n) // [0, n), n > 0, without bias
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n, x;
    while ((x = rnd_next(ev)) >= limit) {}
    return (int64_t)(x % n);
}

static tl_value_t *rnd_opaque_arg(tl_eval_t *ev, tl_call_t *c, const char *fname)
{
    for (int i = 0; i < c->nargs; i++)
        if (c->args[i]->kind == TL_V_OPAQUE) return tl_value_opaque(ev->arena, fname);
    return NULL;
}

static tl_value_t *rnd_seed(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *a = tl_call_arg(c, 0, "a");
    int64_t s = 0;
    if (a && a->kind != TL_V_NONE && !tl_value_to_int(ev, a, c->loc, "random.seed's argument", &s)) return NULL;
    ev->py_random = (uint64_t)s;
    return tl_value_none();
}

static tl_value_t *rnd_random(tl_eval_t *ev, tl_call_t *c)
{
    (void)c;
    return tl_value_float(ev->arena, rnd_unit(ev));
}

static tl_value_t *rnd_uniform(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"a", "b", NULL};
    double a, b;
    tl_value_t *u = rnd_opaque_arg(ev, c, "random.uniform(...)");
    if (u) return u;
    if (!tl_call_check(ev, c, "random.uniform", 2, 2, kws) ||
        !tl_value_to_double(ev, tl_call_arg(c, 0, "a"), c->loc, "random.uniform's a", &a) ||
        !tl_value_to_double(ev, tl_call_arg(c, 1, "b"), c->loc, "random.uniform's b", &b))
        return NULL;
    return tl_value_float(ev->arena, a + (b - a) * rnd_unit(ev));
}

// randrange(stop), randrange(start, stop[, step]); randint(a, b) = randrange(a, b + 1).
static tl_value_t *rnd_range(tl_eval_t *ev, tl_call_t *c, int64_t lo, int64_t hi, int64_t step)
{
    if (step == 0) return tl_eval_fail(ev, c->loc, "random.randrange: step cannot be zero");
    int64_t n = step > 0 ? (hi - lo + step - 1) / step : (lo - hi - step - 1) / -step;
    if (n <= 0) return tl_eval_fail(ev, c->loc, "empty range for random.randrange (%lld, %lld, %lld)",
                                    (long long)lo, (long long)hi, (long long)step);
    return tl_value_int(ev->arena, lo + step * rnd_below(ev, (uint64_t)n));
}

static tl_value_t *rnd_randint(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"a", "b", NULL};
    int64_t a, b;
    tl_value_t *u = rnd_opaque_arg(ev, c, "random.randint(...)");
    if (u) return u;
    if (!tl_call_check(ev, c, "random.randint", 2, 2, kws) ||
        !tl_value_to_int(ev, tl_call_arg(c, 0, "a"), c->loc, "random.randint's a", &a) ||
        !tl_value_to_int(ev, tl_call_arg(c, 1, "b"), c->loc, "random.randint's b", &b))
        return NULL;
    return rnd_range(ev, c, a, b + 1, 1);
}

static tl_value_t *rnd_randrange(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"start", "stop", "step", NULL};
    int64_t v[3] = {0, 0, 1};
    tl_value_t *u = rnd_opaque_arg(ev, c, "random.randrange(...)");
    if (u) return u;
    if (!tl_call_check(ev, c, "random.randrange", 1, 3, kws)) return NULL;
    for (int i = 0; i < 3; i++) {
        tl_value_t *a = tl_call_arg(c, i, kws[i]);
        if (a && a->kind != TL_V_NONE && !tl_value_to_int(ev, a, c->loc, "a random.randrange bound", &v[i]))
            return NULL;
    }
    tl_value_t *stop = tl_call_arg(c, 1, "stop");
    if (!stop || stop->kind == TL_V_NONE) return rnd_range(ev, c, 0, v[0], 1);
    return rnd_range(ev, c, v[0], v[1], v[2]);
}

static tl_value_t *rnd_choice(tl_eval_t *ev, tl_call_t *c)
{
    int n;
    tl_value_t *seq = tl_call_arg(c, 0, "seq");
    if (!seq) return tl_eval_fail(ev, c->loc, "random.choice needs a sequence");
    if (seq->kind == TL_V_OPAQUE) return tl_value_opaque(ev->arena, "random.choice(...)");
    tl_value_t **items = tl_value_items(ev, seq, c->loc, "random.choice's argument", &n);
    if (!items) return NULL;
    if (n == 0) return tl_eval_fail(ev, c->loc, "random.choice of an empty sequence");
    return items[rnd_below(ev, (uint64_t)n)];
}

// Fisher-Yates over items[0, k): each position takes a random one of those after it.
static void rnd_permute(tl_eval_t *ev, tl_value_t **items, int n, int k)
{
    for (int i = 0; i < k && i < n - 1; i++) {
        int j = i + (int)rnd_below(ev, (uint64_t)(n - i));
        tl_value_t *t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

static tl_value_t *rnd_shuffle(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *l = tl_call_arg(c, 0, "x");
    if (l && l->kind == TL_V_OPAQUE) return tl_value_none(); // a torch tensor: nothing to model
    if (!l || l->kind != TL_V_LIST) return tl_eval_fail(ev, c->loc, "random.shuffle needs a list");
    rnd_permute(ev, l->seq.items, l->seq.n, l->seq.n);
    return tl_value_none();
}

static tl_value_t *rnd_sample(tl_eval_t *ev, tl_call_t *c)
{
    int n;
    int64_t k;
    tl_value_t *pop = tl_call_arg(c, 0, "population"), *kv = tl_call_arg(c, 1, "k");
    if (!pop || !kv) return tl_eval_fail(ev, c->loc, "random.sample needs a population and k");
    if (pop->kind == TL_V_OPAQUE || kv->kind == TL_V_OPAQUE) return tl_value_opaque(ev->arena, "random.sample(...)");
    tl_value_t **items = tl_value_items(ev, pop, c->loc, "random.sample's population", &n);
    if (!items || !tl_value_to_int(ev, kv, c->loc, "random.sample's k", &k)) return NULL;
    if (k < 0 || k > n) return tl_eval_fail(ev, c->loc, "random.sample: sample larger than population or negative");
    tl_value_t *out = tl_value_list(ev->arena, n, items); // a copy, permuted in its first k
    rnd_permute(ev, out->seq.items, n, (int)k);
    out->seq.n = (int)k;
    return out;
}

void tl_front_install_pymods(tl_eval_t *ev)
{
    tl_arena_t *a = ev->arena;
    tl_value_t *ap = tl_value_module(a, "argparse");
    ap->module.permissive = true;
    tl_front_def(ev, ap, "ArgumentParser", ap_parser);
    tl_value_module_set(a, ev->builtins, "__argparse__", ap);
    tl_value_t *it = tl_value_module(a, "itertools");
    it->module.permissive = true;
    tl_front_def(ev, it, "product", it_product);
    tl_value_module_set(a, ev->builtins, "__itertools__", it);
    tl_value_t *ft = tl_value_module(a, "functools");
    ft->module.permissive = true;
    tl_front_def(ev, ft, "lru_cache", ft_lru_cache);
    tl_front_def(ev, ft, "cache", ft_lru_cache);
    tl_front_def(ev, ft, "wraps", ft_wraps);
    tl_front_def(ev, ft, "cached_property", ft_return_arg); // read as a property (eval_attr.c)
    tl_value_module_set(a, ev->builtins, "__functools__", ft);
    tl_value_t *pt = tl_value_module(a, "pytest"), *mark = tl_value_module(a, "pytest.mark");
    pt->module.permissive = mark->module.permissive = true; // other marks: opaque decorators, kept as identity
    tl_front_def(ev, mark, "parametrize", pt_parametrize);
    tl_value_module_set(a, pt, "mark", mark);
    tl_front_def(ev, pt, "fixture", pt_fixture);
    tl_value_module_set(a, ev->builtins, "__pytest__", pt);
    tl_value_t *tm = tl_value_module(a, "tilelang.math");
    tm->module.permissive = true;
    tl_front_def(ev, tm, "next_power_of_2", tm_next_power_of_2);
    tl_value_module_set(a, ev->tilelang, "math", tm);
    tl_value_t *rn = tl_value_module(a, "random");
    rn->module.permissive = true;
    static const struct {
        const char *name;
        tl_builtin_fn fn;
    } rnd_fns[] = {{"seed", rnd_seed},         {"random", rnd_random}, {"uniform", rnd_uniform},
                   {"randint", rnd_randint},   {"randrange", rnd_randrange}, {"choice", rnd_choice},
                   {"shuffle", rnd_shuffle},   {"sample", rnd_sample}};
    for (size_t i = 0; i < sizeof rnd_fns / sizeof rnd_fns[0]; i++)
        tl_front_def(ev, rn, rnd_fns[i].name, rnd_fns[i].fn);
    tl_value_module_set(a, ev->builtins, "__random__", rn);
    ev->py_random = 0;
}
