// Starts a child process for the tests with posix_spawn, closing every descriptor above 2 in the child with
// posix_spawn_file_actions_addclosefrom_np (glibc 2.34) instead of listing /proc/self/fd.
//
// Foundation's Process.run() on Linux (Swift 6.3) lists /proc/self/fd to find the descriptors to close and copies
// 256 bytes of every entry readdir returns (swift-corelibs-foundation #5472, fixed after 6.3). An entry is 24 bytes;
// once the process holds more than about 1,350 descriptors, entries reach the end of readdir's 32 KiB buffer, and the
// copy faults when that buffer ends at the top of the heap. The test process holds more than 5,000 at the start of a
// full run (every suite opens its stores and daemons at once), and CI crashed there (SIGSEGV reading the page after
// the heap's top, fds 1355 and 1356).
#define _GNU_SOURCE
#include <signal.h>
#include <spawn.h>
#include "TestSupportC.h"

int ohk_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const char *directory,
              int input, int output, int error) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int result = posix_spawn_file_actions_init(&actions);
    if (result != 0) return result;
    result = posix_spawnattr_init(&attributes);
    if (result != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return result;
    }
    const int sources[3] = {input, output, error};
    for (int target = 0; target < 3 && result == 0; target++) {
        if (sources[target] >= 0) result = posix_spawn_file_actions_adddup2(&actions, sources[target], target);
    }
    if (result == 0 && directory != NULL) result = posix_spawn_file_actions_addchdir_np(&actions, directory);
    if (result == 0) result = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    // The child starts as a fresh program would: every signal at its default (an ignored one, say SIGPIPE or SIGTERM
    // set aside by a daemon running in the test process, would otherwise stay ignored across exec) and none blocked.
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    if (result == 0) result = posix_spawnattr_setsigdefault(&attributes, &all);
    if (result == 0) result = posix_spawnattr_setsigmask(&attributes, &none);
    if (result == 0) result = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    if (result == 0) result = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return result;
}
