// libFuzzer target: arbitrary bytes as a kernel file through the whole front
// end (lexer, parser, evaluator, tracer, verifier). Any outcome is fine except
// a crash, a hang or a sanitizer report; errors must carry a message.
//
// Compile-time evaluation runs with a twentieth of the default statement bound:
// within the default one an input can legitimately run for seconds under the
// sanitizers (tests/data/bad/eval_too_many_steps.py: 6 s, 1.4 GB; with
// `x += 1 + 1 + 1 + 1 + 1 + 1` in its loop, 12 s and 4.1 GB), which
// libFuzzer reports as a time-out or out-of-memory finding: the CI's fuzz
// step then fails on no bug, depending on the mutations it happens to try.
//
// Nesting depth (issue 22): inputs that start with "#nest N" are expanded
// first (fuzz/nest.h; seeds in fuzz/seeds/front/).
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "front/front.h"
#include "nest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16) return 0;
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    char *expanded = fuzz_nest_expand(text, -1);
    if (expanded) {
        free(text);
        text = expanded;
    }
    tl_arena_t arena;
    tl_arena_init(&arena);
    tl_diag_t d;
    tl_diag_init(&d);
    tl_kernel_t *k = NULL;
    tl_front_opts_t opts = {.max_steps = TL_EVAL_MAX_STEPS / 20};
    tl_status_t st = tl_front_compile_source(&arena, "fuzz.py", text, &opts, &d, &k);
    if (st != TL_OK && d.nerrors == 0) abort(); // an error without a message is a bug
    tl_diag_free(&d);
    tl_arena_free(&arena);
    free(text);
    return 0;
}
