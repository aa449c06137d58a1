// a folder without a row
#include "low/own.h"
