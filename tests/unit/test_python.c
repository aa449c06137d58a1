// The Python binding (python/tilec.py) with Debian's NumPy: runs
// tests/python/test_binding.py against the library that was just built.
#include "../test.h"

#include <stdlib.h>

TEST(python_binding_with_numpy)
{
    if (tl_test_sanitized()) {
        tl_test_skip(t, "a sanitized libtilec cannot be loaded into python3 without the ASan runtime");
        return;
    }
    char *out = NULL;
    char *probe[] = {"/usr/bin/python3", "-c", "import numpy", NULL};
    if (tl_test_run(probe, &out) != 0) {
        free(out);
        tl_test_skip(t, "python3 with numpy is not installed (the project's setup installs python3-numpy)");
        return;
    }
    free(out);
    char lib[1024];
    snprintf(lib, sizeof lib, "%s", tl_test_tilec());
    char *slash = strrchr(lib, '/');
    if (slash) snprintf(slash, sizeof lib - (size_t)(slash - lib), "/libtilec.so");
    setenv("TILEC_LIB", lib, 1);
    char *argv[] = {"/usr/bin/python3", "tests/python/test_binding.py", NULL};
    int rc = tl_test_run(argv, &out);
    CHECK_EQ(rc, 0);
    CHECK_CONTAINS(out, "binding ok");
    free(out);
}
