// tilec: the command-line tool. Each subcommand is a thin layer over the library;
// it prints diagnostics and turns statuses into exit codes (0 ok, 1 check failed,
// 2 compile or usage error).
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_io.h"

// --help or -h among a command's arguments
static bool wants_help(int argc, char **argv)
{
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return true;
    return false;
}

int main(int argc, char **argv)
{
    if (argc < 2) return cli_help(NULL, stderr);
    const char *cmd = argv[1];
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        printf("tilec %s\n", TILEC_VERSION);
        return 0;
    }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h"))
        return argc > 3 ? cli_help(NULL, stderr) : cli_help(argc == 3 ? argv[2] : NULL, stdout);
    if (wants_help(argc, argv) && strcmp(cmd, "version")) return cli_help(cmd, stdout);
    if (!strcmp(cmd, "ir")) return cmd_ir(argc - 2, argv + 2);
    if (!strcmp(cmd, "emit")) return cmd_emit(argc - 2, argv + 2);
    if (!strcmp(cmd, "run")) return cmd_run(argc - 2, argv + 2);
    if (!strcmp(cmd, "sim")) return cmd_sim(argc - 2, argv + 2);
    if (!strcmp(cmd, "demo")) return cmd_demo(argc - 2, argv + 2);
    if (!strcmp(cmd, "list")) return cmd_list(argc - 2, argv + 2);
    if (!strcmp(cmd, "cache")) return cmd_cache(argc - 2, argv + 2);
    fprintf(stderr, "tilec: unknown command '%s'\n", cmd);
    return cli_help(NULL, stderr);
}
