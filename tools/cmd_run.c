// tilec run FILE [-k NAME] [-a NAME=VALUE]... [-d NAME=VALUE]... [-i PARAM=FILE.npy]...
//           [--fill PARAM=SPEC]... [--seed N] [--save-inputs DIR] [-o DIR] [--expect PARAM=FILE]...
//           [--rtol R] [--atol A] [--warn-uninit] [--target NAME] [-j N] [--cflags FLAGS]
//           [--pto-isa DIR] [--repeat N] [--json FILE]
// Runs a kernel on a backend of the table (driver/backend.h): the reference
// semantics (the functional executor, the default), natively (--target cpu:
// generated C, compiled and cached, on -j N threads), or any other.
// Exit status: 0 ok, 1 an --expect mismatch or a run-time error, 2 a compile or usage error.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_io.h"

typedef struct {
    const char *json; // --json FILE
    double create_s;  // creating the backend (a native one compiles then)
} run_cli_t;

static int run_option(cli_io_t *io, const char *opt, const char *val)
{
    cli_run_t *r = io->extra;
    run_cli_t *c = r->extra;
    if (!strcmp(opt, "--warn-uninit") && !val) {
        r->opts.ref.warn_uninit = true;
        return CLI_OPT_OK;
    }
    if (!val) return CLI_OPT_UNKNOWN;
    if (!strcmp(opt, "--target")) {
        if (!(r->be = tl_backend_find(val))) {
            fprintf(stderr, "tilec: --target %s: no such backend (one of:", val);
            for (const tl_backend_t *const *be = tl_backends(); *be; be++)
                fprintf(stderr, " %s", (*be)->name);
            fprintf(stderr, ")\n");
            return CLI_OPT_BAD;
        }
        return CLI_OPT_OK;
    }
    if (!strcmp(opt, "-j")) {
        long long n;
        if (!cli_int_option("-j", val, 1, 4096, &n)) return CLI_OPT_BAD;
        r->opts.cpu.threads = (int)n;
        r->opts.pto.wave = (int)n;
        return CLI_OPT_OK;
    }
    if (!strcmp(opt, "--repeat")) {
        long long n;
        if (!cli_int_option("--repeat", val, 1, 1000000, &n)) return CLI_OPT_BAD;
        r->repeat = (int)n;
        return CLI_OPT_OK;
    }
    if (!strcmp(opt, "--pto-isa")) {
        r->opts.pto.pto_isa = val;
        return CLI_OPT_OK;
    }
    if (!strcmp(opt, "--json")) {
        if (!cli_check_writable("--json", val, false)) return CLI_OPT_BAD;
        c->json = val;
        return CLI_OPT_OK;
    }
    if (!strcmp(opt, "--cflags")) {
        r->opts.cpu.jit.cflags = val;
        return CLI_OPT_OK;
    }
    return CLI_OPT_UNKNOWN;
}

// A native backend says where it compiled the kernel.
static void created(cli_run_t *r, double seconds)
{
    ((run_cli_t *)r->extra)->create_s = seconds;
    tl_backend_report_t rep;
    r->be->report(r->self, &rep);
    if (r->be->native)
        printf("compiled %s for the %s in %.3f s (%s)\n", r->k->name, r->be->name, seconds,
               rep.cached ? "cached" : "cc");
}

static void json_str(tl_buf_t *f, const char *s)
{
    tl_buf_putc(f, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            tl_buf_printf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            tl_buf_printf(f, "\\u%04x", *s);
        else
            tl_buf_putc(f, *s);
    }
    tl_buf_putc(f, '"');
}

// --json FILE: the run's facts (the sim target's report included), like tilec
// sim's; staged with the run's other outputs.
static bool write_json(cli_run_t *r, const tl_backend_report_t *rep, double seconds,
                       const char *path)
{
    tl_buf_t f;
    tl_buf_init(&f);
    tl_buf_puts(&f, "{\n  \"kernel\": ");
    json_str(&f, r->k->name);
    tl_buf_printf(&f, ",\n  \"target\": \"%s\", \"blocks\": %lld, \"run_s\": %.6f", r->be->name,
                  (long long)rep->blocks, seconds);
    if (r->be->native)
        tl_buf_printf(&f, ", \"compile_s\": %.6f, \"cached\": %s",
                      ((run_cli_t *)r->extra)->create_s, rep->cached ? "true" : "false");
    tl_buf_puts(&f, ",\n  \"outputs\": [");
    int n = 0;
    for (int p = 0; p < r->k->nparams; p++) {
        const tl_param_t *par = &r->k->params[p];
        tl_tensor_t *t =
            par->buf && par->role == TL_ROLE_OUTPUT ? tl_bind_tensor(r->args, par->name) : NULL;
        if (!t) continue;
        tl_buf_puts(&f, n++ ? ", {\"name\": " : "{\"name\": ");
        json_str(&f, par->name);
        tl_buf_printf(&f, ", \"dtype\": \"%s\", \"shape\": [", tl_dtype_name(t->dtype));
        for (int d = 0; d < t->ndim; d++)
            tl_buf_printf(&f, "%s%lld", d ? ", " : "", (long long)t->shape[d]);
        tl_buf_puts(&f, "]}");
    }
    tl_buf_puts(&f, "]");
    tl_buf_t doc;
    tl_buf_init(&doc);
    r->be->write(r->self, TL_BACKEND_JSON, &doc);
    if (doc.len) tl_buf_printf(&f, ",\n  \"%s\": %s", r->be->name, tl_buf_cstr(&doc));
    tl_buf_free(&doc);
    tl_buf_puts(&f, "\n}\n");
    tl_diag_t d;
    tl_diag_init(&d);
    bool ok = cli_stage_text(&r->io->stage, "--json", path, &f, &d) == TL_OK;
    fputs(tl_diag_text(&d), stderr);
    tl_diag_free(&d);
    tl_buf_free(&f);
    return ok;
}

static bool ran(cli_run_t *r, tl_status_t st, double seconds)
{
    if (st != TL_OK && st != TL_ERR_RACE) return false; // the sim target's races: a report
    tl_backend_report_t rep;
    r->be->report(r->self, &rep);
    fputs(rep.printed, stdout);
    tl_buf_t text;
    tl_buf_init(&text);
    r->be->write(r->self, TL_BACKEND_SUMMARY, &text);
    fputs(tl_buf_cstr(&text), stdout);
    tl_buf_free(&text);
    if (r->be->native)
        printf("ran %s on the %s: %lld blocks in %.6f s\n", r->k->name, r->be->name,
               (long long)rep.blocks, seconds);
    else
        printf("ran %s: %lld blocks in %.3f s\n", r->k->name, (long long)rep.blocks, seconds);
    const char *json = ((run_cli_t *)r->extra)->json;
    return !json || write_json(r, &rep, seconds, json);
}

int cmd_run(int argc, char **argv)
{
    cli_opts_t o;
    if (!cli_parse("run", argc, argv, &o, cli_io_takes_value)) return 2;
    run_cli_t rc = {0};
    cli_run_t r = {.be = tl_backend_find("ref"), .created = created, .ran = ran, .extra = &rc};
    // The reference semantics do not depend on scratchpad sizes: give every
    // scope room (the simulator and the memory planner check the real ones).
    tl_exec_opts_unbounded(&r.opts.ref);
    cli_io_t io = {.extra = &r};
    if (!cli_io_parse(&o, &io, run_option)) return 2;
    return cli_run(&o, &io, &r);
}
