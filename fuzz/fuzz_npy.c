// libFuzzer target: arbitrary bytes as a .npy file, read as its own dtype and
// as float32 / bfloat16 (the conversions on read).
#include <stdint.h>
#include <stdlib.h>

#include "rt/npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int wants[] = {TL_NPY_FILE_DTYPE, TL_F32, TL_BF16};
    for (size_t i = 0; i < sizeof wants / sizeof wants[0]; i++) {
        tl_diag_t d;
        tl_diag_init(&d);
        tl_tensor_t *t = NULL;
        tl_status_t st = tl_npy_parse(data, size, "fuzz.npy", (tl_dtype_t)wants[i], &t, &d);
        if (st != TL_OK && d.nerrors == 0) abort();
        if (st == TL_OK && !t) abort();
        tl_tensor_destroy(t);
        tl_diag_free(&d);
    }
    return 0;
}
