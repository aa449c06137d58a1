#include "base/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tl_buf_init(tl_buf_t *b)
{
    memset(b, 0, sizeof *b);
}

void tl_buf_free(tl_buf_t *b)
{
    free(b->data);
    tl_buf_init(b);
}

void tl_buf_clear(tl_buf_t *b)
{
    b->len = 0;
    if (b->data) b->data[0] = 0;
}

static bool reserve(tl_buf_t *b, size_t extra)
{
    if (b->failed) return false;
    if (b->len + extra + 1 <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void tl_buf_putn(tl_buf_t *b, const char *s, size_t n)
{
    if (!reserve(b, n)) return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = 0;
}

void tl_buf_putc(tl_buf_t *b, char c)
{
    tl_buf_putn(b, &c, 1);
}

void tl_buf_puts(tl_buf_t *b, const char *s)
{
    tl_buf_putn(b, s, strlen(s));
}

void tl_buf_vprintf(tl_buf_t *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n > 0 && reserve(b, (size_t)n)) {
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
        b->len += (size_t)n;
    }
    va_end(ap2);
}

void tl_buf_printf(tl_buf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tl_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void tl_buf_indent(tl_buf_t *b, int n)
{
    for (int i = 0; i < n; i++) tl_buf_putc(b, ' ');
}

const char *tl_buf_cstr(tl_buf_t *b)
{
    return b->data ? b->data : "";
}

char *tl_buf_take(tl_buf_t *b)
{
    char *p = b->data;
    if (!p) {
        p = malloc(1);
        if (p) p[0] = 0;
    }
    tl_buf_init(b);
    return p;
}
