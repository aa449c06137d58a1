// allowed: low/, one header of high/
#include "high/shared.h"
#include "low/own.h"
// not allowed: another header of high/
#include "high/high.h"
