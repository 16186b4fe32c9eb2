#define _GNU_SOURCE
#include "folio_system.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#if defined(__APPLE__)
int folio_exchange(const char *first, const char *second) {
    return renamex_np(first, second, RENAME_SWAP);
}
#else
int folio_exchange(const char *first, const char *second) {
    return renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE);
}
#endif

void folio_return_freed_memory(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
