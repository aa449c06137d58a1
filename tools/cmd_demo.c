// tilec demo [--root DIR] [--all]
// Runs the four DeepSeek-V4 operators written in the TileLang-Ascend language
// (kernels/ds_v4/) at model-like shapes, checks each against its independent
// golden reference and prints one table. `--all` runs every check case.
#include <stdio.h>
#include <string.h>

#include "check/check.h"
#include "cli.h"
#include "pass/pass.h"

int cmd_demo(int argc, char **argv)
{
    const char *root = ".";
    bool all = false;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--root") && i + 1 < argc) root = argv[++i];
        else if (!strcmp(argv[i], "--all")) all = true;
        else {
            fprintf(stderr, "usage: tilec demo [--root DIR] [--all]\n");
            return 2;
        }
    }
    printf("tilec demo: DeepSeek-V4 operators in the TileLang-Ascend language, checked against\n"
           "independent C goldens (src/ref/) on the reference executor.\n\n");
    printf("%-18s %-36s %-6s %11s %10s %12s\n", "operator", "shape", "check", "max error", "time (s)",
           "rate");
    int failed = 0, ran = 0;
    for (const tl_check_case_t *const *cp = tl_check_cases(); *cp; cp++) {
        const tl_check_case_t *c = *cp;
        if (!all && !c->demo) continue;
        fprintf(stderr, "  running %s ...\r", c->name);
        fflush(stderr);
        tl_diag_t d;
        tl_diag_init(&d);
        tl_check_result_t r;
        tl_status_t st = tl_check_run(c, root, TL_PIPELINE_REF, tl_check_backend_ref, NULL, &r, &d);
        fprintf(stderr, "%60s\r", "");
        ran++;
        if (st != TL_OK) {
            printf("%-18s %-36s %-6s\n", c->op, c->shape, "ERROR");
            fputs(tl_diag_text(&d), stderr);
            failed++;
        } else {
            char rate[32] = "";
            if (c->flops > 0 && r.seconds > 0) snprintf(rate, sizeof rate, "%.2f GFLOP/s", c->flops / r.seconds * 1e-9);
            else if (c->bytes > 0 && r.seconds > 0) snprintf(rate, sizeof rate, "%.3f GB/s", c->bytes / r.seconds * 1e-9);
            printf("%-18s %-36s %-6s %11.3g %10.3f %12s\n", c->op, c->shape, r.passed ? "ok" : "FAIL",
                   r.max_abs_err, r.seconds, rate);
            if (!r.passed) {
                printf("    %s\n", r.summary);
                failed++;
            }
        }
        tl_diag_free(&d);
    }
    printf("\n%d of %d operators match their goldens.\n", ran - failed, ran);
    return failed ? 1 : 0;
}
