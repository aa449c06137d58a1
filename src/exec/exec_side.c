// The lanes that run each statement: ir/side.h classifies the statements
// (LOCKSTEP for a developer-mode kernel, which runs as one program on all the
// lanes of a block, EXPERT otherwise); a side maps to the AIC or the vector
// lanes, NONE to every active lane.
#include "exec/exec_int.h"

tl_status_t tl_exec_side_build(tl_exec_t *x)
{
    tl_status_t st = tl_side_map_build(x->k, x->dev ? TL_SIDE_MODE_LOCKSTEP : TL_SIDE_MODE_EXPERT,
                                       x->d, &x->sides);
    if (!st) x->all_resident = tl_side_all_resident(x->sides);
    return st;
}

tl_side_t tl_exec_side(const tl_exec_t *x, const tl_stmt_t *s)
{
    return tl_side_get(x->sides, s);
}

bool tl_exec_side_lockstep(const tl_exec_t *x, const tl_stmt_t *s)
{
    return tl_side_flags(x->sides, s) & TL_SIDE_ESCAPES;
}

bool tl_exec_side_once(const tl_exec_t *x, const tl_stmt_t *s)
{
    return tl_side_flags(x->sides, s) & TL_SIDE_ONCE;
}

uint8_t tl_exec_side_lanes(const tl_exec_t *x, tl_side_t side)
{
    if (side == TL_SIDE_CUBE) return x->lanes & TL_LANE_AIC;
    if (side == TL_SIDE_VEC) return x->lanes & TL_LANE_VECTOR;
    return x->lanes;
}
