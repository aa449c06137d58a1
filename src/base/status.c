#include "base/status.h"

const char *tl_status_str(tl_status_t s)
{
    switch (s) {
#define X(name, value, text)                                                                       \
    case name: return text;
        TL_STATUSES(X)
#undef X
    }
    return "unknown status";
}
