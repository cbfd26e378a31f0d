#ifndef CSYSTEM_SHIM_H
#define CSYSTEM_SHIM_H
#include <spawn.h>

/* glibc has posix_spawn_file_actions_addchdir_np since 2.29 but declares it only under _GNU_SOURCE, which this
   module must not define (it would change the system structs the other modules see): declared here as glibc does.
   The child of posix_spawn starts in `path`. */
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *__restrict actions,
                                                const char *__restrict path);
static inline int csystem_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

#endif
