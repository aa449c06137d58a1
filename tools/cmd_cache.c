// tilec cache info | clean
// The cpu target's compile cache (cpu/jit.h): where it is, what it holds
// against its cap, and removing what tilec put there.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cpu/jit.h"

static double mib(uint64_t b)
{
    return (double)b / 1048576.0;
}

int cmd_cache(int argc, char **argv)
{
    tl_diag_t d;
    tl_diag_init(&d);
    int rc = 0;
    if (argc == 1 && !strcmp(argv[0], "info")) {
        tl_jit_cache_info_t i;
        if (tl_jit_cache_info(NULL, &i, &d) != TL_OK) {
            rc = 2;
        } else if (i.missing) {
            printf("cache %s: not created yet (cap %.0f MiB)\n", i.dir, mib(i.max_bytes));
        } else {
            printf("cache %s\n"
                   "  %d compiled kernels: %.1f MiB (cap %.0f MiB: $TILEC_CACHE_MAX_MB)\n"
                   "  %d precompiled headers: %.1f MiB\n"
                   "  %d other files (failed sources, stopped compiles): %.1f MiB\n",
                   i.dir, i.entries, mib(i.entry_bytes), mib(i.max_bytes), i.pch_dirs,
                   mib(i.pch_bytes), i.other_files, mib(i.other_bytes));
        }
    } else if (argc == 1 && !strcmp(argv[0], "clean")) {
        int removed;
        uint64_t bytes;
        char *dir = tl_jit_cache_dir(NULL);
        if (tl_jit_cache_clean(NULL, &removed, &bytes, &d) != TL_OK)
            rc = 2;
        else
            printf("cache %s: removed %d files, %.1f MiB\n", dir ? dir : "?", removed, mib(bytes));
        free(dir);
    } else {
        fprintf(stderr, "usage: tilec cache info|clean (tilec help cache)\n");
        rc = 2;
    }
    cli_print_diag(&d);
    tl_diag_free(&d);
    return rc;
}
