// Inputs, outputs and checks for the commands that run kernels (run, sim):
//   -i PARAM=FILE.npy     an input from a file
//   -d DIM=VALUE          a symbolic dimension
//   --fill PARAM=SPEC     how to generate an input: normal[:MEAN:STD], uniform:LO:HI,
//                         int:LO:HI, distinct:N (N distinct indices per row)
//   --seed N              seed of the generated inputs (default 0)
//   -o DIR                write the outputs to DIR/PARAM.npy
//   --expect PARAM=FILE   compare an output with a file (--rtol, --atol)
// Inputs not given are generated: floats ~ N(0, 1), int8 in [-127, 127], other
// integers in [0, 16), bool 0/1; parameter i uses seed (seed * 1000003 + i) so a
// file given for one input does not change the others.
#include "cli_io.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt/compare.h"
#include "rt/npy.h"
#include "rt/rng.h"

bool cli_io_takes_value(const char *opt)
{
    static const char *opts[] = {"-i",       "-d",        "--fill", "--seed",
                                 "-o",       "--expect",  "--rtol", "--atol",
                                 "--target", "--cflags",  "-j",     "--save-inputs",
                                 "--repeat", "--pto-isa", "--json", NULL};
    for (int i = 0; opts[i]; i++)
        if (!strcmp(opts[i], opt)) return true;
    return false;
}

static bool pair(const char *opt, const char *s, cli_pair_t *p)
{
    const char *eq = strchr(s, '=');
    if (!eq || eq == s || !eq[1]) {
        fprintf(stderr, "tilec: %s expects NAME=VALUE, got '%s'\n", opt, s);
        return false;
    }
    p->name = strndup(s, (size_t)(eq - s));
    p->value = eq + 1;
    return p->name != NULL;
}

static bool number(const char *opt, const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    if (end == s || *end || errno) {
        fprintf(stderr, "tilec: %s expects a number, got '%s'\n", opt, s);
        return false;
    }
    return true;
}

bool cli_int_option(const char *opt, const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (end == s || *end || errno || x < lo || x > hi) {
        fprintf(stderr, "tilec: %s expects an integer from %lld to %lld, got '%s'\n", opt, lo, hi,
                s);
        return false;
    }
    *out = x;
    return true;
}

// --seed: any 64-bit unsigned integer.
static bool seed_option(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (end == s || *end || errno || strchr(s, '-')) {
        fprintf(stderr, "tilec: --seed expects an integer from 0 to %llu, got '%s'\n",
                (unsigned long long)UINT64_MAX, s);
        return false;
    }
    *out = x;
    return true;
}

static bool tolerance(const char *opt, const char *s, double *out)
{
    if (!number(opt, s, out)) return false;
    if (!(*out >= 0) || *out == HUGE_VAL) {
        fprintf(stderr, "tilec: %s expects a non-negative number, got '%s'\n", opt, s);
        return false;
    }
    return true;
}

static bool add_pair(const char *opt, const char *v, cli_pair_t *list, int *n)
{
    if (*n == CLI_IO_MAX) {
        fprintf(stderr, "tilec: at most %d %s options\n", CLI_IO_MAX, opt);
        return false;
    }
    if (!pair(opt, v, &list[*n])) return false;
    ++*n;
    return true;
}

bool cli_io_parse(cli_opts_t *o, cli_io_t *io, cli_option_fn other)
{
    void *extra = io->extra; // set by the caller for `other`
    memset(io, 0, sizeof *io);
    io->extra = extra;
    for (int i = 0; i < o->nrest; i++) {
        const char *a = o->rest[i], *v = NULL;
        char opt[32];
        const char *eq = a[0] == '-' && a[1] == '-' ? strchr(a, '=') : NULL;
        if (eq && (size_t)(eq - a) < sizeof opt) {
            memcpy(opt, a, (size_t)(eq - a));
            opt[eq - a] = 0;
            v = eq + 1;
            a = opt;
        } else if (cli_io_takes_value(a) && i + 1 < o->nrest) {
            v = o->rest[++i];
        }
        bool ok = true;
        int mine = other ? other(io, a, v) : CLI_OPT_UNKNOWN;
        if (mine != CLI_OPT_UNKNOWN)
            ok = mine == CLI_OPT_OK;
        else if (cli_io_takes_value(a) && !v) {
            fprintf(stderr, "tilec: %s needs a value\n", a);
            ok = false;
        } else if (!strcmp(a, "-i") && v)
            ok = add_pair(a, v, io->in, &io->nin);
        else if (!strcmp(a, "--fill") && v)
            ok = add_pair(a, v, io->fill, &io->nfill);
        else if (!strcmp(a, "--expect") && v)
            ok = add_pair(a, v, io->expect, &io->nexpect);
        else if (!strcmp(a, "-d") && v) {
            double unused;
            ok = add_pair(a, v, io->def, &io->ndefs) &&
                 number("-d", io->def[io->ndefs - 1].value, &unused);
        } else if (!strcmp(a, "--seed") && v)
            ok = seed_option(v, &io->seed);
        else if (!strcmp(a, "-o") && v)
            io->outdir = v;
        else if (!strcmp(a, "--save-inputs") && v)
            io->inputs_dir = v;
        else if (!strcmp(a, "--rtol") && v)
            ok = tolerance(a, v, &io->rtol) && (io->have_rtol = true);
        else if (!strcmp(a, "--atol") && v)
            ok = tolerance(a, v, &io->atol) && (io->have_atol = true);
        else {
            fprintf(stderr, "tilec: unknown option '%s' (tilec %s --help lists the options)\n", a,
                    o->command);
            ok = false;
        }
        if (!ok) return false;
    }
    return true;
}

// Creates and removes a file in `dir`: what can be written there (root may
// write where access() says no one can, and a read-only mount refuses root).
static bool probe_dir(const char *opt, const char *shown, const char *dir)
{
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/.tilec-probe-XXXXXX", dir);
    int fd = mkstemp(probe);
    if (fd < 0) {
        fprintf(stderr, "tilec: %s %s: cannot write in '%s': %s\n", opt, shown, dir,
                strerror(errno));
        return false;
    }
    close(fd);
    unlink(probe);
    return true;
}

bool cli_check_writable(const char *opt, const char *path, bool is_dir)
{
    struct stat st;
    if (is_dir) {
        if (stat(path, &st) == 0 && !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "tilec: %s %s: not a directory\n", opt, path);
            return false;
        }
        char part[4096];
        snprintf(part, sizeof part, "%s", path);
        for (char *p = part + 1; *p; p++) { // the parents first
            if (*p != '/') continue;
            *p = 0;
            mkdir(part, 0777);
            *p = '/';
        }
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "tilec: %s %s: cannot create the directory: %s\n", opt, path,
                    strerror(errno));
            return false;
        }
        return probe_dir(opt, path, path);
    }
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "tilec: %s %s: is a directory, not a file\n", opt, path);
        return false;
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = 0;
    else
        *slash = 0;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "tilec: %s %s: the directory '%s' does not exist\n", opt, path, dir);
        return false;
    }
    return probe_dir(opt, path, dir);
}

void cli_io_free(cli_io_t *io)
{
    for (int i = 0; i < io->nin; i++) free((char *)io->in[i].name);
    for (int i = 0; i < io->nfill; i++) free((char *)io->fill[i].name);
    for (int i = 0; i < io->nexpect; i++) free((char *)io->expect[i].name);
    for (int i = 0; i < io->ndefs; i++) free((char *)io->def[i].name);
    if (io->tensors)
        for (int i = 0; i < io->nparams; i++) tl_tensor_destroy(io->tensors[i]);
    free(io->tensors);
    free(io->owned);
    cli_stage_finish(&io->stage, false, NULL);
}

static int param_index(const tl_kernel_t *k, const char *name)
{
    for (int i = 0; i < k->nparams; i++)
        if (!strcmp(k->params[i].name, name)) return i;
    return -1;
}

static bool check_param(const tl_kernel_t *k, const char *opt, const char *name, int *idx)
{
    *idx = param_index(k, name);
    if (*idx >= 0 && k->params[*idx].buf) return true;
    fprintf(stderr, "tilec: %s %s: the kernel has no tensor parameter '%s' (parameters:", opt, name,
            name);
    for (int i = 0; i < k->nparams; i++) fprintf(stderr, " %s", k->params[i].name);
    fprintf(stderr, ")\n");
    return false;
}

// Fills a generated input per its --fill spec or the dtype default.
static tl_status_t fill(tl_rng_t *r, tl_tensor_t *t, const char *spec, tl_diag_t *d)
{
    if (spec) {
        double a = 0, b = 1;
        if (!strncmp(spec, "normal", 6)) {
            if (spec[6] == ':' && sscanf(spec + 7, "%lf:%lf", &a, &b) != 2) goto bad;
            return tl_rng_fill_normal(r, t, spec[6] ? a : 0, spec[6] ? b : 1, d);
        }
        if (!strncmp(spec, "uniform:", 8) && sscanf(spec + 8, "%lf:%lf", &a, &b) == 2)
            return tl_rng_fill_uniform(r, t, a, b, d);
        if (!strncmp(spec, "int:", 4) && sscanf(spec + 4, "%lf:%lf", &a, &b) == 2)
            return tl_rng_fill_int(r, t, (int64_t)a, (int64_t)b, d);
        if (!strncmp(spec, "distinct:", 9) && sscanf(spec + 9, "%lf", &a) == 1)
            return tl_rng_fill_distinct(r, t, (int64_t)a, d);
    bad:
        return tl_diag_fail(
            d, TL_ERR_ARG,
            "--fill: bad spec '%s' (normal[:MEAN:STD], uniform:LO:HI, int:LO:HI, distinct:N)",
            spec);
    }
    if (tl_dtype_is_float(t->dtype)) return tl_rng_fill_normal(r, t, 0, 1, d);
    if (t->dtype == TL_I8) return tl_rng_fill_int(r, t, -127, 127, d);
    if (t->dtype == TL_BOOL) return tl_rng_fill_int(r, t, 0, 1, d);
    return tl_rng_fill_int(r, t, 0, 15, d);
}

// The scalar (non-tensor) parameter named `name`, or NULL.
static const tl_var_t *scalar_param(const tl_kernel_t *k, const char *name)
{
    for (int i = 0; i < k->nparams; i++)
        if (k->params[i].var && !k->params[i].buf && !strcmp(k->params[i].name, name))
            return k->params[i].var;
    return NULL;
}

static const tl_var_t *dim_var(const tl_kernel_t *k, const char *name)
{
    for (int v = 0; v < k->dims.len; v++) {
        tl_var_t *dv = k->dims.items[v];
        if (!strcmp(dv->name, name)) return dv;
    }
    return NULL;
}

// What -d may name in k, for messages: "symbolic dimensions M, N; scalar parameters alpha".
static void list_defs(const tl_kernel_t *k, tl_buf_t *b)
{
    int n = 0;
    for (int v = 0; v < k->dims.len; v++)
        tl_buf_printf(b, "%s%s", n++ ? ", " : "symbolic dimensions ",
                      ((tl_var_t *)k->dims.items[v])->name);
    int m = 0;
    for (int i = 0; i < k->nparams; i++)
        if (scalar_param(k, k->params[i].name))
            tl_buf_printf(b, "%s%s",
                          m++ ? ", "
                          : n ? "; scalar parameters "
                              : "scalar parameters ",
                          k->params[i].name);
    if (!n && !m) tl_buf_puts(b, "none");
}

// An integer -d value for a variable of dtype t (a dim: also positive).
static tl_status_t def_integer(const char *name, const char *text, tl_dtype_t t, bool dim,
                               int64_t *out, tl_diag_t *d)
{
    char *end;
    errno = 0;
    long long x = strtoll(text, &end, 0);
    if (end != text && (*end == '.' || *end == 'e' || *end == 'E')) { // 1e3, 64.0
        double f = strtod(text, &end);
        x = f == (double)(long long)f ? (long long)f : (errno = EDOM, 0);
    }
    double lo = dim ? 0 : tl_dtype_min(t), hi = tl_dtype_max(t);
    const char *what = dim ? "symbolic dimension" : "scalar parameter";
    if (end == text || *end || errno || (double)x < lo || (double)x > hi)
        return tl_diag_fail(d, TL_ERR_ARG,
                            "-d %s=%s: '%s' is a %s of dtype %s: an integer from %.0f to %.0f",
                            name, text, name, what, tl_dtype_name(t), lo, hi);
    *out = x;
    return TL_OK;
}

// Sorts the -d values into dims (known from here for the generated inputs)
// and scalar parameters, checks each against its dtype, and that every scalar
// parameter has one.
static tl_status_t check_defs(const tl_kernel_t *k, cli_io_t *io, int64_t *values, bool *known,
                              tl_diag_t *d)
{
    for (int i = 0; i < io->ndefs; i++) {
        const char *name = io->def[i].name, *text = io->def[i].value;
        const tl_var_t *dv = dim_var(k, name), *sv = scalar_param(k, name);
        tl_status_t st;
        if (dv) {
            io->def_is_dim[i] = true;
            if ((st = def_integer(name, text, dv->dtype, true, &io->def_int[i], d)) != TL_OK)
                return st;
            values[dv->id] = io->def_int[i];
            known[dv->id] = true;
        } else if (sv && tl_dtype_is_float(sv->dtype)) {
            io->def_float[i] = strtod(text, NULL); // a number: checked by cli_io_parse
        } else if (sv) {
            if ((st = def_integer(name, text, sv->dtype, false, &io->def_int[i], d)) != TL_OK)
                return st;
        } else {
            tl_buf_t b;
            tl_buf_init(&b);
            list_defs(k, &b);
            st = tl_diag_fail(
                d, TL_ERR_ARG,
                "-d %s: the kernel has no symbolic dimension or scalar parameter '%s' (it has: %s)",
                name, name, tl_buf_cstr(&b));
            tl_buf_free(&b);
            return st;
        }
    }
    for (int i = 0; i < k->nparams; i++) {
        const tl_var_t *sv = scalar_param(k, k->params[i].name);
        bool given = false;
        for (int j = 0; j < io->ndefs && sv; j++)
            given = given || !strcmp(io->def[j].name, sv->name);
        if (sv && !given)
            return tl_diag_fail(
                d, TL_ERR_ARG,
                "the kernel's scalar parameter '%s' (%s) is not given: give it with -d %s=VALUE",
                k->params[i].name, tl_dtype_name(sv->dtype), k->params[i].name);
    }
    return TL_OK;
}

static bool is_result(const tl_kernel_t *k, int p);

// What the options name must exist before anything runs: --fill and --expect
// parameters (--expect an output), readable --expect files, a writable -o.
static bool check_targets(const tl_kernel_t *k, const cli_io_t *io)
{
    int p;
    for (int f = 0; f < io->nfill; f++)
        if (!check_param(k, "--fill", io->fill[f].name, &p)) return false;
    for (int e = 0; e < io->nexpect; e++) {
        const char *name = io->expect[e].name, *file = io->expect[e].value;
        if (!check_param(k, "--expect", name, &p)) return false;
        if (!is_result(k, p)) {
            fprintf(stderr,
                    "tilec: --expect %s: '%s' is an input of the kernel, not an output (outputs:",
                    name, name);
            for (int i = 0; i < k->nparams; i++)
                if (is_result(k, i)) fprintf(stderr, " %s", k->params[i].name);
            fprintf(stderr, ")\n");
            return false;
        }
        FILE *f = fopen(file, "rb");
        if (!f) {
            fprintf(stderr, "tilec: --expect %s=%s: cannot read '%s': %s\n", name, file, file,
                    strerror(errno));
            return false;
        }
        fclose(f);
    }
    return (!io->outdir || cli_check_writable("-o", io->outdir, true)) &&
           (!io->inputs_dir || cli_check_writable("--save-inputs", io->inputs_dir, true));
}

tl_status_t cli_io_prepare(const tl_kernel_t *k, cli_io_t *io, tl_diag_t *d)
{
    if (!check_targets(k, io)) return TL_ERR_ARG;
    io->nparams = k->nparams;
    io->tensors = calloc((size_t)k->nparams + 1, sizeof *io->tensors);
    io->owned = calloc((size_t)k->nparams + 1, sizeof *io->owned);
    int nv = k->vars.len + 1;
    int64_t *values = calloc((size_t)nv, sizeof *values);
    bool *known = calloc((size_t)nv, sizeof *known);
    tl_status_t st = TL_OK;
    if (!io->tensors || !io->owned || !values || !known) {
        st = TL_ERR_NOMEM;
        goto done;
    }
    if ((st = check_defs(k, io, values, known, d)) != TL_OK) goto done;
    for (int i = 0; i < io->nin; i++) {
        int p;
        if (!check_param(k, "-i", io->in[i].name, &p)) {
            st = TL_ERR_ARG;
            goto done;
        }
        tl_tensor_t *t;
        if ((st = tl_npy_read(io->in[i].value, k->params[p].buf->dtype, &t, d)) != TL_OK) goto done;
        tl_tensor_destroy(io->tensors[p]);
        io->tensors[p] = t;
        // Plain-dimension entries of the shape bind symbolic dims.
        const tl_buffer_t *b = k->params[p].buf;
        for (int j = 0; j < b->ndim && j < t->ndim; j++) {
            const tl_expr_t *e = b->gm_shape[j];
            if (e && e->kind == TL_EX_VAR && e->var->kind == TL_VAR_DIM && !known[e->var->id]) {
                values[e->var->id] = t->shape[j];
                known[e->var->id] = true;
            }
        }
    }
    // Generate every remaining input; outputs and workspaces are the executor's.
    for (int p = 0; p < k->nparams; p++) {
        const tl_param_t *par = &k->params[p];
        if (!par->buf || io->tensors[p] || par->role != TL_ROLE_INPUT) continue;
        int64_t shape[TL_MAX_DIMS];
        for (int j = 0; j < par->buf->ndim; j++) {
            if (!tl_ir_eval_int(par->buf->gm_shape[j], values, known, &shape[j])) {
                tl_buf_t b;
                tl_buf_init(&b);
                tl_ir_print_expr(&b, par->buf->gm_shape[j]);
                st = tl_diag_fail(
                    d, TL_ERR_ARG,
                    "input '%s' is generated but dimension %d (%s) is unknown: give the "
                    "symbolic dimensions with -d NAME=VALUE or the input with -i %s=FILE.npy",
                    par->name, j, tl_buf_cstr(&b), par->name);
                tl_buf_free(&b);
                goto done;
            }
        }
        if ((st = tl_tensor_create(&io->tensors[p], par->buf->dtype, par->buf->ndim, shape, d)) !=
            TL_OK) {
            tl_diag_fail(d, st, "input '%s' cannot be generated", par->name);
            goto done;
        }
        io->owned[p] = true;
        const char *spec = NULL;
        for (int f = 0; f < io->nfill; f++)
            if (!strcmp(io->fill[f].name, par->name)) spec = io->fill[f].value;
        tl_rng_t r;
        tl_rng_seed(&r, io->seed * 1000003u + (uint64_t)p);
        if ((st = fill(&r, io->tensors[p], spec, d)) != TL_OK) goto done;
    }
done:
    free(values);
    free(known);
    return st;
}

// Which parameters are results: the out_idx ones, or (with no out_idx at all)
// every non-workspace tensor, since the kernel writes some of them in place.
static bool is_result(const tl_kernel_t *k, int p)
{
    bool any_out = false;
    for (int i = 0; i < k->nparams; i++) any_out = any_out || k->params[i].role == TL_ROLE_OUTPUT;
    const tl_param_t *par = &k->params[p];
    if (!par->buf) return false;
    return any_out ? par->role == TL_ROLE_OUTPUT : par->role != TL_ROLE_WORKSPACE;
}

tl_status_t cli_io_bind(const tl_kernel_t *k, cli_io_t *io, tl_bind_t *args)
{
    tl_status_t st = TL_OK;
    for (int p = 0; p < k->nparams && st == TL_OK; p++)
        if (io->tensors[p]) st = tl_bind_set_tensor(args, k->params[p].name, io->tensors[p]);
    for (int i = 0; i < io->ndefs && st == TL_OK; i++) {
        const char *name = io->def[i].name;
        const tl_var_t *v = io->def_is_dim[i] ? NULL : scalar_param(k, name);
        if (io->def_is_dim[i])
            st = tl_bind_set_dim(args, name, io->def_int[i]);
        else if (tl_dtype_is_float(v->dtype))
            st = tl_bind_set_float(args, name, io->def_float[i]);
        else
            st = tl_bind_set_int(args, name, io->def_int[i]);
    }
    return st;
}

// Stages t[p] (where not NULL) as DIR/PARAM.npy for option `opt` (-o,
// --save-inputs) in `stage`: the files are renamed into place when the stage
// is committed (cli_stage.h).
static tl_status_t write_npys(const tl_kernel_t *k, const char *opt, const char *dir,
                              tl_tensor_t *const *t, cli_stage_t *stage, tl_diag_t *d)
{
    tl_status_t st = TL_OK;
    for (int p = 0; p < k->nparams && st == TL_OK; p++) {
        if (!t[p]) continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s.npy", dir, k->params[p].name);
        const char *tmp = cli_stage_add(stage, opt, path, true);
        st = tmp ? tl_npy_write(tmp, t[p], 1, d) : TL_ERR_NOMEM;
    }
    return st;
}

tl_status_t cli_io_save_inputs(const tl_kernel_t *k, cli_io_t *io, tl_diag_t *d)
{
    if (!io->inputs_dir) return TL_OK;
    cli_stage_t stage = {0}; // written before the run, a transaction of its own
    tl_status_t st = write_npys(k, "--save-inputs", io->inputs_dir, io->tensors, &stage, d);
    tl_status_t done = cli_stage_finish(&stage, st == TL_OK, d);
    return st != TL_OK ? st : done;
}

tl_status_t cli_io_finish(const tl_kernel_t *k, cli_io_t *io, tl_bind_t *args, tl_diag_t *d,
                          bool *mismatch)
{
    *mismatch = false;
    if (io->outdir) {
        tl_tensor_t **res = calloc((size_t)k->nparams + 1, sizeof *res);
        if (!res) return TL_ERR_NOMEM;
        for (int p = 0; p < k->nparams; p++)
            res[p] = is_result(k, p) ? tl_bind_tensor(args, k->params[p].name) : NULL;
        tl_status_t st = write_npys(k, "-o", io->outdir, res, &io->stage, d);
        free(res);
        if (st != TL_OK) return st;
    }
    for (int e = 0; e < io->nexpect; e++) {
        int p;
        if (!check_param(k, "--expect", io->expect[e].name, &p)) return TL_ERR_ARG;
        tl_tensor_t *got = tl_bind_tensor(args, k->params[p].name);
        tl_tensor_t *want = NULL;
        tl_status_t st = tl_npy_read(io->expect[e].value, got->dtype, &want, d);
        if (st != TL_OK) return st;
        bool is_int = !tl_dtype_is_float(got->dtype);
        double rtol = io->have_rtol ? io->rtol : is_int ? 0 : 1e-2;
        double atol = io->have_atol ? io->atol : is_int ? 0 : 1e-2;
        tl_compare_result_t r;
        tl_diag_t cd;
        tl_diag_init(&cd);
        st = tl_compare(got, want, rtol, atol, &r, &cd);
        tl_buf_t b;
        tl_buf_init(&b);
        tl_compare_format(&r, &b);
        if (st == TL_OK)
            printf("%s matches %s: %s\n", k->params[p].name, io->expect[e].value, tl_buf_cstr(&b));
        else if (st == TL_ERR_MISMATCH) {
            printf("%s does not match %s: %s\n", k->params[p].name, io->expect[e].value,
                   tl_buf_cstr(&b));
            *mismatch = true;
        } else {
            fputs(tl_diag_text(&cd), stderr);
        }
        tl_buf_free(&b);
        tl_diag_free(&cd);
        tl_tensor_destroy(want);
        if (st != TL_OK && st != TL_ERR_MISMATCH) return st;
    }
    return TL_OK;
}
