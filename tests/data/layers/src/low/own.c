// allowed: own folder, and a public API header
#include "low/own.h"
#include "tilec.h"
