// tilec emit FILE [-k NAME] [-a NAME=VALUE]... --target pto -o DIR
// Writes the kernel as PTO-ISA C++ for a CANN build (docs/pto.md):
// DIR/NAME.cpp, DIR/NAME_launch.h (the host launch) and DIR/tilec_pto.h (the
// support header the kernel includes).
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "pto/pto.h"

static bool takes_value(const char *opt)
{
    return !strcmp(opt, "--target") || !strcmp(opt, "-o");
}

static bool write_text(const char *dir, const char *name, const char *suffix, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%s", dir, name, suffix);
    FILE *f = fopen(path, "wb");
    bool ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0) ok = false;
    if (!ok)
        fprintf(stderr, "tilec emit: cannot write %s: %s\n", path, strerror(errno));
    else
        printf("wrote %s\n", path);
    return ok;
}

int cmd_emit(int argc, char **argv)
{
    cli_opts_t o;
    if (!cli_parse("emit", argc, argv, &o, takes_value)) return 2;
    const char *target = NULL, *dir = NULL;
    for (int i = 0; i < o.nrest; i++) {
        const char *r = o.rest[i], *v = i + 1 < o.nrest ? o.rest[i + 1] : NULL;
        if (!strcmp(r, "--target") && v)
            target = v, i++;
        else if (!strcmp(r, "-o") && v)
            dir = v, i++;
        else {
            fprintf(stderr, "tilec emit: unknown option '%s'\n", r);
            return 2;
        }
    }
    if (!target || strcmp(target, "pto") || !dir) {
        fprintf(stderr, "usage: tilec emit FILE [kernel options] --target pto -o DIR\n");
        return 2;
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "tilec emit: cannot create %s: %s\n", dir, strerror(errno));
        return 2;
    }
    tl_arena_t arena;
    tl_arena_init(&arena);
    tl_diag_t d;
    tl_diag_init(&d);
    tl_buf_t cpp, h;
    tl_buf_init(&cpp);
    tl_buf_init(&h);
    int rc = 2;
    tl_kernel_t *k = cli_compile(&arena, &o, (tl_compile_opts_t){.pipeline = TL_PIPELINE_PTO}, &d);
    if (k && tl_pto_emit(k, &cpp, &h, &d) == TL_OK) {
        bool ok = write_text(dir, k->name, ".cpp", tl_buf_cstr(&cpp)) &&
                  write_text(dir, k->name, "_launch.h", tl_buf_cstr(&h)) &&
                  write_text(dir, "tilec_pto", ".h", tl_pto_support_h);
        rc = ok ? 0 : 2;
    }
    cli_print_diag(&d);
    tl_buf_free(&cpp);
    tl_buf_free(&h);
    tl_diag_free(&d);
    tl_arena_free(&arena);
    return rc;
}
