// `make install PREFIX=...` installs the libraries, the header, tilec and
// tilec.pc; examples/embed.c then builds with `pkg-config --cflags --libs tilec`
// and runs a kernel through the installed shared library.
#include "../test.h"

#include <stdlib.h>
#include <unistd.h>

TEST(install_and_embed_with_pkg_config)
{
    if (tl_test_sanitized()) {
        tl_test_skip(t, "the sanitizer build's library needs sanitizer link flags; checked in the plain build");
        return;
    }
    char *out = NULL;
    char *probe[] = {"pkg-config", "--version", NULL};
    if (tl_test_run(probe, &out) != 0) {
        free(out);
        tl_test_skip(t, "pkg-config is not installed");
        return;
    }
    free(out);
    const char *tilec = tl_test_tilec();
    char build[1024], prefix[1024], prefix_arg[1100], build_arg[1100];
    snprintf(build, sizeof build, "%s", tilec);
    char *slash = strrchr(build, '/');
    if (slash) *slash = 0;
    else snprintf(build, sizeof build, ".");
    snprintf(prefix, sizeof prefix, "%s/prefix", tl_test_tmpdir());
    snprintf(prefix_arg, sizeof prefix_arg, "PREFIX=%s", prefix);
    snprintf(build_arg, sizeof build_arg, "BUILD=%s", build);
    char *install[] = {"make", "-s", "install", build_arg, prefix_arg, NULL};
    int rc = tl_test_run(install, &out);
    if (rc != 0) tl_test_fail(t, __FILE__, __LINE__, "make install failed:\n%s", out);
    free(out);
    REQUIRE(rc == 0);
    char pcdir[1100], exe[1100];
    snprintf(pcdir, sizeof pcdir, "%s/lib/pkgconfig", prefix);
    snprintf(exe, sizeof exe, "%s/embed", tl_test_tmpdir());
    setenv("PKG_CONFIG_PATH", pcdir, 1);
    // Build with the flags pkg-config prints, word by word (no shell).
    char *flags_argv[] = {"pkg-config", "--cflags", "--libs", "tilec", NULL};
    REQUIRE(tl_test_run(flags_argv, &out) == 0);
    char *argv[64];
    int n = 0;
    argv[n++] = "cc";
    argv[n++] = "examples/embed.c";
    argv[n++] = "-o";
    argv[n++] = exe;
    for (char *tok = strtok(out, " \n"); tok && n < 60; tok = strtok(NULL, " \n")) argv[n++] = tok;
    argv[n] = NULL;
    char *cc_out = NULL;
    rc = tl_test_run(argv, &cc_out);
    if (rc != 0) tl_test_fail(t, __FILE__, __LINE__, "building embed.c failed:\n%s", cc_out);
    free(cc_out);
    free(out);
    REQUIRE(rc == 0);
    char libdir[1100];
    snprintf(libdir, sizeof libdir, "%s/lib", prefix);
    setenv("LD_LIBRARY_PATH", libdir, 1);
    char *run[] = {exe, "kernels/examples/elementwise_add.py", NULL};
    rc = tl_test_run(run, &out);
    CHECK_EQ(rc, 0);
    CHECK_CONTAINS(out, "compiled elementwise_add: 3 parameters");
    CHECK_CONTAINS(out, "0 of 65536 elements wrong");
    free(out);
    // From another directory: embed's own kernel, and the installed tilec
    // finds the demo's kernels in PREFIX/share/tilec.
    char bin[1100], kernels[1200];
    snprintf(bin, sizeof bin, "%s/bin/tilec", prefix);
    snprintf(kernels, sizeof kernels, "%s/bin/../share/tilec/kernels/ds_v4/", prefix);
    REQUIRE(chdir(tl_test_tmpdir()) == 0); // this test's process alone
    char *run_here[] = {exe, NULL};
    CHECK_EQ(tl_test_run(run_here, &out), 0);
    CHECK_CONTAINS(out, "0 of 65536 elements wrong");
    free(out);
    char *demo[] = {bin, "demo", "--list", NULL};
    CHECK_EQ(tl_test_run(demo, &out), 0);
    CHECK_CONTAINS(out, kernels);
    free(out);
}
