#define _GNU_SOURCE
#include "CFileAccess.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

struct datatabled_open_how {
    uint64_t flags;
    uint64_t mode;
    uint64_t resolve;
};

#define DATATABLED_RESOLVE_NO_MAGICLINKS 0x02
#define DATATABLED_RESOLVE_NO_SYMLINKS 0x04
#define DATATABLED_RESOLVE_BENEATH 0x08

/// One component at a time, each opened with O_NOFOLLOW relative to the one before.
static int open_walking(int directory, const char *path, int flags) {
    char *copy = strdup(path);
    if (copy == NULL) {
        errno = ENOMEM;
        return -1;
    }
    int current = dup(directory);
    if (current < 0) {
        free(copy);
        return -1;
    }
    char *rest = copy;
    char *component;
    int result = -1;
    while ((component = strsep(&rest, "/")) != NULL) {
        if (component[0] == '\0' || strcmp(component, ".") == 0) continue;
        if (strcmp(component, "..") == 0) {
            errno = EXDEV;
            break;
        }
        int last = rest == NULL || rest[strspn(rest, "/")] == '\0';
        int next = openat(current, component, last ? (flags | O_NOFOLLOW) : (O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (next < 0) break;
        close(current);
        current = next;
        if (last) {
            result = current;
            current = -1;
            break;
        }
    }
    if (current >= 0) close(current);
    free(copy);
    return result;
}

int datatabled_open_beneath(int directory, const char *path, int flags) {
    if (path[0] == '/') {
        errno = EXDEV;
        return -1;
    }
    struct datatabled_open_how how = {
        .flags = (uint64_t)(unsigned int)flags,
        .mode = 0,
        .resolve = DATATABLED_RESOLVE_BENEATH | DATATABLED_RESOLVE_NO_SYMLINKS | DATATABLED_RESOLVE_NO_MAGICLINKS,
    };
    long descriptor = syscall(SYS_openat2, directory, path, &how, sizeof how);
    if (descriptor >= 0) return (int)descriptor;
    if (errno != ENOSYS && errno != EPERM) return -1;
    return open_walking(directory, path, flags);
}

int datatabled_allocate_ahead(int descriptor, long long offset, long long length) {
    int result;
    do {
        result = fallocate(descriptor, FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)length);
    } while (result != 0 && errno == EINTR);
    return result;
}
