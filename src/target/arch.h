// The chip model: one table of hardware parameters per modeled Ascend
// architecture (research/ascend_model.md §6). It is the one source of every
// hardware number tilec uses: memory planning (capacities, alignment), the
// passes that place syncs and schedule code (pipes, latencies, interlocks),
// the simulator (timing, race and capacity checks), and the backends that run
// in host memory (the memory layout's default scratchpad sizes; the flag ids
// and counters the executor and the CPU target check). Every value has its
// source next to it in arch.c, and the choices where sources disagree (§8) are
// written there too; what an op costs is priced from these numbers in cost.c.
//
// To change a constant (calibration, a new chip): edit its line in arch.c and
// its source comment; nothing else repeats it.
#ifndef TL_TARGET_ARCH_H
#define TL_TARGET_ARCH_H

#include "base/dtype.h"
#include "ir/ir.h"

// One scratchpad of a core: its hardware size, what a kernel may use of it
// (upstream's runtime keeps a reserve), and the address alignment its
// operands need.
typedef struct {
    int64_t bytes, usable;
    int align;
} tl_scratchpad_t;

typedef struct {
    const char *name; // "a2", "a3"
    const char *soc;  // CANN SoC name of the modeled part
    int npu_arch;     // __NPU_ARCH__
    // cores and clock
    int num_aic, aiv_per_aic, num_aiv;
    double clock_mhz;
    // scratchpads of a core (BT: bias table, FB: fixpipe buffer)
    tl_scratchpad_t l1, l0a, l0b, l0c, ub, bt, fb;
    int fractal_bytes;
    int ub_banks, ub_bank_groups, ub_bank_row_bytes;
    // global memory and L2 (chip-wide)
    int64_t hbm_bytes, l2_bytes;
    double hbm_gbps, l2_gbps;
    int l2_line_bytes;
    int l2_hit_latency, l2_miss_extra_latency;
    int gm_read_latency, gm_write_latency;
    double mte2_bpc, mte3_bpc, hbm_share_bpc; // bytes per cycle per core
    double hbm_core_bpc; // what one transfer brings from HBM per cycle (its requests in flight)
    int mte2_startup, mte3_startup; // a GM transfer's start-up latency beyond the memory's
    double l1_fill_bpc;  // InitConstValue / Fill over an L1 tile (MTE2, no GM read): bytes per cycle
    int l1_fill_latency; // and its cycles beyond bytes / rate
    int gm_block_bytes;             // transfers move whole blocks of this size
    int gm_burst_bytes[3], gm_best_align, gm_min_efficient_xfer;
    double gm_misalign_32b_efficiency;
    // MTE1 (L1 -> L0A / L0B / BT) and FIX
    double mte1_l0a_bpc, mte1_l0b_bpc, mte1_bt_bpc, mte1_load3d_bpc[2];
    int mte1_latency, mte1_bt_latency, mte1_load3d_latency;
    double fix_fb_bpc, fix_elems_per_cycle;
    int fix_fb_latency, fix_latency;
    // cube: multiply-accumulates per cycle by input type
    int cube_mac_f16, cube_mac_i8, cube_mac_f32, cube_mac_i4;
    int mmad_startup, mmad_max_mnk;
    int mmad_interlock_fractals; // (m/16)(n/16) at or above: same-L0C mmads need no barrier
    // vector unit
    int vec_bytes_per_repeat, vec_max_repeat;
    double vec_ub_bpc; // UB bytes per cycle a vector instruction reads and writes
    int vec_startup;   // cycles of a vector instruction beyond its bytes
    // the gathers, at their published rates instead of the UB's bytes:
    // Gather's elements, Gatherb's gathered bytes and GatherMask's source
    // bytes per cycle
    int vec_gather_epc, vec_gatherb_bpc, vec_gather_mask_bpc;
    // published parallelism below the UB's rate: the transcendental class
    // (exp, ln, sqrt, div: elements per cycle at least this many cycles)
    // and the sorts (Sort32 and each merge round: elements per cycle)
    int vec_transcendental_epc, vec_sort_epc;
    int vec_reduce_repeat_cycles;   // a 256 B source repeat of a per-repeat reduction
    int vec_latency[TL_COST_COUNT]; // by cost class (ir/ops.h): after the last repeat
    int vec_bank_conflict_max;
    // issue, queues, synchronisation
    int datacopy_max_blocks, datacopy_max_block_32b, datacopy_max_gap_32b;
    int queue_depth;
    int scalar_cycles;          // a scalar instruction (let, element load/store)
    int issue_cycles;           // the scalar unit's work to issue one tile instruction to a pipe
    int scalar_gm_cycles;       // extra cycles of a scalar GM access (data cache)
    int scalar_ub_store_cycles; // a scalar store of an element into UB
    int icache_bytes, dcache_bytes, dcache_line;
    int event_ids;    // per pipe pair
    int flag_latency; // set_flag firing to wait_flag release
    int xcore_flag_ids, xcore_counter_max, xcore_latency;
    bool xcore_wait_blocks_all_pipes;
    // A kernel's device time (msprof's Task Duration) is kernel_start_us plus
    // the busiest core's cycles; host_launch_us is what one launch from Python
    // adds around it (reported apart, never in the device time).
    double kernel_start_us;
    // more for a mixed kernel (cube and vector cores both run code): the
    // launch starts both kinds of core
    double mix_start_us;
    double host_launch_us;
    int block_overhead; // cycles a core spends starting a block
} tl_arch_t;

// Flag ids of the chip with the most, for arrays sized at compile time: each
// arch's xcore_flag_ids and event_ids are at most these.
enum { TL_ARCH_XCORE_IDS_MAX = 16, TL_ARCH_EVENT_IDS_MAX = 8 };

// "a2" (Atlas A2, Ascend 910B2: the default) or "a3" (one Ascend 910_9392 die);
// NULL for other names.
const tl_arch_t *tl_arch_get(const char *name);
// "a2, a3, b3": for usage texts.
const char *tl_arch_names(void);
// The architecture the passes compile for (a2).
const tl_arch_t *tl_arch_default(void);

// The scratchpad of an on-chip scope (L1, L0A, L0B, L0C, UB); NULL for GM and
// the scopes scope_infer has not resolved.
const tl_scratchpad_t *tl_arch_scratchpad(const tl_arch_t *a, tl_scope_t s);
// Its usable bytes: what upstream's Ascend C build claims for its buffers
// (pipe.InitBuffer of one TBuf per scope), which tilec's own choices stay in
// and past which memory planning warns; 0 without a scratchpad.
int64_t tl_arch_usable(const tl_arch_t *a, tl_scope_t s);
// Its hardware bytes: the limit of memory planning, the executor and the
// simulator's overflow check (the runtime's reserve between the two is a
// warning: upstream's own kernels use it and run); 0 without a scratchpad.
// Its operand alignment: 1 without one.
int64_t tl_arch_physical(const tl_arch_t *a, tl_scope_t s);
int tl_arch_align(const tl_arch_t *a, tl_scope_t s);
// Whether back-to-back mmads into one L0C tile of m x n elements are
// interlocked by the hardware (no PIPE_M barrier needed between them).
bool tl_arch_mmad_interlocks(const tl_arch_t *a, int64_t m, int64_t n);

// Cube multiply-accumulates per cycle for an input dtype (1-byte types run at
// the int8 rate, 4-byte types at the fp32 rate).
int tl_arch_cube_macs(const tl_arch_t *a, tl_dtype_t t);
// Peak throughput of the whole chip for fp16: cube (TFLOPS), vector (TOPS).
double tl_arch_peak_tflops_f16(const tl_arch_t *a);
double tl_arch_peak_vector_tops_f16(const tl_arch_t *a);
// Chip-wide bandwidths in bytes per cycle.
double tl_arch_hbm_bpc(const tl_arch_t *a);
double tl_arch_l2_bpc(const tl_arch_t *a);

#endif
