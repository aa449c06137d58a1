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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rt/compare.h"
#include "rt/npy.h"
#include "rt/rng.h"

bool cli_io_takes_value(const char *opt)
{
    static const char *opts[] = {"-i",     "-d",     "--fill",   "--seed", "-o", "--expect", "--rtol",
                                 "--atol", "--target", "--cflags", "-j",     NULL};
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

bool cli_io_parse(cli_opts_t *o, cli_io_t *io, bool (*other)(cli_io_t *, const char *, const char *))
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
        if (!strcmp(a, "-i") && v && io->nin < CLI_IO_MAX) ok = pair(a, v, &io->in[io->nin++]);
        else if (!strcmp(a, "--fill") && v && io->nfill < CLI_IO_MAX) ok = pair(a, v, &io->fill[io->nfill++]);
        else if (!strcmp(a, "--expect") && v && io->nexpect < CLI_IO_MAX) ok = pair(a, v, &io->expect[io->nexpect++]);
        else if (!strcmp(a, "-d") && v && io->ndims < CLI_IO_MAX) {
            cli_pair_t p;
            double d;
            ok = pair(a, v, &p) && number("-d", p.value, &d);
            if (ok && (d != (double)(int64_t)d || d <= 0)) {
                fprintf(stderr, "tilec: -d %s needs a positive integer\n", p.name);
                ok = false;
            }
            if (ok) {
                io->dim_names[io->ndims] = p.name;
                io->dim_values[io->ndims++] = (int64_t)d;
            } else {
                free((char *)p.name);
            }
        } else if (!strcmp(a, "--seed") && v) {
            double d;
            ok = number(a, v, &d) && d >= 0;
            io->seed = (uint64_t)d;
        } else if (!strcmp(a, "-o") && v) io->outdir = v;
        else if (!strcmp(a, "--rtol") && v) ok = number(a, v, &io->rtol) && (io->have_rtol = true);
        else if (!strcmp(a, "--atol") && v) ok = number(a, v, &io->atol) && (io->have_atol = true);
        else if (other && other(io, a, v)) ok = true;
        else {
            fprintf(stderr, "tilec: unknown option '%s'%s\n", a, v ? "" : " (or missing value)");
            ok = false;
        }
        if (!ok) return false;
    }
    return true;
}

void cli_io_free(cli_io_t *io)
{
    for (int i = 0; i < io->nin; i++) free((char *)io->in[i].name);
    for (int i = 0; i < io->nfill; i++) free((char *)io->fill[i].name);
    for (int i = 0; i < io->nexpect; i++) free((char *)io->expect[i].name);
    for (int i = 0; i < io->ndims; i++) free((char *)io->dim_names[i]);
    if (io->tensors)
        for (int i = 0; i < io->nparams; i++) tl_tensor_destroy(io->tensors[i]);
    free(io->tensors);
    free(io->owned);
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
    fprintf(stderr, "tilec: %s %s: the kernel has no tensor parameter '%s' (parameters:", opt, name, name);
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
        return tl_diag_fail(d, TL_ERR_ARG,
                            "--fill: bad spec '%s' (normal[:MEAN:STD], uniform:LO:HI, int:LO:HI, distinct:N)",
                            spec);
    }
    if (tl_dtype_is_float(t->dtype)) return tl_rng_fill_normal(r, t, 0, 1, d);
    if (t->dtype == TL_I8) return tl_rng_fill_int(r, t, -127, 127, d);
    if (t->dtype == TL_BOOL) return tl_rng_fill_int(r, t, 0, 1, d);
    return tl_rng_fill_int(r, t, 0, 15, d);
}

tl_status_t cli_io_prepare(const tl_kernel_t *k, cli_io_t *io, tl_diag_t *d)
{
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
    for (int i = 0; i < io->ndims; i++) {
        bool found = false;
        for (int v = 0; v < k->dims.len; v++) {
            tl_var_t *dv = k->dims.items[v];
            if (strcmp(dv->name, io->dim_names[i])) continue;
            values[dv->id] = io->dim_values[i];
            known[dv->id] = found = true;
        }
        if (!found) {
            st = tl_diag_fail(d, TL_ERR_ARG, "-d %s: the kernel has no symbolic dimension '%s'", io->dim_names[i],
                              io->dim_names[i]);
            goto done;
        }
    }
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
                st = tl_diag_fail(d, TL_ERR_ARG,
                                  "input '%s' is generated but dimension %d (%s) is unknown: give the "
                                  "symbolic dimensions with -d NAME=VALUE or the input with -i %s=FILE.npy",
                                  par->name, j, tl_buf_cstr(&b), par->name);
                tl_buf_free(&b);
                goto done;
            }
        }
        if ((st = tl_tensor_create(&io->tensors[p], par->buf->dtype, par->buf->ndim, shape, d)) != TL_OK) goto done;
        io->owned[p] = true;
        const char *spec = NULL;
        for (int f = 0; f < io->nfill; f++)
            if (!strcmp(io->fill[f].name, par->name)) spec = io->fill[f].value;
        tl_rng_t r;
        tl_rng_seed(&r, io->seed * 1000003u + (uint64_t)p);
        if ((st = fill(&r, io->tensors[p], spec, d)) != TL_OK) goto done;
    }
    for (int f = 0; f < io->nfill; f++) {
        int p;
        if (!check_param(k, "--fill", io->fill[f].name, &p)) {
            st = TL_ERR_ARG;
            goto done;
        }
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
    for (int i = 0; i < io->ndims && st == TL_OK; i++)
        st = tl_bind_set_dim(args, io->dim_names[i], io->dim_values[i]);
    return st;
}

tl_status_t cli_io_finish(const tl_kernel_t *k, cli_io_t *io, tl_bind_t *args, tl_diag_t *d,
                          bool *mismatch)
{
    *mismatch = false;
    if (io->outdir) {
        if (mkdir(io->outdir, 0777) != 0 && errno != EEXIST)
            return tl_diag_fail(d, TL_ERR_IO, "-o %s: cannot create the directory: %s", io->outdir, strerror(errno));
        for (int p = 0; p < k->nparams; p++) {
            if (!is_result(k, p)) continue;
            tl_tensor_t *t = tl_bind_tensor(args, k->params[p].name);
            if (!t) continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s.npy", io->outdir, k->params[p].name);
            tl_status_t st = tl_npy_write(path, t, 1, d);
            if (st != TL_OK) return st;
            printf("wrote %s\n", path);
        }
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
        if (st == TL_OK) printf("%s matches %s: %s\n", k->params[p].name, io->expect[e].value, tl_buf_cstr(&b));
        else if (st == TL_ERR_MISMATCH) {
            printf("%s does not match %s: %s\n", k->params[p].name, io->expect[e].value, tl_buf_cstr(&b));
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
