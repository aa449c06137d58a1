// allowed: everything above
#include "low/own.h"
#include "mid/mid.h"
// not allowed: a private header
#include "low/low_int.h"
