// tilec ir FILE [-k NAME] [-a NAME=VALUE]... [--dump-after=PASS]
// Prints the Tile IR of one kernel.
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cmd_ir(int argc, char **argv)
{
    cli_opts_t o;
    if (!cli_parse(argc, argv, &o, NULL)) return 2;
    if (o.nrest) {
        fprintf(stderr, "tilec ir: unknown option '%s'\n", o.rest[0]);
        return 2;
    }
    tl_arena_t arena;
    tl_arena_init(&arena);
    tl_diag_t d;
    tl_diag_init(&d);
    tl_kernel_t *k = cli_compile(&arena, &o, &d);
    int rc = 2;
    if (k) {
        tl_buf_t b;
        tl_buf_init(&b);
        tl_ir_print_kernel(&b, k);
        fputs(tl_buf_cstr(&b), stdout);
        tl_buf_free(&b);
        rc = 0;
    }
    tl_diag_free(&d);
    tl_arena_free(&arena);
    return rc;
}
