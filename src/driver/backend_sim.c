// The simulator (src/npu) as a backend: the values of the reference executor,
// plus the modeled Ascend core's cycles, races and sync checks.
#include "driver/backend.h"

static tl_status_t sim_create(void **self, const tl_kernel_t *k, const tl_backend_opts_t *o,
                              tl_diag_t *d)
{
    tl_sim_t *s = NULL;
    tl_status_t st = tl_sim_create(&s, k, o ? &o->sim : NULL, d);
    *self = s;
    return st;
}

static tl_status_t sim_run(void *self, tl_bind_t *args)
{
    tl_exec_use_args(tl_sim_exec(self), args);
    return tl_sim_run(self);
}

static void sim_report(void *self, tl_backend_report_t *r)
{
    tl_exec_t *x = tl_sim_exec(self);
    *r = (tl_backend_report_t){
        .blocks = tl_exec_num_blocks(x), .printed = tl_exec_output(x), .sim = tl_sim_report(self)};
}

static void sim_write(void *self, tl_backend_doc_t what, tl_buf_t *out)
{
    switch (what) {
    case TL_BACKEND_SUMMARY: tl_sim_report_text(self, out); break;
    case TL_BACKEND_JSON: tl_sim_report_json(self, out); break;
    case TL_BACKEND_TRACE: tl_sim_trace_json(self, out); break;
    }
}

static void sim_destroy(void *self)
{
    tl_sim_destroy(self);
}

const tl_backend_t tl_backend_sim = {
    .name = "sim",
    .about = "the modeled Ascend core: values, races, cycles",
    .pipeline = TL_PIPELINE_NPU,
    .create = sim_create,
    .run = sim_run,
    .report = sim_report,
    .write = sim_write,
    .destroy = sim_destroy,
};
