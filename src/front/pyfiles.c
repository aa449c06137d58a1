// Files a kernel file writes and imports back. Some upstream files generate
// their kernels as source text at import time (examples/normalization/
// rms_norm_optimized.py: f-strings written to a .py beside the file, then
// loaded with importlib). tilec runs that host code against an in-memory file
// system: `open(path, "w")` collects what is written (nothing reaches the
// disk: a compile has no side effects), and a later `open(path)`, `import`
// or `importlib.util.spec_from_file_location(...).loader.exec_module(m)` of
// that path reads it back, so the generated kernels are found and compiled
// like any other. Also modelled: the os.path string functions such code uses
// to build the path. A file never written and not on disk stays an opaque
// driver value, as before.
#include "front/front.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct piece {
    const char *text;
    size_t len;
    struct piece *next;
} piece_t;

struct tl_vfile {
    piece_t *head, *tail;
    size_t len;
};

// --- paths -----------------------------------------------------------------------------------

// `path` made absolute (against the working directory) with `.` and `..` removed.
static const char *normalize(tl_eval_t *ev, const char *path)
{
    char cwd[4096];
    const char *full = path;
    if (path[0] != '/')
        full = tl_arena_printf(ev->arena, "%s/%s", getcwd(cwd, sizeof cwd) ? cwd : ".", path);
    size_t n = strlen(full);
    char *out = tl_arena_alloc(ev->arena, n + 2);
    size_t o = 0;
    for (const char *p = full; *p;) {
        while (*p == '/') p++;
        const char *e = p;
        while (*e && *e != '/') e++;
        size_t len = (size_t)(e - p);
        if (len == 0 || (len == 1 && p[0] == '.')) {
        } else if (len == 2 && p[0] == '.' && p[1] == '.') {
            while (o > 0 && out[o - 1] != '/') o--;
            if (o > 0) o--;
        } else {
            out[o++] = '/';
            memcpy(out + o, p, len);
            o += len;
        }
        p = e;
    }
    if (o == 0) out[o++] = '/';
    out[o] = 0;
    return out;
}

static const char *str_arg(tl_call_t *c, int i, const char *kw)
{
    tl_value_t *v = tl_call_arg(c, i, kw);
    return v && v->kind == TL_V_STR ? v->str.s : NULL;
}

// os.path functions: on strings they compute; on anything else (a path the
// driver took from torch, say) the result stays opaque.
static tl_value_t *opaque_call(tl_eval_t *ev, const char *what)
{
    return tl_value_opaque(ev->arena, tl_arena_printf(ev->arena, "os.path.%s(...)", what));
}

static tl_value_t *p_abspath(tl_eval_t *ev, tl_call_t *c)
{
    const char *p = str_arg(c, 0, "path");
    return p ? tl_value_str(ev->arena, normalize(ev, p)) : opaque_call(ev, "abspath");
}

static tl_value_t *p_dirname(tl_eval_t *ev, tl_call_t *c)
{
    const char *p = str_arg(c, 0, "p");
    if (!p) return opaque_call(ev, "dirname");
    const char *slash = strrchr(p, '/');
    if (!slash) return tl_value_str(ev->arena, "");
    size_t n = (size_t)(slash - p);
    while (n > 1 && p[n - 1] == '/') n--;
    return tl_value_str(ev->arena, n == 0 ? "/" : tl_arena_strndup(ev->arena, p, n));
}

static tl_value_t *p_basename(tl_eval_t *ev, tl_call_t *c)
{
    const char *p = str_arg(c, 0, "p");
    if (!p) return opaque_call(ev, "basename");
    const char *slash = strrchr(p, '/');
    return tl_value_str(ev->arena, slash ? slash + 1 : p);
}

static tl_value_t *p_join(tl_eval_t *ev, tl_call_t *c)
{
    const char *out = NULL;
    for (int i = 0; i < c->nargs; i++) {
        tl_value_t *v = c->args[i];
        if (v->kind != TL_V_STR) return opaque_call(ev, "join");
        const char *s = v->str.s;
        if (!out || s[0] == '/')
            out = s;
        else if (!*out || out[strlen(out) - 1] == '/')
            out = tl_arena_printf(ev->arena, "%s%s", out, s);
        else
            out = tl_arena_printf(ev->arena, "%s/%s", out, s);
    }
    return tl_value_str(ev->arena, out ? out : "");
}

static tl_value_t *p_exists(tl_eval_t *ev, tl_call_t *c)
{
    const char *p = str_arg(c, 0, "path");
    if (!p) return opaque_call(ev, "exists");
    return tl_value_bool(tl_front_vfs_get(ev, p) != NULL || access(p, F_OK) == 0);
}

// --- the in-memory files ---------------------------------------------------------------------

const char *tl_front_vfs_get(tl_eval_t *ev, const char *path)
{
    if (!ev->vfs.len) return NULL; // the usual case: every import asks
    tl_vfile_t *f = tl_map_get(&ev->vfs, normalize(ev, path));
    if (!f) return NULL;
    char *text = tl_arena_alloc(ev->arena, f->len + 1);
    size_t o = 0;
    for (piece_t *p = f->head; p; p = p->next) {
        memcpy(text + o, p->text, p->len);
        o += p->len;
    }
    text[o] = 0;
    return text;
}

static tl_vfile_t *vfile_of(tl_eval_t *ev, tl_call_t *c)
{
    return c->self && c->self->kind == TL_V_STR ? tl_map_get(&ev->vfs, c->self->str.s) : NULL;
}

// f.write(text): appends; returns the number of characters, as Python does.
static tl_value_t *f_write(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"s", NULL};
    if (!tl_call_check(ev, c, "write", 1, 1, kws)) return NULL;
    tl_value_t *s = tl_call_arg(c, 0, "s");
    tl_vfile_t *f = vfile_of(ev, c);
    if (!s || s->kind != TL_V_STR)
        return tl_eval_fail(ev, c->loc, "write() argument must be str, got %s",
                            s ? tl_value_type_name(s) : "nothing");
    if (!f) return tl_eval_fail(ev, c->loc, "write() on a file not opened for writing");
    piece_t *p = tl_arena_alloc(ev->arena, sizeof *p);
    p->text = s->str.s;
    p->len = s->str.len;
    if (f->tail)
        f->tail->next = p;
    else
        f->head = p;
    f->tail = p;
    f->len += p->len;
    return tl_value_int(ev->arena, (int64_t)s->str.len);
}

static tl_value_t *f_read(tl_eval_t *ev, tl_call_t *c)
{
    const char *text = c->self ? tl_front_vfs_get(ev, c->self->str.s) : NULL;
    return tl_value_str(ev->arena, text ? text : "");
}

static tl_value_t *f_none(tl_eval_t *ev, tl_call_t *c)
{
    (void)ev, (void)c;
    return tl_value_none();
}

static tl_value_t *f_self(tl_eval_t *ev, tl_call_t *c)
{
    (void)ev;
    return c->self;
}

// open(file, mode="r", ...): a file object whose methods carry its path as self.
static tl_value_t *b_open(tl_eval_t *ev, tl_call_t *c)
{
    const char *path = str_arg(c, 0, "file"), *mode = str_arg(c, 1, "mode");
    if (!mode) mode = "r";
    if (!path) return tl_value_opaque(ev->arena, "open(...)");
    const char *abs = normalize(ev, path);
    bool write = strpbrk(mode, "wax") != NULL;
    tl_vfile_t *f = tl_map_get(&ev->vfs, abs);
    if (write && (!f || strchr(mode, 'w'))) {
        f = tl_arena_alloc(ev->arena, sizeof *f); // zeroed: empty
        tl_map_put(&ev->vfs, abs, f);
    }
    if (!f) return tl_value_opaque(ev->arena, "open(...)"); // a file on disk: not read
    tl_arena_t *a = ev->arena;
    tl_value_t *self = tl_value_str(a, abs);
    tl_value_t *file = tl_value_module(a, "file");
    tl_value_module_set(a, file, "name", tl_value_str(a, path));
    tl_front_def_self(ev, file, "write", f_write, self);
    tl_front_def_self(ev, file, "read", f_read, self);
    tl_front_def_self(ev, file, "close", f_none, self);
    tl_front_def_self(ev, file, "flush", f_none, self);
    tl_front_def_self(ev, file, "__enter__", f_self, file);
    tl_front_def_self(ev, file, "__exit__", f_none, self);
    return file;
}

// --- importlib -------------------------------------------------------------------------------

// spec.loader.exec_module(module): runs the file the module's spec names.
static tl_value_t *il_exec_module(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"module", NULL};
    if (!tl_call_check(ev, c, "exec_module", 1, 1, kws)) return NULL;
    tl_value_t *m = tl_call_arg(c, 0, "module");
    tl_value_t *file = m && m->kind == TL_V_MODULE ? tl_value_module_get(m, "__file__") : NULL;
    tl_value_t *name = m && m->kind == TL_V_MODULE ? tl_value_module_get(m, "__name__") : NULL;
    if (!file || file->kind != TL_V_STR)
        return tl_eval_fail(ev, c->loc,
                            "exec_module() needs a module made by importlib.util.module_from_spec");
    tl_module_rec_t *rec = tl_front_load_file(
        ev, file->str.s, name && name->kind == TL_V_STR ? name->str.s : "module");
    if (!rec) return tl_eval_fail(ev, c->loc, "running '%s' failed", file->str.s);
    tl_value_t *ns = tl_front_module_ns(rec);
    m->module.attrs = ns->module.attrs; // the module's names are the file's globals
    m->module.generated = tl_front_vfs_get(ev, file->str.s) != NULL;
    return tl_value_none();
}

// importlib.util.spec_from_file_location(name, location)
static tl_value_t *il_spec(tl_eval_t *ev, tl_call_t *c)
{
    const char *name = str_arg(c, 0, "name"), *loc = str_arg(c, 1, "location");
    if (!name || !loc)
        return tl_value_opaque(ev->arena, "importlib.util.spec_from_file_location(...)");
    tl_arena_t *a = ev->arena;
    tl_value_t *spec = tl_value_module(a, "ModuleSpec");
    tl_value_t *loader = tl_value_module(a, "SourceFileLoader");
    tl_front_def(ev, loader, "exec_module", il_exec_module);
    tl_value_module_set(a, spec, "name", tl_value_str(a, name));
    tl_value_module_set(a, spec, "origin", tl_value_str(a, normalize(ev, loc)));
    tl_value_module_set(a, spec, "loader", loader);
    return spec;
}

// importlib.util.module_from_spec(spec): an empty module that exec_module fills.
static tl_value_t *il_module_from_spec(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *spec = tl_call_arg(c, 0, "spec");
    tl_value_t *name = spec && spec->kind == TL_V_MODULE ? tl_value_module_get(spec, "name") : NULL;
    tl_value_t *origin =
        spec && spec->kind == TL_V_MODULE ? tl_value_module_get(spec, "origin") : NULL;
    if (!name || !origin) return tl_value_opaque(ev->arena, "importlib.util.module_from_spec(...)");
    tl_value_t *m = tl_value_module(ev->arena, name->str.s);
    tl_value_module_set(ev->arena, m, "__name__", name);
    tl_value_module_set(ev->arena, m, "__file__", origin);
    tl_value_module_set(ev->arena, m, "__spec__", spec);
    return m;
}

void tl_front_install_pyfiles(tl_eval_t *ev)
{
    tl_arena_t *a = ev->arena;
    tl_front_def(ev, ev->builtins, "open", b_open);
    tl_value_t *path = tl_value_module(a, "os.path");
    path->module.permissive = true; // getsize, realpath, ...: opaque driver values
    tl_front_def(ev, path, "abspath", p_abspath);
    tl_front_def(ev, path, "dirname", p_dirname);
    tl_front_def(ev, path, "basename", p_basename);
    tl_front_def(ev, path, "join", p_join);
    tl_front_def(ev, path, "exists", p_exists);
    tl_front_def(ev, path, "isfile", p_exists);
    tl_value_t *os = tl_value_module_get(ev->builtins, "__os__");
    if (os) tl_value_module_set(a, os, "path", path);
    tl_value_t *util = tl_value_module(a, "importlib.util");
    util->module.permissive = true;
    tl_front_def(ev, util, "spec_from_file_location", il_spec);
    tl_front_def(ev, util, "module_from_spec", il_module_from_spec);
    tl_value_t *importlib = tl_value_module(a, "importlib");
    importlib->module.permissive = true; // import_module, reload: opaque
    tl_value_module_set(a, importlib, "util", util);
    tl_value_module_set(a, ev->builtins, "__importlib__", importlib);
}
