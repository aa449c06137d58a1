#include "base/diag.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tl_diag_init(tl_diag_t *d)
{
    memset(d, 0, sizeof *d);
    tl_buf_init(&d->text);
}

void tl_diag_free(tl_diag_t *d)
{
    tl_buf_free(&d->text);
    free(d->first_error);
    memset(d, 0, sizeof *d);
}

void tl_diag_clear(tl_diag_t *d)
{
    tl_diag_free(d);
    tl_diag_init(d);
}

const char *tl_diag_text(tl_diag_t *d)
{
    return tl_buf_cstr(&d->text);
}

const char *tl_source_line(const tl_source_t *s, int line, size_t *len)
{
    const char *p = s->text, *end = s->text + s->len;
    for (int l = 1; l < line && p < end; p++)
        if (*p == '\n') l++;
    const char *q = p;
    while (q < end && *q != '\n' && *q != '\r') q++;
    *len = (size_t)(q - p);
    return p;
}

static void excerpt(tl_buf_t *b, tl_loc_t loc)
{
    size_t n;
    const char *line = tl_source_line(loc.src, loc.line, &n);
    tl_buf_printf(b, "%5d | ", loc.line);
    tl_buf_putn(b, line, n);
    tl_buf_puts(b, "\n      | ");
    // Keep tabs so the caret lines up with the source as the terminal shows it;
    // count UTF-8 continuation bytes as no width.
    for (int i = 0; i + 1 < loc.col && (size_t)i < n; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c == '\t') tl_buf_putc(b, '\t');
        else if ((c & 0xC0) != 0x80) tl_buf_putc(b, ' ');
    }
    tl_buf_puts(b, "^\n");
}

static const char *sev_name[] = {"error", "warning", "note"};

tl_status_t tl_diag_vreport(tl_diag_t *d, tl_severity_t sev, tl_loc_t loc, tl_status_t code,
                            const char *fmt, va_list ap)
{
    tl_buf_t msg;
    tl_buf_init(&msg);
    tl_buf_vprintf(&msg, fmt, ap);
    if (loc.src && loc.line > 0)
        tl_buf_printf(&d->text, "%s:%d:%d: ", loc.src->path, loc.line, loc.col);
    tl_buf_printf(&d->text, "%s: %s\n", sev_name[sev], tl_buf_cstr(&msg));
    if (loc.src && loc.line > 0) excerpt(&d->text, loc);
    if (sev == TL_SEV_ERROR) {
        if (!d->first_error) d->first_error = tl_buf_take(&msg);
        d->nerrors++;
    } else if (sev == TL_SEV_WARNING) {
        d->nwarnings++;
    }
    tl_buf_free(&msg);
    return code;
}

tl_status_t tl_diag_report(tl_diag_t *d, tl_severity_t sev, tl_loc_t loc, tl_status_t code,
                           const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tl_diag_vreport(d, sev, loc, code, fmt, ap);
    va_end(ap);
    return code;
}

tl_status_t tl_diag_error(tl_diag_t *d, tl_loc_t loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tl_diag_vreport(d, TL_SEV_ERROR, loc, TL_ERR_COMPILE, fmt, ap);
    va_end(ap);
    return TL_ERR_COMPILE;
}

void tl_diag_warning(tl_diag_t *d, tl_loc_t loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tl_diag_vreport(d, TL_SEV_WARNING, loc, TL_OK, fmt, ap);
    va_end(ap);
}

tl_status_t tl_diag_fail(tl_diag_t *d, tl_status_t code, const char *fmt, ...)
{
    if (!d) return code;
    va_list ap;
    va_start(ap, fmt);
    tl_diag_vreport(d, TL_SEV_ERROR, (tl_loc_t){0}, code, fmt, ap);
    va_end(ap);
    return code;
}

void tl_diag_note(tl_diag_t *d, tl_loc_t loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tl_diag_vreport(d, TL_SEV_NOTE, loc, TL_OK, fmt, ap);
    va_end(ap);
}

tl_source_t *tl_source_from_string(const char *path, const char *text)
{
    size_t plen = strlen(path), tlen = strlen(text);
    tl_source_t *s = malloc(sizeof *s + plen + 1 + tlen + 1);
    if (!s) return NULL;
    char *p = (char *)(s + 1);
    memcpy(p, path, plen + 1);
    memcpy(p + plen + 1, text, tlen + 1);
    s->path = p;
    s->text = p + plen + 1;
    s->len = tlen;
    return s;
}

tl_source_t *tl_source_read(const char *path, tl_diag_t *d)
{
    FILE *f = fopen(path, "rb");
    tl_loc_t none = {0};
    if (!f) {
        if (d) tl_diag_report(d, TL_SEV_ERROR, none, TL_ERR_IO, "cannot open '%s': %s", path,
                              strerror(errno));
        return NULL;
    }
    tl_buf_t b;
    tl_buf_init(&b);
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) tl_buf_putn(&b, chunk, n);
    bool err = ferror(f) || b.failed;
    fclose(f);
    if (err || memchr(tl_buf_cstr(&b), 0, b.len)) {
        if (d) tl_diag_report(d, TL_SEV_ERROR, none, TL_ERR_IO,
                              err ? "cannot read '%s'" : "'%s' contains a NUL byte", path);
        tl_buf_free(&b);
        return NULL;
    }
    tl_source_t *s = tl_source_from_string(path, tl_buf_cstr(&b));
    tl_buf_free(&b);
    return s;
}

void tl_source_free(tl_source_t *s)
{
    free(s);
}
