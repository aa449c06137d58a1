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
    // What the cores read through the L2 together, every GM byte (row 21).
    // Published peaks: "L2 Cache读写混合带宽约为7TB/s" (asc-devkit L2-Cache切分.md),
    // "Atlas A2 ... L2Cache 峰值带宽约 5TB/s" (asc-devkit matmul_basic_api_high_
    // performance/README.md @0da921b), which adds that ND -> NZ loads into L1
    // get less. Fitted on bench/calibration.rows S24 (pto-isa GEMM 6144^3, 24
    // cores, msprof TLOAD 95.2% of 1506 us = 1434 us of MTE2): tilec 1453 us
    // (with 7000: 1141 us, and the GEMMs cube-bound where the chip is
    // MTE2-bound). Tested by C20, S23, S31 (its aic_mte2_time 3552 us: tilec
    // 3382), S22.
    .l2_gbps = 3800,
    .l2_line_bytes = 512,         // row 22, E: pypto
    .l2_hit_latency = 50,         // row 23, E: pypto CacheConfig.toml
    .l2_miss_extra_latency = 150, // row 23, E
    .gm_read_latency = 600,       // row 24, E: pypto constants, "start with 600"
    .gm_write_latency = 300,      // row 24, E
    .mte2_bpc = 110,              // row 25, D/E: ini l2_read_rate, pypto fit ~106
    .mte3_bpc = 86,               // row 26, D/E: ini l2_write_rate, pypto fit ~84
    .hbm_share_bpc = 32,          // row 27, D: ini ddr_rate (we share chip bandwidth instead)
    // The bytes one transfer brings from HBM (L2 misses, whole lines) stream at
    // most at this rate: a core has a bounded number of requests in flight, so
    // it alone cannot draw the chip's HBM bandwidth. Fitted on bench/
    // calibration.rows S32 (catlass GEMV 1 x 768 x 5120 fp32 on 6 cores, 36.3
    // us: 2.6 MB of B per core from HBM; 6 cores leave the chip's 1.6 TB/s
    // idle): 46 B/cycle; the ini's ddr_rate above says 32. Tested by S21 (the
    // same work on 24 cores: the chip's bandwidth binds there).
    .hbm_core_bpc = 46,
    // Start-up of one GM transfer beyond bytes / rate, from bench/
    // calibration.rows C14 (mhc_post, msprof per pipe over 48 AIVs): MTE2
    // 8,348 us for 1,706 4 KB loads per AIV = 189 cycles each, 37 at 110
    // B/cycle -> 150; MTE3 9,980 us for 1,365 4 KB stores = 282 cycles, 48 at
    // 86 B/cycle -> 230. Modeled as latency, not occupancy: the pipe takes the
    // next transfer meanwhile. As occupancy, C18 (sparse MLA decode, about
    // 2,300 gathered 128 B - 1 KB rows per AIV, 127 us measured) was predicted
    // at 314 us (ratio 2.47); as latency at 170 us, while C14, whose loads
    // and stores wait for each other through flags, still sees it (972 us as
    // occupancy, 894 as latency). S22-S24 (pto-isa GEMM) test it.
    .mte2_startup = 150,
    .mte3_startup = 230,
    // The L1 tile clear (InitConstValue / Fill with an L1 destination;
    // copy_gm_to_l1's need_clear). Its pipe is MTE2: asc-devkit Fill.md
    // (基础API/矩阵计算（ISASI）/矩阵计算的搬入/辅助配置接口, 约束说明: "当目的操作数位于L1
    // Buffer时，指令执行占用的流水为PIPE_MTE2"), pto-isa 7938069 (its cost
    // model moves create_cbuf_matrix from MTE1 to MTE2, "the L1-write
    // engine"), upstream's template follows it with PipeBarrier<PIPE_MTE2>.
    // It reads no GM, so no L2 / start-up latency. Its rate is published
    // nowhere (asc-devkit's Cube指令理论性能汇总 lists LoadData, BT and FB
    // only); pto-isa's cost model has a flat, unfitted 32 for L1_FILL
    // (arch_config.hpp, the table's GiB/s: 18.6 B/cycle; the same 32 it
    // gives L1 -> BT / FB, which asc-devkit puts at 32 B/cycle). A choice,
    // not a measurement: the rate at which the same engine writes L1 from
    // the L2 (mte2_bpc), a bound from below on the speed of a write that
    // reads nothing (docs/simulator.md, "The L1 tile clear").
    .l1_fill_bpc = 110,
    .l1_fill_latency = 0,
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
    // A vector instruction streams every byte it reads and writes through the
    // UB at one 256 B repeat per cycle (row 43's repeat per beat, shared by
    // the reads and the writes), plus a start-up per instruction, fitted on
    // bench/calibration.rows C14 (mhc_post): msprof's vector time 21,701 us
    // over 48 AIVs = 2,451 cycles per 2048-column chunk; its 29 instructions
    // move 569 KB (casts 12 KB, muls 16 KB, axpys 24 KB) = 2,224 cycles, so
    // (2,451 - 2,224) / 29 = 8. Before: 1 or 2 cycles per 256 B repeat of the
    // widest operand, 1.7x short on C14.
    .vec_ub_bpc = 256,
    .vec_startup = 8,
    // The gathers do not stream at the UB's rate: asc-devkit's table of the
    // vector instructions' parallelism on A2 / A3 (docs/zh/api/附录/Vector指令
    // 理论性能汇总.md @0da921b, 表12 and 表6) gives Gather 5 elements per cycle
    // (16- and 32-bit alike), Gatherb 21 uint32 / 42 uint16 (84 B) and
    // GatherMask 32 b32 / 64 b16 source elements (128 B) per cycle, where Add
    // does 64 float. Tested by bench/calibration.rows C10 (RoPE interleaved:
    // one 4096-element Gather per block, 819 cycles at this rate).
    .vec_gather_epc = 5,
    .vec_gatherb_bpc = 84,
    .vec_gather_mask_bpc = 128,
    // The same table's other classes against the UB rate above: Add / Mul /
    // Max and the casts (64 float or int32, 128 half elements per cycle) and
    // Rsqrt / Reciprocal are faster than a 256 B repeat per cycle of every
    // operand, so the UB rate binds (pto-isa's 910B3 calibration measures vadd
    // fp32 at 2.11 cycles per repeat, tilec 3). Exp, Ln, Sqrt and Div do 32
    // elements per cycle for half and float alike (表3): a half exp's 128
    // elements per repeat take 4 cycles where its bytes take 2 (pto-isa: vexp
    // fp32 2.00 per repeat). Sort32 and MrgSort do 2 elements per cycle (表11;
    // pto-isa: vbitsort 16 cycles per 32-element repeat, vmrgsort4 78 per
    // 4 x 64), where the byte model gave a repeat per cycle (16x faster). The
    // reductions upstream calls (ReduceSum / ReduceMax) are listed as
    // software-emulated, without a figure: priced by their bytes.
    .vec_transcendental_epc = 32,
    .vec_sort_epc = 2,
    // The per-repeat reductions (表8): ReduceRepeat (WholeReduce*) 64/7 float
    // and 128/7 half elements per cycle, ReduceDataBlock (BlockReduce*) 128/7
    // half: 7 cycles per 256 B source repeat (BlockReduce on float, 64 per
    // cycle, goes at the byte rate). No bench row runs them.
    .vec_reduce_repeat_cycles = 7,
    .vec_latency =
        {
            [TL_COST_VADD] = 6,     // row 45, C/E: pypto INHERENT_LATENCY_IN_OP (add, sub)
            [TL_COST_VMUL] = 7,     // row 45 (mul, axpy)
            [TL_COST_VDIV] = 13,    // row 45 (div, sqrt)
            [TL_COST_VEXP] = 12,    // row 45 (exp, ln; pow, cos taken alike)
            [TL_COST_VRSQRT] = 5,   // §4.2: rsqrt / reciprocal
            [TL_COST_VMAX] = 4,     // §4.2: max / min (relu, abs, clamps taken alike)
            [TL_COST_VREDUCE] = 21, // row 45: 20-23
            [TL_COST_VINT] = 5,     // §4.2: int ops 4-5
            [TL_COST_VSORT] = 6,    // E: like add (the repeats carry the sort's work)
            // pto-isa's cost model calibrated on 910B3 (include/pto/costmodel/a2a3/
            // cce_costmodel/cce_costmodel_vector_compute.hpp @dd3cb0f, vgather): a
            // vgather call's head is 24 cycles (TGATHER's 46.6 cycles per row)
            [TL_COST_VGATHER] = 24,
            [TL_COST_VGATHERB] = 6,    // E: like add
            [TL_COST_VGATHERMASK] = 6, // E: like add
            [TL_COST_VOTHER] = 6,      // E: like add
            [TL_COST_MOVE] = 6,        // E: a UB -> UB copy on the vector pipe, like add
            [TL_COST_CUBE] = 6,        // not a vector op (the cube's is mmad_startup); as other
        },
    .vec_bank_conflict_max = 8,      // row 46, D (not applied: layouts are logical)
    .datacopy_max_blocks = 4095,     // row 47, D: DataCopy API
    .datacopy_max_block_32b = 65535, // row 47, D
    .datacopy_max_gap_32b = 65535,   // row 47, D
    .queue_depth = 32,               // rows 48-49, D/E
    .scalar_cycles = 1,              // row 50, E
    // An Ascend C tile API call is scalar code before the instruction (address,
    // repeat, stride and mask set-up). Fitted on bench/calibration.rows C14
    // (mhc_post): msprof's scalar time 6,921 us over 48 AIVs = 780 cycles per
    // 2048-column chunk, for 38 tile instructions and 21 scalar statements:
    // (780 - 21) / 38 = 20.
    .issue_cycles = 20,
    .scalar_gm_cycles = 20, // E: a data-cache access; unpublished
    // A scalar store into UB as upstream-built kernels run it (the store and
    // what the build puts around it: TL_ASCEND_AUTO_SYNC issues a PIPE_ALL
    // barrier before every BufferStore, tilelang-ascend issue #482). Fitted on
    // bench/calibration.rows C3, C6, C7 (RoPE, one block per core, the same
    // work per block but for the sign row's 64 / 128 / 256 scalar stores:
    // 6.99, 9.43, 12.98 us): least-squares slope 30.7 ns = 57 cycles per
    // store. Only where the build puts the barrier there: upstream's codegen
    // writes a BufferStore as LocalTensor::SetValue, a plain scalar store
    // into UB (asc-devkit impl/basic_api/kernel_tensor_impl.h @0da921b), so
    // an expert kernel's stores (TL_ASCEND_AUTO_SYNC off) and the library's
    // own (CreateVecIndex's first block) cost scalar_cycles, an estimate no
    // row isolates; tested by the held-out H8 (536 stores on its busiest
    // vector core: 1.475 at 57 cycles, 0.942 at 1).
    .scalar_ub_store_cycles = 57,
    .icache_bytes = 32768,   // row 51, D
    .dcache_bytes = 32768,   // row 51, D
    .dcache_line = 64,       // row 51, D
    .event_ids = 8,          // row 52, D: SetFlag doc
    .flag_latency = 2,       // row 53, E
    .xcore_flag_ids = 16,    // row 54, D (§8)
    .xcore_counter_max = 15, // row 55, D
    // Cross-core flag, set to release (row 58: unpublished; the CrossCoreSetFlag
    // / WaitFlag pages, catlass and pto-isa give no latency). Fitted with
    // mix_start_us below on bench/calibration.rows C18 and C19 (sparse MLA
    // decode, cube and vector handing off through flags each step; each row's
    // time is linear in this latency: C18 96.64 + 35.1 ns per cycle, C19 93.25
    // + 17.8 ns, runs at 0 and 870): the two values that put both rows on their
    // measurements, 800 cycles and 2.24 us. Tested by the held-out H4 and the
    // C16 bracket. (Alone, without a mixed start: 870, the smallest largest
    // ratio error over the two.)
    .xcore_latency = 800,
    .xcore_wait_blocks_all_pipes = true, // row 57, D
    // Kernel start inside msprof's Task Duration (task dispatch, instruction
    // fetch, argument and variable set-up of the first block on each core).
    // Fitted last (after the issue, transfer, vector, store and block costs)
    // on bench/calibration.rows C1, C3, C4, C8, C9 (RoPE, one wave of 1-8
    // blocks of the same work, its inputs in the L2 as in the measurement:
    // 6,716 modeled cycles = 3.63 us; measured 7.98, 6.99, 7.34, 7.61, 9.90 us).
    // The same work measured 42% apart is the board's noise, so the fit takes
    // the prediction whose largest ratio error over the five is smallest (the
    // geometric middle of 6.99 and 9.90: 8.32 us, a start of 4.69); the median
    // residual (3.98) would put C3 at 1.09 and C9 at 0.77. Not the 20-21 us
    // "full-core launch overhead" of catlass's bottleneck_analysis doc (an
    // empty kernel's TaskDuration, row 62): whole kernels are measured at
    // 5-8 us (C1, C3, S26).
    .kernel_start_us = 4.7,
    // A mixed kernel (AIC and AIV both run code, KERNEL_TYPE_MIX_AIC_1_2)
    // starts later than one of a single kind: catlass's matmul docs give
    // "Whenever a MIX kernel is launched, it incurs a deterministic latency of
    // roughly 1-5 us" (examples/102_dynamic_optimized_matmul/docs/en/
    // CommonMatmul_en.md @0dfcf9d, 2.3.3 "The launch overhead of the AIV"; its
    // kernel selection prices it 1 + 7 x AIC blocks / cores us,
    // include/select_kernel_b16.h, 8 us on all cores, which would put the
    // held-out H4 at 1.45); asc-devkit's head-overhead page says a mixed launch
    // starts both kinds of core and each pays its start and initialisation.
    // The value, inside the published 1-5 us, fitted with xcore_latency on
    // bench/calibration.rows C18 and C19 (above): 2.24 us. Tested by the
    // held-out H4 and H8, the C16 bracket and the int8 GEMM bounds (S4, S6,
    // S8, S33-S39: catlass's quant matmuls are mixed kernels).
    .mix_start_us = 2.24,
    // One launch from Python (do_bench) around the device time: tilelang-ascend
    // examples/mhc_pre/benchmark.md @1c94fb0, "Host overhead (3 launches) |
    // 0.16 ms". Reported apart, not modeled further.
    .host_launch_us = 53,
    // Start of a block on a core (scalar init, argument loads). An estimate,
    // kept: bench/calibration.rows C4 -> C5 (RoPE, 8 -> 32 blocks: one more
    // block on 8 of the 24 cores costs 2.75 us measured = 5,088 cycles)
    // leaves nothing for it once the block's modeled work (6,871 cycles with
    // its 64 sign-row stores) is counted, and the RoPE rows carry +-1-2 us of
    // noise (C3 / C8, C4 / C9: the same work measured 0.6 and 2.6 us apart).
    // Without the stores priced, the same two rows gave 1,800.
    .block_overhead = 100,
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

static tl_arch_t arch_b3;

// The 910B3 ini (research/ascend_model.md §1.2) is 910B2's with 20 cube and
// 40 vector cores: published rows measured on it (catlass 52's
// 12_quant_matmul column, bench/calibration.rows S33-S39; the lightning
// indexer H8) run on this table.
__attribute__((constructor)) static void init_b3(void)
{
    arch_b3 = arch_a2;
    arch_b3.name = "b3";
    arch_b3.soc = "Ascend910B3";
    arch_b3.num_aic = 20; // row 3, D: ini
    arch_b3.num_aiv = 40; // row 5, D: ini
}

const tl_arch_t *tl_arch_get(const char *name)
{
    if (!name || !strcmp(name, "a2") || !strcmp(name, "910b2")) return &arch_a2;
    if (!strcmp(name, "a3") || !strcmp(name, "910_9392")) return &arch_a3;
    if (!strcmp(name, "b3") || !strcmp(name, "910b3")) return &arch_b3;
    return NULL;
}

const char *tl_arch_names(void)
{
    return "a2, a3, b3";
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
