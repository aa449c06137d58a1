// Files and imports. A kernel file is evaluated top to bottom with module-level
// tolerance (see eval_stmt.c); imports resolve to:
//   - tilelang, tilelang.language (T) and math: modelled modules;
//   - a .py file next to the importing file (or in a package folder below it):
//     loaded and evaluated the same way, so macros and configs can be shared;
//   - os, tvm and torch.npu: models (pyenv.c, pytvm.c);
//   - anything else (torch, numpy, argparse, pytest, ...): a permissive stand-in
//     whose attributes and calls are opaque values. Driver code that uses them
//     evaluates without error; a kernel that needs one of their values gets a
//     clear error naming it.
#include "front/front.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "front/parse.h"

struct tl_module_rec {
    const char *path;
    tl_source_t *src;
    tl_ast_module_t *ast;
    tl_env_t *globals;
    tl_value_t *ns; // module value exposing the globals
    bool loading;
};

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static const char *dir_of(tl_arena_t *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? tl_arena_strndup(a, path, (size_t)(slash - path)) : ".";
}

// A module value whose attributes are the names of an environment.
static tl_value_t *env_module(tl_eval_t *ev, const char *name, tl_env_t *env)
{
    tl_value_t *m = tl_value_module(ev->arena, name);
    m->module.attrs = &env->names; // shares the map: later definitions stay visible
    return m;
}

static tl_module_rec_t *load_source(tl_eval_t *ev, const char *path, const char *text, size_t len,
                                    const char *modname)
{
    // The source must live as long as the arena (locations point into it).
    tl_source_t *copy = tl_arena_alloc(ev->arena, sizeof *copy);
    copy->path = tl_arena_strdup(ev->arena, path);
    copy->text = tl_arena_strndup(ev->arena, text, len);
    copy->len = len;
    tl_module_rec_t *rec = tl_arena_alloc(ev->arena, sizeof *rec);
    rec->path = copy->path;
    rec->src = copy;
    if (tl_parse_module(ev->arena, copy, ev->diag, &rec->ast) != TL_OK) return NULL;
    if (rec->ast->nerrors) {
        // CPython would not run the file at all: every syntax error is an error.
        // (An import at module level is tolerated like any failed driver
        // statement: the names it binds then point at the first one.)
        for (int i = 0; i < rec->ast->body.len; i++) {
            const tl_ast_node_t *n = rec->ast->body.items[i];
            if (n->kind != TL_AST_ERROR) continue;
            tl_diag_error(ev->diag, n->loc, "%s", n->error.msg);
            if (!ev->err_loc_set) {
                ev->err_loc = n->loc;
                ev->err_loc_set = true;
            }
        }
        return NULL;
    }
    rec->globals = tl_env_new(ev, NULL);
    rec->ns = env_module(ev, modname, rec->globals);
    tl_env_set(ev, rec->globals, "__name__", tl_value_str(ev->arena, modname));
    tl_env_set(ev, rec->globals, "__file__", tl_value_str(ev->arena, path));
    tl_map_put(&ev->files, rec->path, rec);
    rec->loading = true;
    tl_frame_t fr = {0};
    fr.env = fr.globals = rec->globals;
    fr.dir = dir_of(ev->arena, path);
    fr.module_ns = rec->ns;
    fr.module_level = true;
    bool saved = ev->deferring;
    ev->deferring = true;
    tl_flow_t f = tl_exec_body(ev, &fr, &rec->ast->body);
    ev->deferring = saved;
    rec->loading = false;
    if (f == TL_FLOW_ERROR) return NULL;
    return rec;
}

tl_module_rec_t *tl_front_load_file(tl_eval_t *ev, const char *path, const char *modname)
{
    tl_module_rec_t *rec = tl_map_get(&ev->files, path);
    if (rec) {
        if (rec->loading) tl_eval_fail(ev, (tl_loc_t){0}, "circular import of '%s'", path);
        return rec->loading ? NULL : rec;
    }
    tl_source_t *src = tl_source_read(path, ev->diag);
    if (!src) return NULL;
    rec = load_source(ev, path, src->text, src->len, modname);
    tl_source_free(src);
    return rec;
}

tl_module_rec_t *tl_front_load_text(tl_eval_t *ev, const char *path, const char *text)
{
    return load_source(ev, path, text, strlen(text), "__main__");
}

const tl_ast_module_t *tl_front_module_ast(tl_module_rec_t *rec)
{
    return rec->ast;
}

tl_env_t *tl_front_module_globals(tl_module_rec_t *rec)
{
    return rec->globals;
}

const tl_source_t *tl_front_module_source(tl_module_rec_t *rec)
{
    return rec->src;
}

static tl_value_t *stand_in(tl_eval_t *ev, const char *name)
{
    tl_value_t *m = tl_value_module(ev->arena, name);
    m->module.permissive = true;
    return m;
}

// Looks for `a/b/c.py` (or `a/b/c/__init__.py`) for module `a.b.c` in `dir`.
static const char *find_local(tl_eval_t *ev, const char *dir, const char *dotted)
{
    char *rel = tl_arena_strdup(ev->arena, dotted);
    for (char *p = rel; *p; p++)
        if (*p == '.') *p = '/';
    const char *cands[2] = {tl_arena_printf(ev->arena, "%s/%s.py", dir, rel),
                            tl_arena_printf(ev->arena, "%s/%s/__init__.py", dir, rel)};
    for (int i = 0; i < 2; i++)
        if (file_exists(cands[i])) return cands[i];
    return NULL;
}

// Resolves a dotted module name to a module value (never fails for unknown
// modules: they become stand-ins).
static tl_value_t *resolve_module(tl_eval_t *ev, tl_frame_t *fr, const char *dotted, int level,
                                  tl_loc_t loc, bool *failed)
{
    *failed = false;
    if (level == 0) {
        if (!strcmp(dotted, "tilelang")) return ev->tilelang;
        if (!strcmp(dotted, "tilelang.language")) return ev->lang;
        if (!strcmp(dotted, "math")) return tl_value_module_get(ev->builtins, "__math__");
        if (!strcmp(dotted, "argparse")) return tl_value_module_get(ev->builtins, "__argparse__");
        if (!strcmp(dotted, "itertools")) return tl_value_module_get(ev->builtins, "__itertools__");
        if (!strcmp(dotted, "functools")) return tl_value_module_get(ev->builtins, "__functools__");
        if (!strcmp(dotted, "pytest")) return tl_value_module_get(ev->builtins, "__pytest__");
        if (!strcmp(dotted, "os")) return tl_value_module_get(ev->builtins, "__os__");
        if (!strcmp(dotted, "sys")) return tl_value_module_get(ev->builtins, "__sys__");
        if (!strcmp(dotted, "random")) return tl_value_module_get(ev->builtins, "__random__");
        tl_value_t *tvm = tl_value_module_get(ev->builtins, "__tvm__");
        if (!strcmp(dotted, "tvm")) return tvm;
        if (!strcmp(dotted, "tvm.tir")) return tl_value_module_get(tvm, "tir");
        if (!strcmp(dotted, "torch.npu") || !strcmp(dotted, "torch_npu.npu")) {
            tl_value_t *npu = tl_front_npu_module(ev, dotted);
            if (npu) return npu;
        }
    }
    const char *dir = fr->dir ? fr->dir : ".";
    for (int i = 1; i < level; i++) dir = tl_arena_printf(ev->arena, "%s/..", dir);
    const char *path = dotted && *dotted ? find_local(ev, dir, dotted) : NULL;
    if (!path && level == 0) {
        // Also try the last component beside the file (`from examples.x.utils import f`
        // run from the repository root finds utils.py next to the kernel).
        const char *last = strrchr(dotted, '.');
        if (last) path = find_local(ev, dir, last + 1);
    }
    if (path) {
        tl_module_rec_t *rec = tl_front_load_file(ev, path, dotted);
        if (!rec) {
            *failed = true;
            tl_eval_fail(ev, loc, "importing '%s' (%s) failed", dotted, path);
            return NULL;
        }
        return rec->ns;
    }
    if (!strncmp(dotted, "tilelang.", 9)) {
        // tilelang.xxx submodules we do not model (intrinsics, profiler, ...).
        tl_value_t *m = tl_value_module_get(ev->tilelang, dotted + 9);
        if (m) return m;
    }
    tl_value_t *m = stand_in(ev, dotted);
    if (!strcmp(dotted, "torch") || !strcmp(dotted, "torch_npu")) {
        // torch.npu / torch_npu.npu: the chip the compile targets (pyenv.c).
        tl_value_t *npu = tl_front_npu_module(ev, tl_arena_printf(ev->arena, "%s.npu", dotted));
        if (npu) tl_value_module_set(ev->arena, m, "npu", npu);
    }
    return m;
}

static tl_value_t *attr_or_standin(tl_eval_t *ev, tl_value_t *mod, const char *name, tl_loc_t loc)
{
    if (mod->kind == TL_V_MODULE) {
        tl_value_t *v = tl_value_module_get(mod, name);
        if (v) return v;
        if (mod->module.permissive) return tl_eval_getattr(ev, mod, name, loc);
        // `from pkg import submodule`
        return NULL;
    }
    return tl_eval_getattr(ev, mod, name, loc);
}

tl_flow_t tl_eval_import(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    bool failed;
    if (n->kind == TL_AST_IMPORT) {
        for (int i = 0; i < n->import.names.len; i++) {
            const tl_ast_node_t *a = n->import.names.items[i];
            const char *name = a->alias.name;
            tl_value_t *m = resolve_module(ev, fr, name, 0, a->loc, &failed);
            if (!m) return TL_FLOW_ERROR;
            if (a->alias.asname) {
                tl_env_set(ev, fr->env, a->alias.asname, m);
                continue;
            }
            // `import a.b` binds `a`.
            const char *dot = strchr(name, '.');
            if (!dot) {
                tl_env_set(ev, fr->env, name, m);
                continue;
            }
            const char *top = tl_arena_strndup(ev->arena, name, (size_t)(dot - name));
            tl_value_t *tm = resolve_module(ev, fr, top, 0, a->loc, &failed);
            if (!tm) return TL_FLOW_ERROR;
            tl_env_set(ev, fr->env, top, tm);
        }
        return TL_FLOW_NORMAL;
    }
    const char *modname = n->importfrom.module ? n->importfrom.module : "";
    tl_value_t *m = resolve_module(ev, fr, modname, n->importfrom.level, n->loc, &failed);
    if (!m) return TL_FLOW_ERROR;
    for (int i = 0; i < n->importfrom.names.len; i++) {
        const tl_ast_node_t *a = n->importfrom.names.items[i];
        const char *name = a->alias.name;
        if (!strcmp(name, "*")) {
            if (m->kind == TL_V_MODULE && m->module.attrs)
                for (int s = 0; s < m->module.attrs->cap; s++) {
                    tl_map_entry_t *e = &m->module.attrs->slots[s];
                    if (e->key && e->key[0] != '_') tl_env_set(ev, fr->env, e->key, e->value);
                }
            continue;
        }
        tl_value_t *v = attr_or_standin(ev, m, name, a->loc);
        if (!v) {
            const char *sub = *modname ? tl_arena_printf(ev->arena, "%s.%s", modname, name) : name;
            v = resolve_module(ev, fr, sub, n->importfrom.level, a->loc, &failed);
            if (!v) return TL_FLOW_ERROR;
        }
        tl_env_set(ev, fr->env, a->alias.asname ? a->alias.asname : name, v);
    }
    return TL_FLOW_NORMAL;
}
