// The Chrome trace of the first blocks (`tilec sim --trace FILE`), in the
// Trace Event format Perfetto and chrome://tracing open: one process per
// modeled core named as msprof does ("core0.cubecore0", "core0.veccore0",
// "core0.veccore1"), one thread per pipe (SCALAR, MTE1, MTE2, MTE3, CUBE,
// VECTOR, FIXP) with an "X" slice per instruction over its occupancy (so the
// slices of a pipe never overlap; the latency that follows is an argument,
// with the op, source line, bytes and exact cycles), a FLOWCTRL thread with the flags and
// flow arrows from each set_flag / set_cross_flag to the wait it released, and
// instant events at races. Times are microseconds at the modeled clock (to the
// nanosecond); the trace stops growing after TRACE_MAX events.
#include "npu/sim_int.h"

#include <math.h>
#include <stdio.h>

enum { TRACE_MAX = 2000000 };

static const char *lane_names[SIM_LANES] = {"SCALAR", "MTE1",   "MTE2", "MTE3",
                                            "CUBE",   "VECTOR", "FIXP", "FLOWCTRL"};

void sim_json_str(tl_buf_t *b, const char *str)
{
    tl_buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)(str ? str : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            tl_buf_printf(b, "\\%c", *p);
        else if (*p < 0x20)
            tl_buf_printf(b, "\\u%04x", *p);
        else
            tl_buf_putc(b, (char)*p);
    }
    tl_buf_putc(b, '"');
}

static bool event(tl_sim_t *s)
{
    if (s->trace_events >= TRACE_MAX) {
        s->trace_truncated = true;
        return false;
    }
    if (s->trace_events++) tl_buf_puts(&s->trace, ",\n");
    return true;
}

// Microseconds on a 1 ns grid, so that the ends and starts of adjacent
// slices round alike and never overlap.
static double us(const tl_sim_t *s, int64_t cycle)
{
    return (double)llround((double)cycle * 1000.0 / s->arch->clock_mhz) / 1000.0;
}

static void meta(tl_sim_t *s, const char *what, int pid, int tid, const char *name)
{
    if (!event(s)) return;
    tl_buf_printf(&s->trace,
                  "{\"ph\": \"M\", \"name\": \"%s\", \"pid\": %d, \"tid\": %d, "
                  "\"args\": {\"name\": ",
                  what, pid, tid);
    sim_json_str(&s->trace, name);
    tl_buf_puts(&s->trace, "}}");
}

void sim_trace_begin(tl_sim_t *s)
{
    tl_buf_clear(&s->trace);
    s->trace_events = 0;
    tl_buf_puts(&s->trace, "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n");
    int cores = (int)TL_MIN(s->opts.trace_blocks, s->arch->num_aic);
    for (int c = 0; c < cores; c++)
        for (int a = 0; a < TL_AGENT_COUNT; a++) {
            if (a > s->nvec) continue;
            int pid = c * TL_AGENT_COUNT + a + 1;
            char name[64];
            if (a == TL_AGENT_AIC)
                snprintf(name, sizeof name, "core%d.cubecore0", c);
            else
                snprintf(name, sizeof name, "core%d.veccore%d", c, a - 1);
            meta(s, "process_name", pid, 0, name);
            for (int p = 0; p < SIM_LANES; p++) {
                bool has = p == SIM_S || p == SIM_FLOW || p == SIM_PIX(TL_PIPE_MTE2) ||
                           p == SIM_PIX(TL_PIPE_MTE3) ||
                           (a == TL_AGENT_AIC ? p != SIM_PIX(TL_PIPE_V) : p == SIM_PIX(TL_PIPE_V));
                if (has) meta(s, "thread_name", pid, p + 1, lane_names[p]);
            }
        }
}

void sim_trace_slice(tl_sim_t *s, const sim_agent_t *ag, int lane, const char *name, int64_t start,
                     int64_t dur, int64_t lat, const tl_loc_t *loc, int64_t bytes)
{
    if (!event(s)) return;
    int64_t base = ag->blk->base;
    tl_buf_puts(&s->trace, "{\"ph\": \"X\", \"name\": ");
    sim_json_str(&s->trace, name);
    tl_buf_printf(
        &s->trace,
        ", \"pid\": %d, \"tid\": %d, \"ts\": %.3f, \"dur\": %.3f, \"args\": {\"op\": ", ag->pid,
        lane + 1, us(s, base + start), us(s, base + start + TL_MAX(dur, 1)) - us(s, base + start));
    sim_json_str(&s->trace, name);
    tl_buf_printf(&s->trace,
                  ", \"line\": %d, \"bytes\": %lld, \"cycle\": %lld, \"occupancy\": %lld, "
                  "\"latency\": %lld, \"block\": %lld}}",
                  loc ? loc->line : 0, (long long)bytes, (long long)(base + start), (long long)dur,
                  (long long)lat, (long long)ag->blk->index);
}

void sim_trace_flow(tl_sim_t *s, int pid, int64_t ts, const sim_agent_t *to, int64_t ts2)
{
    if (s->trace_events + 2 > TRACE_MAX) {
        s->trace_truncated = true;
        return;
    }
    int64_t id = ++s->flow_id;
    event(s);
    tl_buf_printf(&s->trace,
                  "{\"ph\": \"s\", \"name\": \"sync\", \"cat\": \"sync\", \"id\": %lld, "
                  "\"pid\": %d, \"tid\": %d, \"ts\": %.3f}",
                  (long long)id, pid, SIM_FLOW + 1, us(s, ts));
    event(s);
    tl_buf_printf(&s->trace,
                  "{\"ph\": \"f\", \"bp\": \"e\", \"name\": \"sync\", \"cat\": \"sync\", "
                  "\"id\": %lld, \"pid\": %d, \"tid\": %d, \"ts\": %.3f}",
                  (long long)id, to->pid, SIM_FLOW + 1, us(s, to->blk->base + ts2));
}

void sim_trace_instant(tl_sim_t *s, const sim_agent_t *ag, int pipe, int64_t ts, const char *name,
                       const char *detail)
{
    if (!event(s)) return;
    tl_buf_puts(&s->trace, "{\"ph\": \"i\", \"s\": \"p\", \"name\": ");
    sim_json_str(&s->trace, name);
    tl_buf_printf(&s->trace,
                  ", \"pid\": %d, \"tid\": %d, \"ts\": %.3f, \"args\": {\"detail\": ", ag->pid,
                  pipe + 1, us(s, ag->blk->base + ts));
    sim_json_str(&s->trace, detail);
    tl_buf_puts(&s->trace, "}}");
}

void sim_trace_end(tl_sim_t *s)
{
    tl_buf_puts(&s->trace, "\n]}\n");
}

void tl_sim_trace_json(const tl_sim_t *s, tl_buf_t *out)
{
    if (s->trace.len) tl_buf_putn(out, s->trace.data, s->trace.len);
}
