/* CSystem: the few Linux calls that Swift's Glibc module hides behind _GNU_SOURCE.
 *
 * Glibc's clang module is built without _GNU_SOURCE, so accept4 and struct ucred
 * (SO_PEERCRED) are invisible to Swift; defining _GNU_SOURCE in a header is too late.
 * CSystem.c defines it before any include and wraps each call (swift-on-linux.md §1.6).
 * Wrappers only: no logic, no retries (the Swift side handles EINTR and errors). */
#ifndef CSYSTEM_H
#define CSYSTEM_H

#include <sys/types.h>

/* accept4(fd, NULL, NULL, flags). Returns the new fd, or -1 with errno set. */
int csystem_accept4(int fd, int flags);

/* The peer's credentials of a connected AF_UNIX socket, from getsockopt(SO_PEERCRED):
 * the pid, uid and gid the peer had when it called connect (or socketpair).
 * Returns 0, or -1 with errno set. */
int csystem_peercred(int fd, pid_t *pid, uid_t *uid, gid_t *gid);

/* The values of flags that need _GNU_SOURCE or that Swift imports awkwardly. */
int csystem_sock_nonblock(void);
int csystem_sock_cloexec(void);
int csystem_msg_nosignal(void);

#endif
