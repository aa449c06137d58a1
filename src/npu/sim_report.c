// The simulator's report: totals (the busiest core's cycles, time at the
// modeled clock, launch overhead), per-pipe busy percentages per core kind,
// syncs by kind, scratchpad peaks, races and other findings; as diagnostics
// (an error per race at its second access with a note at the first), as the
// `tilec sim` text summary and as JSON.
#include "npu/sim_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t buffer_base(const tl_sim_t *s, int buf)
{
    const tl_buffer_t *b = sim_buffer(s, buf);
    return b->scope == TL_SCOPE_GM ? 0 : s->addr[buf];
}

void sim_report_finish(tl_sim_t *s)
{
    tl_sim_report_t *r = &s->report;
    const tl_arch_t *a = s->arch;
    r->blocks = s->nblocks;
    r->waves = s->resident ? 1 : (s->nblocks + a->num_aic - 1) / a->num_aic;
    r->cycles = 0;
    r->ideal_cycles = 0;
    for (int c = 0; c < a->num_aic; c++) {
        r->cycles = TL_MAX(r->cycles, s->core_time[c]);
        r->ideal_cycles = TL_MAX(r->ideal_cycles, s->core_bound[c]);
    }
    r->core_cycles = s->core_time;
    // a mixed kernel: both kinds of core ran a pipe instruction (scalar code
    // alone does not make the launch start the other kind)
    bool ran[2] = {false, false};
    for (int kind = 0; kind < 2; kind++)
        for (int p = 0; p < SIM_NP; p++) ran[kind] |= p != SIM_S && s->busy[kind][p] > 0;
    r->mixed = ran[0] && ran[1];
    r->start_us = a->kernel_start_us + (r->mixed ? a->mix_start_us : 0);
    r->time_us = r->start_us + (double)r->cycles / a->clock_mhz;
    r->host_launch_us = a->host_launch_us;
    r->total_us = r->time_us + r->host_launch_us;
    for (int kind = 0; kind < 2; kind++)
        for (int p = 0; p < SIM_NP; p++) {
            double t = (double)s->agent_time[kind];
            r->busy[kind][SIM_PIPE(p)] = t > 0 ? 100.0 * (double)s->busy[kind][p] / t : 0;
            r->in_flight[kind][SIM_PIPE(p)] = t > 0 ? 100.0 * (double)s->fly[kind][p] / t : 0;
        }
    r->l2 = s->opts.l2;
    r->gm_read_bytes = s->gm_bytes[0];
    r->gm_write_bytes = s->gm_bytes[1];
    r->hbm_read_bytes = s->hbm_bytes;
    r->l2_evicted_bytes = s->l2_evicted * s->arch->l2_line_bytes;
    r->l2_written_back_bytes = s->l2_written_back * s->arch->l2_line_bytes;
    memcpy(r->syncs, s->syncs, sizeof r->syncs);
    memcpy(r->auto_syncs, s->auto_syncs, sizeof r->auto_syncs);
    r->scratch_peak[TL_SCOPE_L0A] = TL_MAX(r->scratch_peak[TL_SCOPE_L0A], s->l0_internal[0]);
    r->scratch_peak[TL_SCOPE_L0B] = TL_MAX(r->scratch_peak[TL_SCOPE_L0B], s->l0_internal[1]);
    r->instructions = s->instructions;
    // byte ranges in each side's buffer; real races first
    for (int i = 0; i < s->nraces; i++) {
        const sim_racex_t *x = &s->racex[i];
        tl_sim_race_t *rc = &s->races[i];
        rc->first.lo = x->lo - buffer_base(s, x->buf_a);
        rc->first.hi = x->hi - buffer_base(s, x->buf_a);
        rc->second.lo = x->lo - buffer_base(s, x->buf_b);
        rc->second.hi = x->hi - buffer_base(s, x->buf_b);
    }
    tl_sim_race_t *sorted = tl_arena_alloc(&s->arena, sizeof *sorted * (size_t)(s->nraces + 1));
    int n = 0;
    r->nraces = r->nbenign = 0;
    for (int pass = 0; pass < 2 && sorted; pass++)
        for (int i = 0; i < s->nraces; i++)
            if (s->races[i].benign == (pass == 1)) {
                sorted[n++] = s->races[i];
                if (pass)
                    r->nbenign++;
                else
                    r->nraces++;
            }
    r->races = sorted;
    r->errors = s->errors;
    r->nerrors = s->nerrors;
    r->warnings = s->warnings;
    r->nwarnings = s->nwarnings;
    r->trace_truncated = s->trace_truncated;
}

static const char *agent_text(char *buf, size_t n, const tl_sim_access_t *a)
{
    snprintf(buf, n, "block %lld %s", (long long)a->block, tl_side_agent_name(a->agent));
    return buf;
}

// Why a benign race cannot change the result (sim_hb.c's two rules).
static const char *benign_why(const tl_sim_race_t *rc)
{
    if (!rc->benign) return "";
    if (rc->space == TL_SCOPE_GM) return " (both wrote identical bytes)";
    return strcmp(rc->kind, "WAW")
               ? " (the copy brings back the bytes the read saw: the same bytes of a tensor the "
                 "kernel never writes)"
               : " (both copy the same bytes of a tensor the kernel never writes)";
}

void sim_report_diag(tl_sim_t *s)
{
    const tl_sim_report_t *r = &s->report;
    for (int i = 0; i < r->nraces + r->nbenign; i++) {
        const tl_sim_race_t *rc = &r->races[i];
        const tl_sim_access_t *f = &rc->first, *g = &rc->second;
        char a1[64], a2[64], times[48] = "";
        if (rc->count > 1)
            snprintf(times, sizeof times, " (%lld instruction pairs)", (long long)rc->count);
        char past[96] = ""; // bytes a count reached past the buffer (exec/overrun.c)
        if (g->bytes > 0 && g->lo >= g->bytes)
            snprintf(past, sizeof past, " (past its %lld bytes: the op's count runs on)",
                     (long long)g->bytes);
        tl_diag_report(s->d, rc->benign ? TL_SEV_WARNING : TL_SEV_ERROR, g->loc, TL_ERR_RACE,
                       "%s%s on %s: %s (%s pipe, %s) %s bytes [%lld, %lld) of '%s'%s, which %s "
                       "(%s pipe, %s, line %d) %s with nothing ordering the two%s%s",
                       rc->benign ? "benign race " : "race ", rc->kind, tl_scope_name(rc->space),
                       g->op, tl_pipe_name(g->pipe), agent_text(a2, sizeof a2, g),
                       g->write ? "writes" : "reads", (long long)g->lo, (long long)g->hi, g->buffer,
                       past, f->op, tl_pipe_name(f->pipe), agent_text(a1, sizeof a1, f),
                       f->loc.line, f->write ? "wrote" : "read", times, benign_why(rc));
        tl_diag_note(s->d, f->loc, "%s of '%s' bytes [%lld, %lld) by %s here",
                     f->write ? "write" : "read", f->buffer, (long long)f->lo, (long long)f->hi,
                     f->op);
    }
}

// --- text -----------------------------------------------------------------------------------

static const tl_pipe_t aic_pipes[] = {TL_PIPE_S,    TL_PIPE_MTE1, TL_PIPE_MTE2,
                                      TL_PIPE_MTE3, TL_PIPE_M,    TL_PIPE_FIX};
static const tl_pipe_t aiv_pipes[] = {TL_PIPE_S, TL_PIPE_MTE2, TL_PIPE_MTE3, TL_PIPE_V};
static const tl_scope_t pads[] = {TL_SCOPE_L1, TL_SCOPE_L0A, TL_SCOPE_L0B, TL_SCOPE_L0C,
                                  TL_SCOPE_UB};

static const char *auto_names[] = {
#define X(id, name) name,
    TL_SIM_AUTO_SYNCS(X)
#undef X
};

// The syncs by kind, those the upstream build adds, then the scratchpad
// peaks: "name N" lists for the text, the members of the "syncs",
// "auto_syncs" and "scratch_peak" objects for JSON.
static void counts(tl_buf_t *b, const tl_sim_report_t *r, bool json)
{
    const char *item = json ? "%s\"%s\": %lld" : "%s %s %lld";
    const char *sep = json ? ", " : ",";
    for (int k = 0; k < TL_SYNC_COUNT; k++)
        tl_buf_printf(b, item, k ? sep : "", tl_sync_name((tl_sync_kind_t)k),
                      (long long)r->syncs[k]);
    tl_buf_puts(b, json ? "},\n  \"auto_syncs\": {" : "\n  syncs the build adds");
    for (int k = 0; k < TL_SIM_AUTO_COUNT; k++)
        tl_buf_printf(b, item, k ? sep : "", auto_names[k], (long long)r->auto_syncs[k]);
    tl_buf_puts(b, json ? "},\n  \"scratch_peak\": {" : "\n  scratchpad peak (bytes)");
    for (size_t i = 0; i < TL_ARRAY_LEN(pads); i++)
        tl_buf_printf(b, item, i ? sep : "", tl_scope_name(pads[i]),
                      (long long)r->scratch_peak[pads[i]]);
}

static void busy_line(tl_buf_t *out, const tl_sim_report_t *r, int kind)
{
    const tl_pipe_t *ps = kind ? aiv_pipes : aic_pipes;
    int n = kind ? (int)TL_ARRAY_LEN(aiv_pipes) : (int)TL_ARRAY_LEN(aic_pipes);
    tl_buf_printf(out, "  busy %-7s", kind ? "vector" : "cube");
    for (int i = 0; i < n; i++)
        tl_buf_printf(out, " %s %.1f%%", tl_pipe_name(ps[i]), r->busy[kind][ps[i]]);
    tl_buf_putc(out, '\n');
}

static const char *l2_name(tl_sim_l2_t l2)
{
    return l2 == TL_SIM_L2_WARM ? "warm" : "cold";
}

void tl_sim_report_text(const tl_sim_t *s, tl_buf_t *out)
{
    const tl_sim_report_t *r = &s->report;
    const tl_arch_t *a = s->arch;
    tl_buf_printf(out, "sim %s on %s (%s, %d cores at %.0f MHz): %lld blocks in %lld wave%s\n",
                  s->k->name, a->name, a->soc, a->num_aic, a->clock_mhz, (long long)r->blocks,
                  (long long)r->waves, r->waves == 1 ? "" : "s");
    tl_buf_printf(
        out,
        "  time %.2f us on the device = %.2f us kernel start%s + %lld cycles; %lld "
        "instructions\n  (host launch not included: about %.0f us per call from Python)\n",
        r->time_us, r->start_us, r->mixed ? " (mixed: cube and vector cores)" : "",
        (long long)r->cycles, (long long)r->instructions, r->host_launch_us);
    tl_buf_printf(out, "  busiest-pipe bound %lld cycles (%.2fx)\n", (long long)r->ideal_cycles,
                  r->ideal_cycles ? (double)r->cycles / (double)r->ideal_cycles : 0.0);
    busy_line(out, r, 0);
    busy_line(out, r, 1);
    tl_buf_printf(out, "  GM read %lld B (%lld B from HBM, L2 %s at the start), written %lld B",
                  (long long)r->gm_read_bytes, (long long)r->hbm_read_bytes, l2_name(r->l2),
                  (long long)r->gm_write_bytes);
    if (r->l2_evicted_bytes) // the tensors overflowed the L2
        tl_buf_printf(out, "; L2 full: %lld B pushed out (%lld B written back to HBM)",
                      (long long)r->l2_evicted_bytes, (long long)r->l2_written_back_bytes);
    tl_buf_putc(out, '\n');
    tl_buf_puts(out, "  syncs");
    counts(out, r, false);
    tl_buf_printf(out, "\n  races %d, benign races %d, sync/memory errors %d", r->nraces,
                  r->nbenign, r->nerrors);
    if (r->nwarnings) tl_buf_printf(out, " (and %d sync warnings)", r->nwarnings);
    tl_buf_putc(out, '\n');
}

// --- JSON -----------------------------------------------------------------------------------

static void json_access(tl_buf_t *b, const char *key, const tl_sim_access_t *a)
{
    tl_buf_printf(b, "\"%s\": {\"op\": ", key);
    sim_json_str(b, a->op);
    tl_buf_printf(b,
                  ", \"pipe\": \"%s\", \"agent\": \"%s\", \"block\": %lld, \"line\": %d, "
                  "\"col\": %d, \"access\": \"%s\", \"buffer\": ",
                  tl_pipe_name(a->pipe), tl_side_agent_name(a->agent), (long long)a->block,
                  a->loc.line, a->loc.col, a->write ? "write" : "read");
    sim_json_str(b, a->buffer);
    tl_buf_printf(b, ", \"bytes\": [%lld, %lld]}", (long long)a->lo, (long long)a->hi);
}

// "name": {"aic": {pipe: percent, ...}, "aiv": {...}  (the caller closes the brace)
static void json_pipes(tl_buf_t *b, const char *name, const double (*pct)[TL_PIPE_COUNT])
{
    tl_buf_printf(b, "  \"%s\": {", name);
    for (int kind = 0; kind < 2; kind++) {
        const tl_pipe_t *ps = kind ? aiv_pipes : aic_pipes;
        int n = kind ? (int)TL_ARRAY_LEN(aiv_pipes) : (int)TL_ARRAY_LEN(aic_pipes);
        tl_buf_printf(b, "%s\"%s\": {", kind ? ", " : "", kind ? "aiv" : "aic");
        for (int i = 0; i < n; i++)
            tl_buf_printf(b, "%s\"%s\": %.2f", i ? ", " : "", tl_pipe_name(ps[i]),
                          pct[kind][ps[i]]);
        tl_buf_putc(b, '}');
    }
}

static void json_errors(tl_buf_t *b, const char *key, const tl_sim_error_t *errs, int n)
{
    tl_buf_printf(b, "  \"%s\": [", key);
    for (int i = 0; i < n; i++) {
        const tl_sim_error_t *e = &errs[i];
        tl_buf_printf(b,
                      "%s\n    {\"kind\": \"%s\", \"line\": %d, \"col\": %d, \"block\": %lld, "
                      "\"agent\": \"%s\", \"message\": ",
                      i ? "," : "", tl_sim_error_name(e->kind), e->loc.line, e->loc.col,
                      (long long)e->block, e->block >= 0 ? tl_side_agent_name(e->agent) : "");
        sim_json_str(b, e->message);
        tl_buf_putc(b, '}');
    }
    tl_buf_printf(b, "%s],\n", n ? "\n  " : "");
}

static void json_races(tl_buf_t *b, const tl_sim_report_t *r, bool benign)
{
    int n = 0;
    tl_buf_printf(b, "  \"%s\": [", benign ? "benign_races" : "races");
    for (int i = 0; i < r->nraces + r->nbenign; i++) {
        const tl_sim_race_t *rc = &r->races[i];
        if (rc->benign != benign) continue;
        tl_buf_printf(b, "%s\n    {\"kind\": \"%s\", \"space\": \"%s\", \"count\": %lld, ",
                      n++ ? "," : "", rc->kind, tl_scope_name(rc->space), (long long)rc->count);
        json_access(b, "first", &rc->first);
        tl_buf_puts(b, ", ");
        json_access(b, "second", &rc->second);
        tl_buf_putc(b, '}');
    }
    tl_buf_puts(b, n ? "\n  ],\n" : "],\n");
}

void tl_sim_report_json(const tl_sim_t *s, tl_buf_t *b)
{
    const tl_sim_report_t *r = &s->report;
    const tl_arch_t *a = s->arch;
    tl_buf_puts(b, "{\n  \"kernel\": ");
    sim_json_str(b, s->k->name);
    tl_buf_printf(b,
                  ",\n  \"arch\": \"%s\", \"soc\": \"%s\", \"clock_mhz\": %.0f, \"cores\": %d,\n",
                  a->name, a->soc, a->clock_mhz, a->num_aic);
    tl_buf_printf(b,
                  "  \"blocks\": %lld, \"waves\": %lld, \"cycles\": %lld, \"time_us\": %.4f, "
                  "\"start_us\": %.2f, \"mixed\": %s, \"host_launch_us\": %.2f, "
                  "\"total_us\": %.4f, \"instructions\": %lld,\n"
                  "  \"ideal_cycles\": %lld, \"core_cycles\": [",
                  (long long)r->blocks, (long long)r->waves, (long long)r->cycles, r->time_us,
                  r->start_us, r->mixed ? "true" : "false", r->host_launch_us, r->total_us,
                  (long long)r->instructions, (long long)r->ideal_cycles);
    for (int c = 0; c < a->num_aic; c++) // none when the run stopped before it started
        tl_buf_printf(b, "%s%lld", c ? ", " : "",
                      (long long)(r->core_cycles ? r->core_cycles[c] : 0));
    tl_buf_printf(b,
                  "],\n  \"l2\": \"%s\", \"gm_read_bytes\": %lld, \"hbm_read_bytes\": %lld, "
                  "\"gm_write_bytes\": %lld, \"l2_evicted_bytes\": %lld, "
                  "\"l2_written_back_bytes\": %lld,\n",
                  l2_name(r->l2), (long long)r->gm_read_bytes, (long long)r->hbm_read_bytes,
                  (long long)r->gm_write_bytes, (long long)r->l2_evicted_bytes,
                  (long long)r->l2_written_back_bytes);
    json_pipes(b, "pipes", r->busy);
    tl_buf_puts(b, "},\n");
    json_pipes(b, "in_flight", r->in_flight);
    tl_buf_puts(b, "},\n  \"syncs\": {");
    counts(b, r, true);
    tl_buf_puts(b, "},\n");
    json_races(b, r, false);
    json_races(b, r, true);
    json_errors(b, "errors", r->errors, r->nerrors);
    json_errors(b, "warnings", r->warnings, r->nwarnings);
    tl_buf_printf(b, "  \"trace_truncated\": %s\n}\n", r->trace_truncated ? "true" : "false");
}
