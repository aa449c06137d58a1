// Run-time errors of the paged KV load (exec/tileop_pa.c): located, the same
// on the reference and the CPU target, no crash.
#include "../test.h"

#include <stdlib.h>

static void run_fails(tl_test_t *t, const char *target, char **args, const char *want)
{
    char *argv[16] = {(char *)tl_test_tilec(), "run", "tests/data/kernels/copy_pa.py", "--target",
                      (char *)target};
    int n = 5;
    for (char **a = args; *a && n < 15; a++) argv[n++] = *a;
    argv[n] = NULL;
    char *out = NULL;
    int rc = tl_test_run(argv, &out);
    if (rc != 1 || !out || !strstr(out, want))
        tl_test_fail(t, __FILE__, __LINE__, "copy_pa.py on %s: exit %d, output:\n%s", target, rc,
                     out ? out : "(none)");
    free(out);
}

// A block table naming a page past the cache: the KV rows it would read.
TEST(copy_pa_page_outside_the_cache_is_a_located_error)
{
    char *args[] = {"--fill", "BT=int:6:9", NULL};
    run_fails(t, "ref", args, "copy_pa.py:29:17: error: T.copy_pa: reads 'KV' elements");
    run_fails(t, "cpu", args, "copy_pa.py:29:17: error: T.copy_pa: reads 'KV' elements");
}

// A window past the batch's table entries (S2 = 100: page 6 of batch 1, entry 10 of 8).
TEST(copy_pa_entry_outside_the_table_is_a_located_error)
{
    char *args[] = {"-a", "S2=100", "--fill", "BT=int:0:5", NULL};
    run_fails(t, "ref", args, "block_table 'BT' read at element 10, outside its 8 elements");
    run_fails(t, "cpu", args, "block_table 'BT' read at element 10, outside its 8 elements");
}

// --warn-uninit counts the rows and columns copy_pa writes, not its whole
// destination: without the Z copy, gemm_v0 reads the tile's columns past ACT.
TEST(copy_pa_writes_only_its_rows_for_warn_uninit)
{
    for (int init = 0; init < 2; init++) {
        char *argv[] = {(char *)tl_test_tilec(),
                        "run",
                        "tests/data/kernels/copy_pa.py",
                        "-a",
                        init ? "INIT=True" : "INIT=False",
                        "--fill",
                        "BT=int:0:5",
                        "--warn-uninit",
                        NULL};
        char *out = NULL;
        CHECK_EQ(tl_test_run(argv, &out), 0);
        const char *w = "reads bytes [96, 128) of 'k_l1' (L1) that were never written";
        if (init ? strstr(out, "never written") != NULL : strstr(out, w) == NULL)
            tl_test_fail(t, __FILE__, __LINE__, "INIT=%d:\n%s", init, out);
        free(out);
    }
}
