#ifndef TEST_SUPPORT_C_H
#define TEST_SUPPORT_C_H

/// Whether the test process was set, before any thread started, to allocate from one malloc arena (see
/// SingleMallocArena.c); 1 when it was.
int ohk_single_malloc_arena(void);

#endif
