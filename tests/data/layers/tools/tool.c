// not allowed: mid/ is not in the row of tools/
#include "high/high.h"
  #  include "mid/mid.h"
