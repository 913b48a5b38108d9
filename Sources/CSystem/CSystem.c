/* See CSystem.h. _GNU_SOURCE must come before the first system include. */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <sys/socket.h>
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
