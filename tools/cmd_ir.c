// tilec ir FILE [-k NAME] [-a NAME=VALUE]... [--dump-after=PASS] [--emit=c|pto]
// Prints the Tile IR of one kernel, or (--emit=c) the C the cpu target generates,
// or (--emit=pto) the kernel as PTO-ISA C++ (the pto target, docs/pto.md).
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cpu/cpu.h"
#include "pto/pto.h"

static bool ir_takes_value(const char *opt)
{
    return !strcmp(opt, "--pipeline");
}

int cmd_ir(int argc, char **argv)
{
    cli_opts_t o;
    if (!cli_parse("ir", argc, argv, &o, ir_takes_value)) return 2;
    tl_pipeline_t pipeline = TL_PIPELINE_NPU;
    for (int i = 0; i < o.nrest; i++) {
        const char *r = o.rest[i];
        if (!strncmp(r, "--pipeline", 10) && (r[10] == '=' || !r[10])) {
            const char *v = r[10] ? r + 11 : i + 1 < o.nrest ? o.rest[++i] : "";
            if (!strcmp(v, "ref"))
                pipeline = TL_PIPELINE_REF;
            else if (!strcmp(v, "npu"))
                pipeline = TL_PIPELINE_NPU;
            else if (!strcmp(v, "cpu"))
                pipeline = TL_PIPELINE_CPU;
            else if (!strcmp(v, "pto"))
                pipeline = TL_PIPELINE_PTO;
            else {
                fprintf(stderr, "tilec ir: --pipeline expects ref, npu, cpu or pto, got '%s'\n", v);
                return 2;
            }
        } else {
            fprintf(stderr, "tilec ir: unknown option '%s' (tilec ir --help lists the options)\n",
                    r);
            return 2;
        }
    }
    if (o.emit && strcmp(o.emit, "c") && strcmp(o.emit, "pto")) {
        fprintf(stderr, "tilec ir: --emit expects c or pto, got '%s'\n", o.emit);
        return 2;
    }
    if (o.dump_after && !tl_pass_exists(o.dump_after)) {
        fprintf(stderr, "tilec ir: no pass named '%s' (passes: %s, all)\n", o.dump_after,
                tl_pass_names());
        return 2;
    }
    tl_arena_t arena;
    tl_arena_init(&arena);
    tl_diag_t d;
    tl_diag_init(&d);
    tl_buf_t b;
    tl_buf_init(&b);
    int rc = 2;
    bool emit_c = o.emit && !strcmp(o.emit, "c");
    bool emit_pto = o.emit && !strcmp(o.emit, "pto");
    // --emit=c: the cpu pipeline; --dump-after: the chosen one, dumped; else the front end's IR
    tl_compile_opts_t how = {.front_only = true};
    if (emit_c)
        how = (tl_compile_opts_t){.pipeline = TL_PIPELINE_CPU};
    else if (emit_pto)
        how = (tl_compile_opts_t){.pipeline = TL_PIPELINE_PTO};
    else if (!o.emit && o.dump_after)
        how = (tl_compile_opts_t){.pipeline = pipeline, .dump_after = o.dump_after, .dump = &b};
    tl_kernel_t *k = cli_compile(&arena, &o, how, &d);
    if (k) {
        if (emit_c) {
            tl_status_t st = tl_cpu_emit(k, &b, &d);
            cli_print_diag(&d);
            rc = st == TL_OK ? 0 : 2;
        } else if (emit_pto) {
            tl_status_t st = tl_pto_emit(k, &b, NULL, &d);
            cli_print_diag(&d);
            rc = st == TL_OK ? 0 : 2;
        } else {
            if (!o.dump_after) tl_ir_print_kernel(&b, k);
            rc = 0;
        }
    }
    if (rc == 0 || (!emit_c && !emit_pto)) fputs(tl_buf_cstr(&b), stdout); // no partial code
    tl_buf_free(&b);
    tl_diag_free(&d);
    tl_arena_free(&arena);
    return rc;
}
