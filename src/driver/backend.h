// The backend interface: what runs a compiled kernel. Each backend is a row of
// the table in backend.c, an engine in a folder of its own (src/exec: the
// reference executor, src/npu: the simulator, src/cpu: native code) and a
// file here (backend_NAME.c) adapting the engine to these functions. The
// command-line tool, the C API, the check runner and the benchmarks choose a
// backend by name and drive it through the table:
//
//   const tl_backend_t *be = tl_backend_find("cpu");
//   tl_compile_opts_t co = {.path = file, .pipeline = be->pipeline};
//   tl_compile(&arena, &co, &diag, &k);              // driver/compile.h
//   tl_bind_create(&args, k, &diag);                 // exec/bind.h: arguments, shared
//   tl_bind_set_tensor(args, "A", a); ...
//   void *self;
//   be->create(&self, k, NULL, &diag);
//   st = be->run(self, args);                        // outputs: tl_bind_tensor(args, "C")
//   be->report(self, &report);
//   be->destroy(self);
//
// Argument binding, argument checks and the allocation of outputs are the
// binding's (exec/bind.h), the same for every backend.
#ifndef TL_DRIVER_BACKEND_H
#define TL_DRIVER_BACKEND_H

#include "cpu/cpu.h"
#include "exec/bind.h"
#include "exec/exec.h"
#include "npu/sim.h"
#include "pass/pass.h"
#include "pto/pto.h"

// Options of a backend: each reads its own part (all zero: the defaults).
typedef struct {
    tl_exec_opts_t ref; // the reference executor
    tl_sim_opts_t sim;
    tl_cpu_opts_t cpu;
    tl_pto_opts_t pto;
} tl_backend_opts_t;

// What the last run did and measured (what a backend does not measure stays 0).
typedef struct {
    int64_t blocks;             // blocks the run executed
    bool cached;                // its compiled module came from the cache
    const char *printed;        // what the kernel printed (T.printf, T.dump_tensor), or ""
    const tl_sim_report_t *sim; // the modeled device's report (sim), or NULL
} tl_backend_report_t;

// Documents a backend writes about its last run (tl_backend_t.write).
typedef enum {
    TL_BACKEND_SUMMARY, // text for the terminal (sim: cycles, pipes, races)
    TL_BACKEND_JSON,    // the report as JSON
    TL_BACKEND_TRACE,   // a Chrome trace (sim with opts.sim.trace)
} tl_backend_doc_t;

typedef struct tl_backend {
    const char *name;       // --target NAME
    const char *about;      // one line for help texts
    tl_pipeline_t pipeline; // the passes its IR needs (tl_compile_opts_t.pipeline)
    bool native;            // it compiles the kernel to code (tilec run says where and how)
    // An instance for kernel k (compiled with `pipeline`, kept alive by the
    // caller); o: NULL for the defaults. Errors go to d, also later ones.
    tl_status_t (*create)(void **self, const tl_kernel_t *k, const tl_backend_opts_t *o,
                          tl_diag_t *d);
    // Runs the kernel on the arguments of `args` (checked here when needed);
    // the outputs land in args' tensors. TL_ERR_RACE (sim): the run completed
    // and found races or sync misuse (in the report).
    tl_status_t (*run)(void *self, tl_bind_t *args);
    void (*report)(void *self, tl_backend_report_t *r);
    // Appends document `what` of the last run to out (nothing when it has
    // none; tl_backend_no_docs for a backend that has no documents).
    void (*write)(void *self, tl_backend_doc_t what, tl_buf_t *out);
    void (*destroy)(void *self); // NULL is fine
} tl_backend_t;

// How many backends there are: the rows of backend.c's table. The C API's
// targets (include/tilec.h's TILEC_TARGET_*) are these rows in this order.
enum { TL_BACKEND_COUNT = 4 };

// The backends, NULL-terminated, in the order of help texts.
const tl_backend_t *const *tl_backends(void);
// The `write` of a backend that writes no documents.
void tl_backend_no_docs(void *self, tl_backend_doc_t what, tl_buf_t *out);
// The backend named `name`, or NULL.
const tl_backend_t *tl_backend_find(const char *name);

#endif
