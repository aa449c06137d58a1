// Growable heap string used to build output text (IR dumps, generated C,
// diagnostics, JSON). Allocation failure sets `failed` and drops further output.
#ifndef TL_BASE_BUF_H
#define TL_BASE_BUF_H

#include <stdarg.h>
#include "base/common.h"

typedef struct {
    char *data; // always NUL-terminated when len > 0 or after tl_buf_cstr
    size_t len, cap;
    bool failed;
} tl_buf_t;

void tl_buf_init(tl_buf_t *b);
void tl_buf_free(tl_buf_t *b);
void tl_buf_clear(tl_buf_t *b);
void tl_buf_putc(tl_buf_t *b, char c);
void tl_buf_puts(tl_buf_t *b, const char *s);
void tl_buf_putn(tl_buf_t *b, const char *s, size_t n);
void tl_buf_printf(tl_buf_t *b, const char *fmt, ...) TL_PRINTF(2, 3);
void tl_buf_vprintf(tl_buf_t *b, const char *fmt, va_list ap);
void tl_buf_indent(tl_buf_t *b, int n); // n spaces
const char *tl_buf_cstr(tl_buf_t *b);   // "" for an empty buffer
char *tl_buf_take(tl_buf_t *b);         // caller frees; buffer becomes empty

#endif
