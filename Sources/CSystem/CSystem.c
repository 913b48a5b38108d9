/* See CSystem.h. _GNU_SOURCE must come before the first system include. */
#define _GNU_SOURCE
#include <spawn.h>
#include <errno.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "CSystem.h"

/* Linux 4.13; older glibc headers lack the name (asm-generic/socket.h has 59). */
#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS 59
#endif

int csystem_accept4(int fd, int flags) { return accept4(fd, NULL, NULL, flags); }

int csystem_peercred(int fd, pid_t *pid, uid_t *uid, gid_t *gid) {
    struct ucred cred;
    socklen_t len = sizeof(cred);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return -1;
    *pid = cred.pid;
    *uid = cred.uid;
    *gid = cred.gid;
    return 0;
}

int csystem_peergroups(int fd, gid_t *groups, int capacity, int *needed) {
    socklen_t len = (socklen_t)(capacity > 0 ? capacity : 0) * sizeof(gid_t);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) != 0) {
        if (errno == ERANGE && needed != NULL) *needed = (int)(len / sizeof(gid_t));
        return -1;
    }
    return (int)(len / sizeof(gid_t));
}

int csystem_sock_nonblock(void) { return SOCK_NONBLOCK; }
int csystem_sock_cloexec(void) { return SOCK_CLOEXEC; }
int csystem_msg_nosignal(void) { return MSG_NOSIGNAL; }

void csystem_close_from(int first) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned int)first, ~0U, 0) == 0) return;
#endif
    struct rlimit limit;
    long last = 65536;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && (long)limit.rlim_cur < last)
        last = (long)limit.rlim_cur;
    for (long fd = first; fd < last; fd++) close((int)fd);
}

int csystem_spawn(const char *path, char *const argv[], char *const envp[], int in, int out, int err, pid_t *pid) {
    posix_spawn_file_actions_t actions;
    int status = posix_spawn_file_actions_init(&actions);
    if (status != 0) return status;
    /* dup2 clears FD_CLOEXEC on the copies; the originals (O_CLOEXEC) close at exec. */
    if ((status = posix_spawn_file_actions_adddup2(&actions, in, 0)) == 0
        && (status = posix_spawn_file_actions_adddup2(&actions, out, 1)) == 0
        && (status = posix_spawn_file_actions_adddup2(&actions, err, 2)) == 0) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
        status = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
        if (status == 0) status = posix_spawn(pid, path, &actions, NULL, argv, envp);
    }
    posix_spawn_file_actions_destroy(&actions);
    return status;
}
