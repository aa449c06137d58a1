// The CPU target (src/cpu) as a backend: the kernel as C, compiled (and
// cached) by the system compiler, run on a thread pool.
#include "driver/backend.h"

static tl_status_t cpu_create(void **self, const tl_kernel_t *k, const tl_backend_opts_t *o,
                              tl_diag_t *d)
{
    tl_cpu_t *c = NULL;
    tl_status_t st = tl_cpu_create(&c, k, o ? &o->cpu : NULL, d);
    *self = c;
    return st;
}

static tl_status_t cpu_run(void *self, tl_bind_t *args)
{
    tl_cpu_use_args(self, args);
    return tl_cpu_run(self);
}

static void cpu_report(void *self, tl_backend_report_t *r)
{
    *r = (tl_backend_report_t){.blocks = tl_bind_num_blocks(tl_cpu_args(self)),
                               .cached = tl_cpu_jit(self)->cached,
                               .printed = ""};
}

static void cpu_destroy(void *self)
{
    tl_cpu_destroy(self);
}

const tl_backend_t tl_backend_cpu = {
    .name = "cpu",
    .about = "native code on the host CPU (cc, cached)",
    .pipeline = TL_PIPELINE_CPU,
    .native = true,
    .create = cpu_create,
    .run = cpu_run,
    .report = cpu_report,
    .write = tl_backend_no_docs,
    .destroy = cpu_destroy,
};
