// The PTO target (src/pto) as a backend: the kernel after the NPU pipeline as
// PTO-ISA C++, built against pto-isa's CPU implementation (cached) and run
// in a child process.
#include "driver/backend.h"
#include "exec/layout.h"

static tl_status_t pto_create(void **self, const tl_kernel_t *k, const tl_backend_opts_t *o,
                              tl_diag_t *d)
{
    tl_pto_t *p = NULL;
    // the planned layout, as the other targets check it: a vector op that runs
    // past its buffer is reported with the bytes and buffers it reaches there
    // (exec/overrun.c), or stops the run when it would leave the UB
    tl_layout_t layout;
    tl_status_t st = tl_layout_build(&layout, k, NULL, d);
    tl_layout_free(&layout);
    *self = NULL;
    if (st) return st;
    st = tl_pto_create(&p, k, o ? &o->pto : NULL, d);
    *self = p;
    return st;
}

static tl_status_t pto_run(void *self, tl_bind_t *args)
{
    return tl_pto_run(self, args);
}

static void pto_report(void *self, tl_backend_report_t *r)
{
    *r = (tl_backend_report_t){
        .blocks = tl_pto_blocks(self), .cached = tl_pto_cached(self), .printed = ""};
}

static void pto_destroy(void *self)
{
    tl_pto_destroy(self);
}

const tl_backend_t tl_backend_pto = {
    .name = "pto",
    .about = "PTO-ISA C++ on pto-isa's CPU implementation (PTO_ISA_DIR, cached)",
    .pipeline = TL_PIPELINE_PTO,
    .native = true,
    .create = pto_create,
    .run = pto_run,
    .report = pto_report,
    .write = tl_backend_no_docs,
    .destroy = pto_destroy,
};
