// Random developer-mode kernels (tests/gen_kernel.h) through the NPU pipeline:
// after CV split, cross-core and intra-core sync, memory planning and the rest,
// the simulator must find no race and compute the reference executor's values.
// The same check runs under libFuzzer as fuzz/fuzz_passes.c.
#include "../test.h"

#include "../gen_check.h"
#include "rt/rng.h"

enum { PROGRAMS = 400, PROGRAMS_SANITIZED = 60 };

TEST(random_dev_kernels_stay_race_free_and_equal)
{
    int n = tl_test_sanitized() ? PROGRAMS_SANITIZED : PROGRAMS;
    tl_rng_t r;
    tl_rng_seed(&r, 20261202);
    int fails = 0;
    for (int p = 0; p < n && fails < 3; p++) {
        uint8_t bytes[96];
        for (size_t i = 0; i < sizeof bytes; i++) bytes[i] = (uint8_t)tl_rng_below(&r, 256);
        tl_buf_t src;
        tl_buf_init(&src);
        tl_diag_t d;
        tl_diag_init(&d);
        gen_result_t res = gen_check(bytes, sizeof bytes, &src, &d);
        if (res != GEN_OK) {
            fails++;
            tl_test_fail(t, __FILE__, __LINE__, "program %d: %s\n%s\n--- source ---\n%s", p, gen_result_name(res),
                         tl_diag_text(&d), tl_buf_cstr(&src));
        }
        tl_diag_free(&d);
        tl_buf_free(&src);
    }
}

// Found by make fuzz (passes): a loop that runs once ended the abstract
// execution with the orderings of its second pass, so intra_sync left out the
// pipe_barrier(mte2) between a workspace read-back in an earlier loop and a
// later MTE2 copy into the same UB buffer (a WAW race on the simulator).
TEST(fuzz_regression_once_run_loop_keeps_first_pass_orderings)
{
    static const uint8_t bytes[] = {
        0x81, 0xe9, 0x97, 0xad, 0xaf, 0xd0, 0x8a, 0x97, 0x2c, 0x8f, 0x48, 0x88, 0x01, 0xd7, 0x12,
        0x8e, 0x0e, 0x00, 0x00, 0x5f, 0x60, 0x98, 0x54, 0xb3, 0xba, 0x51, 0x26, 0x1d, 0x08, 0xab,
        0xaa, 0x2b, 0x5e, 0x15, 0xeb, 0x4a, 0xe3, 0x3e, 0x55, 0xe4, 0x3c, 0xe6, 0xb4, 0xce, 0xd2,
        0xb0, 0xee, 0xd3, 0x73, 0x43, 0xbe, 0xf4, 0xf1, 0xe7, 0x06, 0x1d, 0x5d, 0xdd, 0x8d, 0x4f,
        0x77
    };
    tl_buf_t src;
    tl_buf_init(&src);
    tl_diag_t d;
    tl_diag_init(&d);
    gen_result_t res = gen_check(bytes, sizeof bytes, &src, &d);
    if (res != GEN_OK)
        tl_test_fail(t, __FILE__, __LINE__, "%s\n%s\n--- source ---\n%s", gen_result_name(res),
                     tl_diag_text(&d), tl_buf_cstr(&src));
    tl_diag_free(&d);
    tl_buf_free(&src);
}
