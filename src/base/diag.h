// Source files, source locations and diagnostics.
//
// A diagnostic is formatted the moment it is reported, compiler style:
//
//   kernels/foo.py:12:5: error: T.tile.add expects 3 operands, got 2
//      12 |     T.tile.add(a, b)
//         |     ^
//
// The library never prints or exits: messages accumulate in a tl_diag_t and the
// caller (the CLI, a test, an API user) decides what to do with them.
#ifndef TL_BASE_DIAG_H
#define TL_BASE_DIAG_H

#include "base/buf.h"
#include "base/status.h"

typedef struct tl_source {
    const char *path; // as given by the user
    const char *text; // whole file, NUL-terminated
    size_t len;
} tl_source_t;

// 1-based line and column (column counts bytes); line 0 means "no location".
typedef struct {
    const tl_source_t *src;
    int line, col;
} tl_loc_t;

typedef enum { TL_SEV_ERROR, TL_SEV_WARNING, TL_SEV_NOTE } tl_severity_t;

typedef struct tl_diag {
    tl_buf_t text;     // every formatted message, in report order
    int nerrors, nwarnings;
    char *first_error; // the first error's one-line message (heap), or NULL
} tl_diag_t;

void tl_diag_init(tl_diag_t *d);
void tl_diag_free(tl_diag_t *d);
void tl_diag_clear(tl_diag_t *d);

// Report a message. Returns `code` so callers can write `return tl_diag_error(...)`.
tl_status_t tl_diag_report(tl_diag_t *d, tl_severity_t sev, tl_loc_t loc, tl_status_t code,
                           const char *fmt, ...) TL_PRINTF(5, 6);
tl_status_t tl_diag_vreport(tl_diag_t *d, tl_severity_t sev, tl_loc_t loc, tl_status_t code,
                            const char *fmt, va_list ap);
// Shorthands: an error is TL_ERR_COMPILE unless reported with tl_diag_report.
tl_status_t tl_diag_error(tl_diag_t *d, tl_loc_t loc, const char *fmt, ...) TL_PRINTF(3, 4);
void tl_diag_warning(tl_diag_t *d, tl_loc_t loc, const char *fmt, ...) TL_PRINTF(3, 4);
void tl_diag_note(tl_diag_t *d, tl_loc_t loc, const char *fmt, ...) TL_PRINTF(3, 4);
// An error without a source location (runtime, I/O, files); d may be NULL.
tl_status_t tl_diag_fail(tl_diag_t *d, tl_status_t code, const char *fmt, ...) TL_PRINTF(3, 4);

const char *tl_diag_text(tl_diag_t *d);

// Reads a whole file into a heap source (free with tl_source_free). On failure
// reports to `d` (if given) and returns NULL.
tl_source_t *tl_source_read(const char *path, tl_diag_t *d);
tl_source_t *tl_source_from_string(const char *path, const char *text);
void tl_source_free(tl_source_t *s);
// The text of line `line` (1-based) without its newline; *len receives its length.
const char *tl_source_line(const tl_source_t *s, int line, size_t *len);

#endif
