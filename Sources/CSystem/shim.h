#ifndef CSYSTEM_SHIM_H
#define CSYSTEM_SHIM_H
#include <malloc.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <unistd.h>

/* glibc has posix_spawn_file_actions_addchdir_np since 2.29 but declares it only under _GNU_SOURCE, which this
   module must not define (it would change the system structs the other modules see): declared here as glibc does.
   The child of posix_spawn starts in `path`. */
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *__restrict actions,
                                                const char *__restrict path);
static inline int csystem_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

/* sched_getaffinity and cpu_set_t are GNU extensions too: the number of CPUs in this process's affinity mask, or -1.
   The raw system call returns the size of the kernel's mask in bytes. */
static inline int csystem_affinity_count(void) {
    unsigned long mask[64];
    long bytes = syscall(SYS_sched_getaffinity, 0, sizeof mask, mask);
    if (bytes <= 0) return -1;
    int count = 0;
    for (long i = 0; i < bytes / (long)sizeof(unsigned long); i++) count += __builtin_popcountl(mask[i]);
    return count;
}

/* Gives the memory the allocator holds free (in every arena) back to the system; 1 when some was released. */
static inline int csystem_release_free_memory(void) {
    return malloc_trim(0);
}

#endif
