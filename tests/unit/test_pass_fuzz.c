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
