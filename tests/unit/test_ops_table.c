// The op table (ir/ops.h) drives the front end: every spelling of every row
// (TL_OPS and TL_OP_ALIASES) is installed, bound by its row's binder, and
// named by that spelling in messages. A kernel calls each spelling with no
// arguments; the error must come from the op's binder, not from an unknown
// name or front/tapi.c's list of upstream ops tilec does not implement.
#include "../test.h"

#include <stdlib.h>

#include "front/front.h"

static const char *const spellings[] = {
#define X(id, name, sig, cls, pipe, cost, bin, run, front, api) api,
    TL_OPS(X)
#undef X
#define X(id, front, api) api,
    TL_OP_ALIASES(X)
#undef X
};

// The diagnostics of a kernel whose body calls `call`.
static char *diag_of_call(const char *call)
{
    tl_buf_t b;
    tl_buf_init(&b);
    tl_buf_printf(&b, "import tilelang\nimport tilelang.language as T\n\n"
                      "@T.prim_func\n"
                      "def main(A: T.Tensor((64,), \"float32\")):\n"
                      "    with T.Kernel(1, is_npu=True) as (cid, vid):\n"
                      "        %s\n",
                  call);
    tl_arena_t arena;
    tl_arena_init(&arena);
    tl_diag_t d;
    tl_diag_init(&d);
    tl_kernel_t *k = NULL;
    tl_front_compile_source(&arena, "ops.py", tl_buf_cstr(&b), NULL, &d, &k);
    char *text = strdup(tl_diag_text(&d));
    tl_diag_free(&d);
    tl_arena_free(&arena);
    tl_buf_free(&b);
    return text;
}

TEST(ops_table_every_spelling_reaches_its_binder)
{
    for (size_t i = 0; i < sizeof spellings / sizeof *spellings; i++) {
        char name[64], call[80];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(spellings[i], " "), spellings[i]);
        snprintf(call, sizeof call, "%s()", name);
        char *diag = diag_of_call(call);
        CHECK(strstr(diag, "error") != NULL);
        if (!strstr(diag, name) || strstr(diag, "does not implement") ||
            strstr(diag, "is not supported by tilec"))
            tl_test_fail(t, __FILE__, __LINE__, "%s: %s", call, diag);
        free(diag);
    }
}

TEST(ops_table_spelling_is_the_api_columns_first_word)
{
    CHECK(!strcmp(tl_op_info(TL_OP_ADD)->spelling, "T.tile.add"));
    CHECK(!strcmp(tl_op_info(TL_OP_COPY)->spelling, "T.copy"));
    CHECK(
        !strcmp(tl_op_info(TL_OP_ROW_EXPAND_SUB_X)->spelling, "T.tile.row_expand_sub_experiment"));
    for (int op = 0; op < TL_OP_COUNT; op++)
        CHECK(!strncmp(tl_op_info((tl_opcode_t)op)->spelling, "T.", 2));
}
