/* See CSystem.h. _GNU_SOURCE must come before the first system include. */
#define _GNU_SOURCE
#include <stddef.h>
#include <sys/socket.h>
#include "CSystem.h"

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

int csystem_sock_nonblock(void) { return SOCK_NONBLOCK; }
int csystem_sock_cloexec(void) { return SOCK_CLOEXEC; }
int csystem_msg_nosignal(void) { return MSG_NOSIGNAL; }
