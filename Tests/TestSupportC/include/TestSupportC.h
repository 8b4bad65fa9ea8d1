#ifndef TEST_SUPPORT_C_H
#define TEST_SUPPORT_C_H

#include <sys/types.h>

/// Starts `path` with `argv` and `envp` in `directory` (this process's when NULL), with `input`, `output` and `error`
/// as its descriptors 0, 1 and 2 (this process's when negative), every other descriptor closed and every signal at
/// its default, unblocked. 0 and the child's pid in `pid`, or an errno value (see Spawn.c).
int ohk_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const char *directory,
              int input, int output, int error);

#endif
