// The table of backends (backend.h): one row per backend.
#include "driver/backend.h"

#include <string.h>

extern const tl_backend_t tl_backend_ref, tl_backend_sim, tl_backend_cpu, tl_backend_pto;

static const tl_backend_t *const table[] = {
    &tl_backend_ref,
    &tl_backend_sim,
    &tl_backend_cpu,
    &tl_backend_pto,
    NULL,
};

const tl_backend_t *const *tl_backends(void)
{
    return table;
}

const tl_backend_t *tl_backend_find(const char *name)
{
    for (int i = 0; name && table[i]; i++)
        if (!strcmp(table[i]->name, name)) return table[i];
    return NULL;
}
