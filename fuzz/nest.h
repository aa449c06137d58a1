// A generator of deeply nested kernel files for the front-end fuzzer
// (fuzz_front.c) and its test (tests/unit/test_front_fuzz.c).
// Nesting depth (issue 22): an input that starts with "#nest N" is a generator,
// expanded before it is compiled. Its sections, separated by lines "#--" (the
// newline before each separator is not part of the section: a section that
// ends a line ends with an empty line), are
//   PRE, UNIT, MID[, UNIT2, POST]  ->  PRE + UNIT * N + MID + UNIT2 * N + POST
// so seeds (fuzz/seeds/front/nest_*.py) and their mutations reach the depths
// of the limits (docs/language.md section 5: 2,000 levels, 200 blocks, 10,000
// elif branches) and
// past them: 12,000-term sums, 10,050-branch elif chains, 5,000 nested brackets.
#ifndef TL_FUZZ_NEST_H
#define TL_FUZZ_NEST_H

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

enum { NEST_MAX_N = 12000, NEST_MAX_BYTES = 1 << 20 };

// The expansion of a "#nest N" input (heap; N replaced by n_override when
// that is >= 0), or NULL when text is not one or the result would be too large.
static char *fuzz_nest_expand(const char *text, long n_override)
{
    if (strncmp(text, "#nest ", 6)) return NULL;
    long n = n_override >= 0 ? n_override : strtol(text + 6, NULL, 10);
    if (n < 0 || n > NEST_MAX_N) return NULL;
    const char *body = strchr(text, '\n');
    if (!body) return NULL;
    const char *part[5] = {body + 1, "", "", "", ""};
    size_t len[5] = {strlen(body + 1), 0, 0, 0, 0};
    int np = 1;
    for (const char *p = part[0]; np < 5 && (p = strstr(p, "\n#--\n")); np++) {
        len[np - 1] = (size_t)(p - part[np - 1]); // without the newline before "#--"
        part[np] = p + 5;
        len[np] = strlen(part[np]);
        p += 5;
    }
    if ((len[1] + len[3]) * (size_t)n + len[0] + len[2] + len[4] > NEST_MAX_BYTES) return NULL;
    tl_buf_t b;
    tl_buf_init(&b);
    for (int i = 0; i < 5; i++) {
        if (i % 2 == 0) {
            tl_buf_putn(&b, part[i], len[i]);
            continue;
        }
        for (long k = 0; k < n; k++) tl_buf_putn(&b, part[i], len[i]);
    }
    return tl_buf_take(&b);
}

#endif
