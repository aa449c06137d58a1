// tilec list FILE
// The kernels of a file: its @tilelang.jit factories and builders with their
// parameters and defaults, its module-level prim_funcs with their parameters
// (front/front.h: tl_front_list). What -k can select.
#include <stdio.h>

#include "cli.h"

int cmd_list(int argc, char **argv)
{
    if (argc != 1 || argv[0][0] == '-') {
        fprintf(stderr, "usage: tilec list FILE (tilec list --help)\n");
        return 2;
    }
    tl_arena_t arena;
    tl_arena_init(&arena);
    tl_diag_t d;
    tl_diag_init(&d);
    tl_buf_t out;
    tl_buf_init(&out);
    tl_front_opts_t opts = {0};
    cli_opts_t chip = {0};
    cli_set_chip(&chip, NULL); // torch.npu as tilec run sees it
    opts.chip = chip.front.chip;
    tl_status_t st = tl_front_list(&arena, argv[0], &opts, &out, &d);
    fputs(tl_buf_cstr(&out), stdout);
    cli_print_diag(&d);
    tl_buf_free(&out);
    tl_diag_free(&d);
    tl_arena_free(&arena);
    return st == TL_OK ? 0 : 2;
}
