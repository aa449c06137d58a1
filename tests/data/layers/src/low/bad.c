// not allowed: libc only
#include "mid/mid.h"
