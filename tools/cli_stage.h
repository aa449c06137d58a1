// The files one command writes, as one transaction: each is written under a
// temporary name beside its final path, and they are renamed into place
// together at the end, or all removed (issue 22: write all outputs or none).
#ifndef TL_TOOLS_CLI_STAGE_H
#define TL_TOOLS_CLI_STAGE_H

#include <stdbool.h>

#include "base/buf.h"
#include "base/diag.h"

typedef struct {
    char *tmp, *path;
    char *old;       // while committing: where the file that was at `path` waits
    const char *opt; // the option that asked for the file (for messages)
    bool announce;   // print "wrote PATH" when it is renamed into place
} cli_staged_t;

typedef struct {
    int n, cap;
    cli_staged_t *files;
} cli_stage_t;

// A temporary name beside `path` for option `opt`'s file, to be written by the
// caller (NULL when out of memory). If writing it fails, the caller reports the
// failure; cli_stage_finish removes the file either way.
const char *cli_stage_add(cli_stage_t *s, const char *opt, const char *path, bool announce);
// Stages `text` as `path`'s content.
tl_status_t cli_stage_text(cli_stage_t *s, const char *opt, const char *path, tl_buf_t *text,
                           tl_diag_t *d);
// keep: renames every staged file into place, replacing what was there; if
// one cannot be (a directory in the way, a failed rename) none is, the files
// that were there stay, and the failure is reported. !keep: removes them all.
// The stage is empty afterwards.
tl_status_t cli_stage_finish(cli_stage_t *s, bool keep, tl_diag_t *d);

#endif
