// Models of what driver code asks about the machine it runs on: the process
// environment (`os.environ`, `os.getenv`), the command line (`sys.argv`) and the NPU (`torch.npu` /
// `torch_npu.npu`: is_available, current_device, get_device_properties).
//
// The environment starts empty: tilec does not read the shell's variables, so
// a compile does not depend on where it runs (as argparse gives the declared
// defaults); `os.environ.get(name, default)` is the default. Writes
// (`os.environ["X"] = v`, setdefault) are kept for later reads.
//
// The NPU is the chip the compile targets (tl_front_opts_t.chip, filled by the
// tool and the API from the arch table: a2 unless `tilec sim --arch` says
// otherwise); its properties carry that chip's core counts as torch_npu reports
// them on the device (cube_core_num: AI cores, vector_core_num: AIV cores).
// Without a chip, torch.npu stays an opaque stand-in.
#include "front/front.h"

#include <string.h>
#include <strings.h>

static tl_value_t *env_dict(tl_eval_t *ev)
{
    tl_value_t *os = tl_value_module_get(ev->builtins, "__os__");
    return os ? tl_value_module_get(os, "environ") : NULL;
}

// os.getenv(name, default=None)
static tl_value_t *os_getenv(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"key", "default", NULL};
    if (!tl_call_check(ev, c, "os.getenv", 1, 2, kws)) return NULL;
    tl_value_t *k = tl_call_arg(c, 0, "key"), *d = tl_call_arg(c, 1, "default");
    tl_value_t *env = env_dict(ev), *v = env ? tl_value_dict_get(env, k) : NULL;
    return v ? v : d ? d : tl_value_none();
}

// The NPU the compile targets, as get_device_properties() describes it.
static tl_value_t *npu_properties(tl_eval_t *ev, tl_call_t *c)
{
    tl_arena_t *a = ev->arena;
    tl_value_t *p = tl_value_module(a, "_NPUDeviceProperties");
    tl_value_module_set(a, p, "name", tl_value_str(a, ev->chip_name));
    tl_value_module_set(a, p, "cube_core_num", tl_value_int(a, ev->cube_cores));
    tl_value_module_set(a, p, "vector_core_num", tl_value_int(a, ev->vector_cores));
    tl_diag_note(ev->diag, c->loc,
                 "torch.npu.get_device_properties() describes the chip tilec compiles for: %s with "
                 "%d cube and "
                 "%d vector cores (choose it with tilec sim --arch)",
                 ev->chip_name, ev->cube_cores, ev->vector_cores);
    return p;
}

static tl_value_t *npu_true(tl_eval_t *ev, tl_call_t *c)
{
    (void)ev, (void)c;
    return tl_value_bool(true);
}

static tl_value_t *npu_zero(tl_eval_t *ev, tl_call_t *c)
{
    (void)c;
    return tl_value_int(ev->arena, 0);
}

static tl_value_t *npu_one(tl_eval_t *ev, tl_call_t *c)
{
    (void)c;
    return tl_value_int(ev->arena, 1);
}

// tilelang.carver.arch.ascend.Ascend(): the chip profile upstream picks from
// the device's name (tilelang/carver/arch/ascend.py: "910B" in the upper-cased
// name -> Ascend910B, else "310P" -> Ascend310P, else "910" -> Ascend910A, the
// default too) with that profile's sizes; compute_max_core is the device's
// cube_core_num. Arguments (a target, chip_name) are accepted; chip_name wins.
static tl_value_t *carver_ascend(tl_eval_t *ev, tl_call_t *c)
{
    static const struct {
        const char *name;
        int cores;
        int64_t ub, l1, l0a, l0b, l0c, l2;
    } specs[] = {
        {"Ascend910A", 32, 256 << 10, 1 << 20, 64 << 10, 64 << 10, 256 << 10, 16 << 20},
        {"Ascend910B", 30, 192 << 10, 1 << 20, 64 << 10, 64 << 10, 512 << 10, 16 << 20},
        {"Ascend310P", 8, 256 << 10, 512 << 10, 64 << 10, 64 << 10, 256 << 10, 8 << 20},
    };
    tl_value_t *want = tl_call_arg(c, 1, "chip_name");
    const char *chip = want && want->kind == TL_V_STR ? want->str.s : NULL;
    int detected = 0;
    if (!chip && ev->chip_name) {
        char up[64];
        size_t n = 0;
        for (const char *p = ev->chip_name; *p && n + 1 < sizeof up; p++)
            up[n++] = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
        up[n] = 0;
        chip = strstr(up, "910B") ? "Ascend910B" : strstr(up, "310P") ? "Ascend310P" : "Ascend910A";
        detected = ev->cube_cores;
    }
    size_t s = 0;
    for (size_t i = 0; chip && i < TL_ARRAY_LEN(specs); i++)
        if (!strcmp(specs[i].name, chip)) s = i;
    tl_arena_t *a = ev->arena;
    tl_value_t *m = tl_value_module(a, "Ascend");
    m->module.permissive = true;
    tl_value_module_set(a, m, "platform", tl_value_str(a, "ascend"));
    tl_value_module_set(a, m, "chip_name", tl_value_str(a, chip ? chip : specs[s].name));
    int cores = detected > 0 ? detected : specs[s].cores;
    tl_value_module_set(a, m, "compute_max_core", tl_value_int(a, cores));
    tl_value_module_set(a, m, "ub_cap", tl_value_int(a, specs[s].ub));
    tl_value_module_set(a, m, "smem_cap", tl_value_int(a, specs[s].ub));
    tl_value_module_set(a, m, "max_smem_usage", tl_value_int(a, specs[s].ub));
    tl_value_module_set(a, m, "l1_cap", tl_value_int(a, specs[s].l1));
    tl_value_module_set(a, m, "l0a_cap", tl_value_int(a, specs[s].l0a));
    tl_value_module_set(a, m, "l0b_cap", tl_value_int(a, specs[s].l0b));
    tl_value_module_set(a, m, "l0c_cap", tl_value_int(a, specs[s].l0c));
    tl_value_module_set(a, m, "l2_cache_size_bytes", tl_value_int(a, specs[s].l2));
    return m;
}

// tilelang.utils.target.get_core_num(kind="cube"): the AIC ("cube", "aic") or AIV
// ("vector", "aiv") count a build bakes in as a constant. Upstream's version (a
// fork's tilelang/utils/target.py, read 2026-12-07) reads the device's properties
// only once torch.npu is initialised; at import time, where kernels take it, it looks
// the device name up in a table (910B, 910_93, 910C, 910_95) that gives 20 and 40 for
// every entry, and falls back to 20 and 40 with a warning. tilec gives the table's.
static tl_value_t *target_core_num(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"kind", NULL};
    if (!tl_call_check(ev, c, "get_core_num", 0, 1, kws)) return NULL;
    tl_value_t *k = tl_call_arg(c, 0, "kind");
    const char *kind = !k ? "cube" : k->kind == TL_V_STR ? k->str.s : NULL;
    bool cube = kind && (!strcasecmp(kind, "cube") || !strcasecmp(kind, "aic"));
    bool vec = kind && (!strcasecmp(kind, "vector") || !strcasecmp(kind, "aiv"));
    if (!cube && !vec)
        return tl_eval_fail(ev, tl_call_arg_loc(c, 0, "kind"),
                            "get_core_num: unknown core kind (\"cube\"/\"aic\" or \"vector\"/\"aiv\")");
    return tl_value_int(ev->arena, cube ? 20 : 40);
}

tl_value_t *tl_front_npu_module(tl_eval_t *ev, const char *name)
{
    if (!ev->chip_name) return NULL;
    tl_arena_t *a = ev->arena;
    tl_value_t *m = tl_value_module(a, name);
    m->module.permissive = true; // set_device, synchronize, ...: driver calls with nothing to model
    tl_front_def(ev, m, "is_available", npu_true);
    tl_front_def(ev, m, "current_device", npu_zero);
    tl_front_def(ev, m, "device_count", npu_one);
    tl_front_def(ev, m, "get_device_properties", npu_properties);
    return m;
}

void tl_front_install_env(tl_eval_t *ev, const tl_front_opts_t *opts)
{
    tl_arena_t *a = ev->arena;
    tl_value_t *os = tl_value_module(a, "os");
    os->module.permissive = true; // os.path and the rest: opaque driver values
    tl_value_module_set(a, os, "environ", tl_value_dict(a));
    tl_front_def(ev, os, "getenv", os_getenv);
    tl_value_module_set(a, ev->builtins, "__os__", os);
    // sys.argv: the script run with no arguments, as argparse gives the declared defaults
    // (`arg = sys.argv[1] if len(sys.argv) > 1 else "all"` takes "all").
    tl_value_t *sys = tl_value_module(a, "sys");
    sys->module.permissive = true;
    tl_value_t *argv0 = tl_value_opaque(a, "sys.argv[0]");
    tl_value_module_set(a, sys, "argv", tl_value_list(a, 1, &argv0));
    tl_value_module_set(a, ev->builtins, "__sys__", sys);
    tl_value_t *carver = tl_value_module(a, "tilelang.carver.arch.ascend");
    carver->module.permissive = true;
    tl_front_def(ev, carver, "Ascend", carver_ascend);
    tl_value_module_set(a, ev->tilelang, "carver.arch.ascend", carver);
    tl_value_t *target = tl_value_module(a, "tilelang.utils.target");
    target->module.permissive = true;
    tl_front_def(ev, target, "get_core_num", target_core_num);
    tl_value_module_set(a, ev->tilelang, "utils.target", target);
    const tl_front_chip_t *chip = opts ? opts->chip : NULL;
    if (chip) {
        ev->chip_name = chip->name;
        ev->cube_cores = chip->cube_cores;
        ev->vector_cores = chip->vector_cores;
    }
}
