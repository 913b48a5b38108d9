/* CSystem: the few Linux calls that Swift's Glibc module hides behind _GNU_SOURCE.
 *
 * Glibc's clang module is built without _GNU_SOURCE, so accept4 and struct ucred
 * (SO_PEERCRED) are invisible to Swift; defining _GNU_SOURCE in a header is too late.
 * CSystem.c defines it before any include and wraps each call (swift-on-linux.md §1.6).
 * SO_PEERGROUPS, the other half of a peer's credentials, is read here too.
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

/* Closes every descriptor from `first` up: close_range(2), or a loop up to the soft
 * RLIMIT_NOFILE where the kernel lacks it. homefeed-thumbnail calls it first thing, so the
 * helper holds nothing of the daemon's but its pipes. */
void csystem_close_from(int first);

/* Starts `path` (argv and envp NULL-terminated) with `in`, `out` and `err` as its standard
 * input, output and error and no other descriptor of the caller (posix_spawn with dup2 file
 * actions and closefrom). Returns 0 and sets *pid, or the error number. */
int csystem_spawn(const char *path, char *const argv[], char *const envp[], int in, int out, int err, pid_t *pid);

/* The peer's supplementary groups of a connected AF_UNIX socket, from
 * getsockopt(SO_PEERGROUPS) (Linux 4.13): the groups it had when it called connect, as the
 * kernel recorded them, so no group database is consulted. Fills up to `capacity` gids and
 * returns how many there are, or -1 with errno set; with ERANGE, `*needed` (if not NULL) is
 * the count that would fit them all. */
int csystem_peergroups(int fd, gid_t *groups, int capacity, int *needed);

/* The values of flags that need _GNU_SOURCE or that Swift imports awkwardly. */
int csystem_sock_nonblock(void);
int csystem_sock_cloexec(void);
int csystem_msg_nosignal(void);

#endif
