// The reference executor (src/exec) as a backend: the language's meaning,
// which every other backend is checked against.
#include "driver/backend.h"

#include <stdlib.h>

static tl_status_t ref_create(void **self, const tl_kernel_t *k, const tl_backend_opts_t *o,
                              tl_diag_t *d)
{
    tl_exec_t *x = NULL;
    tl_status_t st = tl_exec_create(&x, k, o ? &o->ref : NULL, d);
    *self = x;
    return st;
}

static tl_status_t ref_run(void *self, tl_bind_t *args)
{
    tl_exec_use_args(self, args);
    return tl_exec_run(self);
}

static void ref_report(void *self, tl_backend_report_t *r)
{
    *r = (tl_backend_report_t){.blocks = tl_exec_num_blocks(self), .printed = tl_exec_output(self)};
}

static void ref_destroy(void *self)
{
    tl_exec_destroy(self);
}

const tl_backend_t tl_backend_ref = {
    .name = "ref",
    .about = "reference executor (the language's meaning)",
    .pipeline = TL_PIPELINE_REF,
    .create = ref_create,
    .run = ref_run,
    .report = ref_report,
    .write = tl_backend_no_docs,
    .destroy = ref_destroy,
};
