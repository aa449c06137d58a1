// The table of backends (backend.h): one row per backend.
#include "driver/backend.h"

#include <string.h>

extern const tl_backend_t tl_backend_ref, tl_backend_sim, tl_backend_cpu, tl_backend_pto;

// In the order of the C API's TILEC_TARGET_* (include/tilec.h).
static const tl_backend_t *const table[] = {
    &tl_backend_ref,
    &tl_backend_sim,
    &tl_backend_cpu,
    &tl_backend_pto,
    NULL,
};
_Static_assert(TL_ARRAY_LEN(table) == TL_BACKEND_COUNT + 1, "TL_BACKEND_COUNT out of sync");

const tl_backend_t *const *tl_backends(void)
{
    return table;
}

void tl_backend_no_docs(void *self, tl_backend_doc_t what, tl_buf_t *out)
{
    (void)self, (void)what, (void)out;
}

const tl_backend_t *tl_backend_find(const char *name)
{
    for (int i = 0; name && table[i]; i++)
        if (!strcmp(table[i]->name, name)) return table[i];
    return NULL;
}
