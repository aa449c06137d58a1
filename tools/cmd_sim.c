// tilec sim FILE [the options of tilec run] [--arch a2|a3|b3] [--l2 cold|warm] [--json FILE]
//           [--trace FILE] [--trace-blocks N] [--no-races]
// Runs a kernel on the modeled Ascend AI Core (src/npu/sim.h): the values (as
// `tilec run`), the cycle estimate, the race and sync checks, a JSON report
// and a Chrome trace of the first blocks.
// Exit status: 0 ok, 1 races, sync misuse, a run-time error or an --expect
// mismatch (benign races alone do not fail), 2 a compile or usage error.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_io.h"

typedef struct {
    tl_sim_opts_t sim;
    const char *json, *trace;
} sim_cli_t;

// Options of this command that take a value, joined to it (--arch=a3) before
// the shared parser sees them.
static const char *const value_opts[] = {"--arch",  "--l2",           "--json",
                                         "--trace", "--trace-blocks", NULL};

static int sim_option(cli_io_t *io, const char *opt, const char *val)
{
    sim_cli_t *c = io->extra;
    if (!strcmp(opt, "--no-races") && !val) {
        c->sim.no_races = true;
        return CLI_OPT_OK;
    }
    bool ours = false;
    for (int i = 0; value_opts[i]; i++) ours = ours || !strcmp(opt, value_opts[i]);
    if (!ours) return CLI_OPT_UNKNOWN;
    if (!val) {
        fprintf(stderr, "tilec: %s needs a value\n", opt);
        return CLI_OPT_BAD;
    }
    if (!strcmp(opt, "--arch")) {
        if (!tl_arch_get(val)) {
            fprintf(stderr, "tilec: --arch %s: unknown architecture (one of: %s)\n", val,
                    tl_arch_names());
            return CLI_OPT_BAD;
        }
        c->sim.arch = val;
    } else if (!strcmp(opt, "--l2")) {
        bool warm = !strcmp(val, "warm");
        if (!warm && strcmp(val, "cold")) {
            fprintf(stderr, "tilec: --l2 %s: expected cold or warm\n", val);
            return CLI_OPT_BAD;
        }
        c->sim.l2 = warm ? TL_SIM_L2_WARM : TL_SIM_L2_COLD;
    } else if (!strcmp(opt, "--json")) {
        if (!cli_check_writable("--json", val, false)) return CLI_OPT_BAD;
        c->json = val;
    } else if (!strcmp(opt, "--trace")) {
        if (!cli_check_writable("--trace", val, false)) return CLI_OPT_BAD;
        c->trace = val;
    } else { // --trace-blocks
        long long n;
        if (!cli_int_option("--trace-blocks", val, 1, 1 << 20, &n)) return CLI_OPT_BAD;
        c->sim.trace_blocks = (int)n;
    }
    return CLI_OPT_OK;
}

// argv with "--arch X" written as "--arch=X"; free with free_joined.
static char **join_values(int argc, char **argv)
{
    char **out = calloc((size_t)argc + 1, sizeof *out);
    int n = 0;
    for (int i = 0; out && i < argc; i++) {
        bool joined = false;
        for (int j = 0; value_opts[j] && !joined && i + 1 < argc; j++) {
            if (strcmp(argv[i], value_opts[j])) continue;
            size_t len = strlen(argv[i]) + strlen(argv[i + 1]) + 2;
            char *s = malloc(len);
            if (!s) break;
            snprintf(s, len, "%s=%s", argv[i], argv[i + 1]);
            out[n++] = s;
            i++;
            joined = true;
        }
        if (!joined) out[n++] = argv[i];
    }
    return out;
}

static int count(char **v)
{
    int n = 0;
    while (v[n]) n++;
    return n;
}

static void free_joined(char **v, char **argv, int argc)
{
    for (int i = 0; v[i]; i++) {
        bool ours = true;
        for (int j = 0; j < argc; j++) ours &= v[i] != argv[j];
        if (ours) free(v[i]);
    }
    free(v);
}

static int sim_main(int argc, char **argv);

int cmd_sim(int argc, char **argv)
{
    char **args = join_values(argc, argv);
    if (!args) return 2;
    int rc = sim_main(count(args), args);
    free_joined(args, argv, argc);
    return rc;
}

// Prints what the simulator saw and stages --json / --trace (false when one
// cannot be written).
static bool ran(cli_run_t *r, tl_status_t st, double seconds)
{
    sim_cli_t *c = r->extra;
    const tl_backend_t *be = r->be;
    tl_backend_report_t rep;
    be->report(r->self, &rep);
    fputs(rep.printed, stdout);
    tl_buf_t text;
    tl_buf_init(&text);
    be->write(r->self, TL_BACKEND_SUMMARY, &text);
    fputs(tl_buf_cstr(&text), stdout);
    printf("  simulated in %.3f s\n", seconds);
    // staged: cli_run renames them into place with -o's files when the run
    // completed (a failed run writes none)
    tl_diag_t d;
    tl_diag_init(&d);
    tl_status_t wst = TL_OK;
    if (c->json) {
        tl_buf_clear(&text);
        be->write(r->self, TL_BACKEND_JSON, &text);
        wst = cli_stage_text(&r->io->stage, "--json", c->json, &text, &d);
    }
    if (c->trace && wst == TL_OK) {
        tl_buf_clear(&text);
        be->write(r->self, TL_BACKEND_TRACE, &text);
        wst = cli_stage_text(&r->io->stage, "--trace", c->trace, &text, &d);
    }
    fputs(tl_diag_text(&d), stderr);
    tl_diag_free(&d);
    tl_buf_free(&text);
    (void)st;
    return wst == TL_OK;
}

static int sim_main(int argc, char **argv)
{
    cli_opts_t o;
    if (!cli_parse("sim", argc, argv, &o, cli_io_takes_value)) return 2;
    sim_cli_t sc = {0};
    cli_io_t io = {.extra = &sc};
    if (!cli_io_parse(&o, &io, sim_option)) {
        cli_io_free(&io);
        return 2;
    }
    sc.sim.trace = sc.trace != NULL;
    cli_set_chip(&o, sc.sim.arch); // torch.npu in the file describes the simulated chip
    cli_run_t r = {.be = tl_backend_find("sim"), .ran = ran, .extra = &sc};
    r.opts.sim = sc.sim;
    return cli_run(&o, &io, &r);
}
