// Works around swift-corelibs-foundation #5472 (fixed after Swift 6.3): on Linux, Process.run() copies 256 bytes of
// every /proc/self/fd entry glibc's readdir returns, reading past the end of readdir's buffer. The test process then
// crashes with SIGSEGV when that buffer ends where the next page is not mapped -- as it does at the top of the fresh
// malloc arena of a thread made to spawn or wait for a child process (a thread arena's heap is PROT_NONE past its top).
// With a single arena every allocation comes from the main heap, which glibc keeps M_TOP_PAD (128 KiB) mapped beyond
// its top, so the over-read stays in mapped memory. Set by a constructor, before main and before any thread: an arena
// limit set later leaves the threads that already have arenas on them.
#include <malloc.h>
#include "TestSupportC.h"

static int single_arena = 0;

__attribute__((constructor)) static void ohk_limit_malloc_arenas(void) {
    single_arena = mallopt(M_ARENA_MAX, 1);
}

int ohk_single_malloc_arena(void) { return single_arena; }
