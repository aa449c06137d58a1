// libFuzzer target: the input bytes choose a developer-mode kernel
// (tests/gen_kernel.h); after the NPU pipeline the simulator must find no race
// and reproduce the reference executor's values, else the fuzzer stops.
#include <stdlib.h>

#include "../tests/gen_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 256) return 0;
    tl_buf_t src;
    tl_buf_init(&src);
    tl_diag_t d;
    tl_diag_init(&d);
    gen_result_t r = gen_check(data, size, &src, &d);
    if (r != GEN_OK) {
        fprintf(stderr, "%s\n%s\n--- source ---\n%s", gen_result_name(r), tl_diag_text(&d), tl_buf_cstr(&src));
        abort();
    }
    tl_diag_free(&d);
    tl_buf_free(&src);
    return 0;
}
