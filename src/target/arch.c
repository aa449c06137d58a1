// The arch table: A2 (Ascend 910B2) and A3 (one Ascend 910_9392 die). Row
// numbers refer to the parameter table of research/ascend_model.md §6; tags:
// D documented or from a CANN config file, C read from public code, E estimate.
//
// Decisions where the sources disagree (§8), used for both chips:
// - cross-core flag ids are 0..15 (CrossCoreSetFlag API pages), not 0..10 (an
//   older architecture page); catlass's habit of user ids <= 7 is not enforced;
// - the Fixpipe-buffer alignment is 128 B (constraint and data-path pages);
// - L1 -> L0A / L0B move 256 / 128 B per cycle (load_data_perf micro-benchmark),
//   not the legacy ini's 512 / 256;
// - the vector unit does one 256 B repeat per beat for every dtype (the
//   11.06 TOPS figure is read as 48 AIV x 128 fp16 lanes x 1.8 GHz);
// - GM (HBM) bandwidth is 1.6 TB/s per die (L2 page; 1.8 TB/s elsewhere);
// - L0C -> GM runs on FIX (hardware docs), not MTE3 (one tilelang-ascend table);
// - same-L0C mmads need no PIPE_M barrier when (m/16)(n/16) >= 10 (Mmad.md).
#include "target/arch.h"

#include <string.h>

static const tl_arch_t arch_a2 = {
    .name = "a2",
    .soc = "Ascend910B2",
    .npu_arch = 2201,                  // row 1, D: ini NpuArch
    .num_aic = 24,                     // row 3, D: ini
    .aiv_per_aic = 2,                  // row 4, D: 2201 spec (MIX_AIC_1_2)
    .num_aiv = 48,                     // row 5, D: ini
    .clock_mhz = 1800,                 // row 6, D: ini cube_freq; asc-devkit perf READMEs
    .l1 = {.bytes = 524288,            // row 7, D: ini
           .usable = 524032,           // codegen ASCEND_A2A3_L1_SIZE (surface §2.2), C
           .align = 32},               // row 13, D
    .l0a = {.bytes = 65536,            // row 8, D: ini
            .usable = 65536,           // the whole L0A: no reserve known
            .align = 512},             // row 14, D
    .l0b = {.bytes = 65536,            // row 8, D: ini
            .usable = 65536,           // the whole L0B: no reserve known
            .align = 512},             // row 14, D
    .l0c = {.bytes = 131072,           // row 9, D: ini
            .usable = 131072,          // the whole L0C: no reserve known
            .align = 64},              // row 15, D
    .ub = {.bytes = 196608,            // row 10, D: ini
           .usable = 196352,           // codegen ASCEND_A2A3_UB_SIZE, the InitBuffer
                                       // claim (192 KiB - 256 B, §2.1), C; past it a
                                       // warning: upstream's elementwise_add.py uses
                                       // all 196608 B and runs
           .align = 32},               // row 13, D: 2201 spec
    .bt = {.bytes = 1024,              // row 11, D: ini bt_size
           .usable = 1024,             // not placed by tilec
           .align = 64},               // row 15, D
    .fb = {.bytes = 7168,              // row 12, D: ini fb0..fb3
           .usable = 7168,             // not placed by tilec
           .align = 128},              // row 15, D (64 vs 128: §8, use 128)
    .fractal_bytes = 512,              // row 16, D: 16 rows x 32 B
    .ub_banks = 48,                    // row 17, D: bank-conflict doc
    .ub_bank_groups = 16,              // row 17, D
    .ub_bank_row_bytes = 32,           // row 17, D
    .hbm_bytes = INT64_C(68719476736), // row 18, D: ini memory_size
    .l2_bytes = 201326592,             // row 20, D: ini l2_size
    .hbm_gbps = 1600,                  // row 19, D/E: L2 page ~1.6 TB/s
    .l2_gbps = 7000,                   // row 21, D/E: L2 page ~7 TB/s mixed
    .l2_line_bytes = 512,              // row 22, E: pypto
    .l2_hit_latency = 50,              // row 23, E: pypto CacheConfig.toml
    .l2_miss_extra_latency = 150,      // row 23, E
    .gm_read_latency = 600,            // row 24, E: pypto constants, "start with 600"
    .gm_write_latency = 300,           // row 24, E
    .mte2_bpc = 110,                   // row 25, D/E: ini l2_read_rate, pypto fit ~106
    .mte3_bpc = 86,                    // row 26, D/E: ini l2_write_rate, pypto fit ~84
    .hbm_share_bpc = 32,               // row 27, D: ini ddr_rate (we share chip bandwidth instead)
    .gm_block_bytes = 32,              // E: whole 32 B DataBlocks (the bursts below not modeled)
    .gm_burst_bytes = {128, 256, 512}, // row 28, D
    .gm_best_align = 512,              // row 28, D
    .gm_min_efficient_xfer = 16384,    // row 28, D
    .gm_misalign_32b_efficiency = 0.7, // row 29, D (not applied: see docs/simulator.md)
    .mte1_l0a_bpc = 256,               // row 30, D: load_data_perf (§8)
    .mte1_l0b_bpc = 128,               // row 31, D: load_data_perf (§8)
    .mte1_bt_bpc = 32,                 // row 33, D
    .mte1_load3d_bpc = {32, 256},      // row 32, D: im2col, by shape (not exposed by the language)
    .mte1_load3d_latency = 50,         // row 32, D
    .mte1_latency = 28,                // rows 30-31, D
    .mte1_bt_latency = 20,             // row 33, D
    .fix_fb_bpc = 32,                  // row 34, D
    .fix_elems_per_cycle = 64,         // row 35, D: fixpipe_perf
    .fix_fb_latency = 20,              // row 34, D
    .fix_latency = 20,                 // row 35, D
    .cube_mac_f16 = 4096,              // row 36, D: mmad_perf
    .cube_mac_i8 = 8192,               // row 37, D
    .cube_mac_f32 = 1024,              // row 38, D
    .cube_mac_i4 = 16384,              // row 39, E: ini DtypeMKN
    .mmad_startup = 4,                 // row 40, C/E: 0 (mmad_perf) .. 7 (pypto); middle
    .mmad_max_mnk = 4095,              // row 41, D: Mmad.md
    .mmad_interlock_fractals = 10,     // row 42, D: Mmad.md
    .vec_bytes_per_repeat = 256,       // row 43, D
    .vec_max_repeat = 255,             // row 43, D
    .vec_cycles_unary = 1,             // row 44, E: peak-TOPS derivation
    .vec_cycles_binary = 2,            // row 44, E: pypto
    .vec_latency =
        {
            [TL_COST_VADD] = 6,     // row 45, C/E: pypto INHERENT_LATENCY_IN_OP (add, sub)
            [TL_COST_VMUL] = 7,     // row 45 (mul, axpy)
            [TL_COST_VDIV] = 13,    // row 45 (div, sqrt)
            [TL_COST_VEXP] = 12,    // row 45 (exp, ln; sigmoid, silu, pow, sin, cos taken alike)
            [TL_COST_VRSQRT] = 5,   // §4.2: rsqrt / reciprocal
            [TL_COST_VMAX] = 4,     // §4.2: max / min (relu, abs, clamps taken alike)
            [TL_COST_VREDUCE] = 21, // row 45: 20-23
            [TL_COST_VINT] = 5,     // §4.2: int ops 4-5
            [TL_COST_VSORT] = 6,    // E: like add (the repeats carry the sort's work)
            [TL_COST_VOTHER] = 6,   // E: like add
            [TL_COST_MOVE] = 6,     // E: a UB -> UB copy on the vector pipe, like add
            [TL_COST_CUBE] = 6,     // not a vector op (the cube's is mmad_startup); as other
        },
    .vec_bank_conflict_max = 8,          // row 46, D (not applied: layouts are logical)
    .datacopy_max_blocks = 4095,         // row 47, D: DataCopy API
    .datacopy_max_block_32b = 65535,     // row 47, D
    .datacopy_max_gap_32b = 65535,       // row 47, D
    .queue_depth = 32,                   // rows 48-49, D/E
    .scalar_cycles = 1,                  // row 50, E
    .scalar_gm_cycles = 20,              // E: a data-cache access; unpublished
    .icache_bytes = 32768,               // row 51, D
    .dcache_bytes = 32768,               // row 51, D
    .dcache_line = 64,                   // row 51, D
    .event_ids = 8,                      // row 52, D: SetFlag doc
    .flag_latency = 2,                   // row 53, E
    .xcore_flag_ids = 16,                // row 54, D (§8)
    .xcore_counter_max = 15,             // row 55, D
    .xcore_latency = 200,                // row 58, E
    .xcore_wait_blocks_all_pipes = true, // row 57, D
    .launch_overhead_us = 20,            // row 62, D/E: empty-kernel TaskDuration on A2
    .block_overhead = 100,               // E: per-block start (scalar init, argument loads)
};

static tl_arch_t arch_a3;

// The 9392 ini equals the 910B2 one but for the SoC name and the clock (row 6
// note); filled at load time so that lookups never race.
__attribute__((constructor)) static void init_a3(void)
{
    arch_a3 = arch_a2;
    arch_a3.name = "a3";
    arch_a3.soc = "Ascend910_9392";
    arch_a3.clock_mhz = 1850; // row 6, D: ini cube_freq
}

const tl_arch_t *tl_arch_get(const char *name)
{
    if (!name || !strcmp(name, "a2") || !strcmp(name, "910b2")) return &arch_a2;
    if (!strcmp(name, "a3") || !strcmp(name, "910_9392")) return &arch_a3;
    return NULL;
}

const char *tl_arch_names(void)
{
    return "a2, a3";
}

const tl_arch_t *tl_arch_default(void)
{
    return &arch_a2;
}

const tl_scratchpad_t *tl_arch_scratchpad(const tl_arch_t *a, tl_scope_t s)
{
    switch (s) {
    case TL_SCOPE_L1: return &a->l1;
    case TL_SCOPE_L0A: return &a->l0a;
    case TL_SCOPE_L0B: return &a->l0b;
    case TL_SCOPE_L0C: return &a->l0c;
    case TL_SCOPE_UB: return &a->ub;
    default: return NULL;
    }
}

int64_t tl_arch_usable(const tl_arch_t *a, tl_scope_t s)
{
    const tl_scratchpad_t *p = tl_arch_scratchpad(a, s);
    return p ? p->usable : 0;
}

int64_t tl_arch_physical(const tl_arch_t *a, tl_scope_t s)
{
    const tl_scratchpad_t *p = tl_arch_scratchpad(a, s);
    return p ? p->bytes : 0;
}

int tl_arch_align(const tl_arch_t *a, tl_scope_t s)
{
    const tl_scratchpad_t *p = tl_arch_scratchpad(a, s);
    return p ? p->align : 1;
}

// row 42: (m/16)(n/16) fractals at or above the threshold interlock
bool tl_arch_mmad_interlocks(const tl_arch_t *a, int64_t m, int64_t n)
{
    return ((m + 15) / 16) * ((n + 15) / 16) >= a->mmad_interlock_fractals;
}

int tl_arch_cube_macs(const tl_arch_t *a, tl_dtype_t t)
{
    switch (tl_dtype_size(t)) {
    case 1: return a->cube_mac_i8;
    case 2: return a->cube_mac_f16;
    default: return a->cube_mac_f32;
    }
}

// row 63, derived
double tl_arch_peak_tflops_f16(const tl_arch_t *a)
{
    return a->num_aic * (double)a->cube_mac_f16 * 2 * a->clock_mhz * 1e6 / 1e12;
}

// row 64, derived: one 256 B repeat of fp16 (128 lanes) per cycle per AIV
double tl_arch_peak_vector_tops_f16(const tl_arch_t *a)
{
    return a->num_aiv * (double)(a->vec_bytes_per_repeat / 2) * a->clock_mhz * 1e6 / 1e12;
}

double tl_arch_hbm_bpc(const tl_arch_t *a)
{
    return a->hbm_gbps * 1e9 / (a->clock_mhz * 1e6);
}

double tl_arch_l2_bpc(const tl_arch_t *a)
{
    return a->l2_gbps * 1e9 / (a->clock_mhz * 1e6);
}
