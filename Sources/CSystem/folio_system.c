#define _GNU_SOURCE
#include "folio_system.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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

void folio_map_large_blocks(unsigned long bytes) {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, bytes > INT_MAX ? INT_MAX : (int)bytes);
#else
    (void)bytes;
#endif
}

int folio_perturb_memory(int byte) {
#if defined(__GLIBC__)
    return mallopt(M_PERTURB, byte & 0xff) == 1 ? 0 : -1;
#else
    (void)byte;
    return -1;
#endif
}

int folio_read_ahead(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
#if defined(__APPLE__)
    struct radvisory advice = { .ra_offset = 0, .ra_count = INT_MAX };
    int result = fcntl(fd, F_RDADVISE, &advice) == -1 ? -1 : 0;
#else
    int error = posix_fadvise(fd, 0, 0, POSIX_FADV_WILLNEED);
    int result = error == 0 ? 0 : -1;
    if (error != 0) errno = error;
#endif
    int saved = errno;
    close(fd);
    errno = saved;
    return result;
}

int folio_unnamed_file(const char *folder) {
    int fd;
#if defined(O_TMPFILE)
    fd = open(folder, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0) return fd;
#endif
    /* A file system without unnamed files: a name made and taken away at once. */
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/.folio-spill-XXXXXX", folder) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    fd = mkstemp(path);
    if (fd < 0) return -1;
    unlink(path);
    return fd;
}
