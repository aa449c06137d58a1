// Status codes returned by every library call. 0 is success; errors are negative.
// The formatted diagnostic that goes with an error lives in a tl_diag_t.
#ifndef TL_BASE_STATUS_H
#define TL_BASE_STATUS_H

#define TL_STATUSES(X)                                                                             \
    X(TL_OK, 0, "ok")                                                                              \
    X(TL_ERR_COMPILE, -1, "compile error")                                                         \
    X(TL_ERR_RUNTIME, -2, "runtime error")                                                         \
    X(TL_ERR_IO, -3, "i/o error")                                                                  \
    X(TL_ERR_FORMAT, -4, "malformed input file")                                                   \
    X(TL_ERR_ARG, -5, "invalid argument")                                                          \
    X(TL_ERR_NOMEM, -6, "out of memory")                                                           \
    X(TL_ERR_UNSUPPORTED, -7, "unsupported")                                                       \
    X(TL_ERR_MISMATCH, -8, "results differ")                                                       \
    X(TL_ERR_RACE, -9, "race or sync misuse detected")                                             \
    X(TL_ERR_INTERNAL, -10, "internal error")

typedef enum {
#define X(name, value, text) name = value,
    TL_STATUSES(X)
#undef X
} tl_status_t;

const char *tl_status_str(tl_status_t s);

#endif
