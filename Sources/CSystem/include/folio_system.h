#ifndef FOLIO_SYSTEM_H
#define FOLIO_SYSTEM_H

/* Swaps two paths (files or folders) in one step: each takes the other's name, with no moment
   at which either name is missing. Linux renameat2(RENAME_EXCHANGE); macOS renamex_np(RENAME_SWAP).
   Returns 0, or -1 with errno set (EINVAL where the file system cannot do it). */
int folio_exchange(const char *first, const char *second);

/* Gives memory the allocator holds freed back to the system (glibc malloc_trim); nothing
   elsewhere. */
void folio_return_freed_memory(void);

/* Has the allocator map every block of `bytes` or more on its own, and unmap it when it is
   freed, for the rest of the process (glibc mallopt M_MMAP_THRESHOLD; nothing elsewhere). Left
   to itself glibc raises that bound to the largest block freed, up to 32 MB, and a freed array
   that size stays in the process's heap, between blocks still held, where no trim reaches it. */
void folio_map_large_blocks(unsigned long bytes);

/* From now on the allocator fills every block it hands out with the complement of `byte`, and
   every block freed with `byte`; 0 stops it (glibc mallopt M_PERTURB). For tests: what a
   long-running process hands out holds what earlier work left, and nothing Folio makes may
   depend on it. Returns 0, or -1 where the allocator cannot. */
int folio_perturb_memory(int byte);

/* Asks the kernel to start reading a file's bytes into its cache, and returns without waiting
   for them (Linux posix_fadvise WILLNEED; macOS F_RDADVISE). Returns 0, or -1 with errno set;
   a file that cannot be opened is the reader's to report, not this. */
int folio_read_ahead(const char *path);

/* Opens a new file in `folder` that has no name (Linux O_TMPFILE; elsewhere made and unlinked at
   once): it is gone when it is closed, or when the process ends however it ends. Returns the
   descriptor, open for reading and writing, or -1 with errno set. */
int folio_unnamed_file(const char *folder);

#endif
