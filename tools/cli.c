// Option parsing and compilation shared by the subcommands.
#include "cli.h"

#include <stdio.h>
#include <string.h>

#include "cli_progress.h"
#include "target/arch.h"

static bool split_kv(const char *opt, const char *s, tl_front_arg_t *out)
{
    const char *eq = strchr(s, '=');
    if (!eq || eq == s) {
        fprintf(stderr, "tilec: %s expects NAME=VALUE, got '%s'\n", opt, s);
        return false;
    }
    static char names[2 * CLI_MAX_ITEMS][128];
    static int used;
    if (used == 2 * CLI_MAX_ITEMS || (size_t)(eq - s) >= sizeof names[0]) {
        fprintf(stderr, "tilec: too many or too long %s options\n", opt);
        return false;
    }
    char *n = names[used++];
    memcpy(n, s, (size_t)(eq - s));
    n[eq - s] = 0;
    out->name = n;
    out->value = eq + 1;
    return true;
}

void cli_set_chip(cli_opts_t *o, const char *arch)
{
    const tl_arch_t *a = tl_arch_get(arch ? arch : "a2");
    if (!a) return;
    o->chip = (tl_front_chip_t){a->soc, a->num_aic, a->num_aiv};
    o->front.chip = &o->chip;
}

bool cli_parse(const char *command, int argc, char **argv, cli_opts_t *o,
               bool (*takes_value)(const char *opt))
{
    memset(o, 0, sizeof *o);
    o->command = command;
    o->front.args = o->args;
    o->front.pass_configs = o->pass_configs;
    cli_set_chip(o, NULL);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        // --opt=value and --opt value
        char optbuf[64];
        const char *eq = a[0] == '-' && a[1] == '-' ? strchr(a, '=') : NULL;
        if (eq && (size_t)(eq - a) < sizeof optbuf) {
            memcpy(optbuf, a, (size_t)(eq - a));
            optbuf[eq - a] = 0;
            val = eq + 1;
            a = optbuf;
        }
#define NEED_VALUE()                                                                               \
    do {                                                                                           \
        if (!val) {                                                                                \
            if (i + 1 >= argc) {                                                                   \
                fprintf(stderr, "tilec: %s needs a value\n", a);                                   \
                return false;                                                                      \
            }                                                                                      \
            val = argv[++i];                                                                       \
        }                                                                                          \
    } while (0)
        if (!strcmp(a, "-k") || !strcmp(a, "--kernel")) {
            NEED_VALUE();
            o->front.kernel = val;
        } else if (!strcmp(a, "-a") || !strcmp(a, "--arg")) {
            NEED_VALUE();
            if (o->front.nargs == CLI_MAX_ITEMS || !split_kv("-a", val, &o->args[o->front.nargs]))
                return false;
            o->front.nargs++;
        } else if (!strcmp(a, "--out-idx")) {
            NEED_VALUE();
            o->front.out_idx = val;
        } else if (!strcmp(a, "--pass-config")) {
            NEED_VALUE();
            if (o->front.npass_configs == CLI_MAX_ITEMS ||
                !split_kv("--pass-config", val, &o->pass_configs[o->front.npass_configs]))
                return false;
            o->front.npass_configs++;
        } else if (!strcmp(a, "--dump-after")) {
            NEED_VALUE();
            o->dump_after = val;
        } else if (!strcmp(a, "--emit")) {
            NEED_VALUE();
            o->emit = val;
        } else if (a[0] == '-' && a[1]) {
            if (o->nrest + 2 > CLI_MAX_ITEMS) {
                fprintf(stderr, "tilec: too many options\n");
                return false;
            }
            o->rest[o->nrest++] = argv[i];
            if (!eq && takes_value && takes_value(a)) {
                if (i + 1 >= argc) {
                    fprintf(stderr, "tilec: %s needs a value\n", a);
                    return false;
                }
                o->rest[o->nrest++] = argv[++i];
            }
        } else if (!o->file) {
            o->file = a;
        } else {
            fprintf(stderr, "tilec: unexpected argument '%s'\n", a);
            return false;
        }
#undef NEED_VALUE
    }
    if (!o->file) {
        fprintf(stderr, "tilec: no kernel file given\n");
        return false;
    }
    return true;
}

void cli_print_diag(tl_diag_t *d)
{
    fputs(tl_diag_text(d), stderr);
}

tl_kernel_t *cli_compile(tl_arena_t *arena, const cli_opts_t *o, tl_compile_opts_t how,
                         tl_diag_t *d)
{
    how.path = o->file;
    cli_progress_t progress;
    cli_progress_begin(&progress);
    how.on_step = cli_progress_step_done;
    how.on_step_start = cli_progress_step_start;
    how.step_arg = &progress;
    how.front = o->front;
    tl_kernel_t *k = NULL;
    tl_status_t st = tl_compile(arena, &how, d, &k);
    cli_progress_end(&progress);
    cli_print_diag(d);
    tl_diag_clear(d);
    return st == TL_OK ? k : NULL;
}
