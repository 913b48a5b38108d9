/* CSystem: the few Linux calls that Swift's Glibc module hides behind _GNU_SOURCE.
 *
 * Glibc's clang module is built without _GNU_SOURCE, so accept4 and struct ucred
 * (SO_PEERCRED) are invisible to Swift; defining _GNU_SOURCE in a header is too late.
 * CSystem.c defines it before any include and wraps each call (swift-on-linux.md §1.6).
 * SO_PEERGROUPS, the other half of a peer's credentials, is read here too.
 * The Varlink event loop's epoll, eventfd, gathered sendmsg, and tee and splice live here too
 * (swift-on-linux.md §1.6 names epoll among the hidden calls), and the daemon's malloc tuning
 * (malloc.h is not in the module either), and a cache prefetch, which Swift cannot express
 * (the feed parser's duplicate table warms a slot before it probes it), and wcwidth in the
 * C.UTF-8 locale (for homefeedctl's columns; wcwidth needs _XOPEN_SOURCE).
 * Wrappers only: no logic, no retries (the Swift side handles EINTR and errors), but for one
 * loop, csystem_splice_fanout, whose system calls must run back to back, and the locale
 * switched around wcwidth. */
#ifndef CSYSTEM_H
#define CSYSTEM_H

#include <sys/types.h>
#include <sys/uio.h>

/* Starts loading the cache line at p (for reading, kept in every cache level) without waiting
   for it; never faults, whatever p is. */
static inline void csystem_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }

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
 * input, output and error (a negative one leaves that descriptor closed in the child, as a
 * start by hand with `>&-` does), `passed` as its fd 3 unless it is negative (how a service manager
 * hands over a listening socket), and no other descriptor of the caller (posix_spawn with dup2
 * file actions and closefrom), in `directory` unless it is NULL (a relative `path` is then found
 * from there; glibc 2.29 and later, ENOSYS before), with no signal blocked and every signal at its
 * default action (whatever the calling thread blocks and the caller ignores). Returns 0 and sets
 * *pid, or the error number. */
int csystem_spawn(const char *path, char *const argv[], char *const envp[], int in, int out, int err, int passed,
                  const char *directory, pid_t *pid);

/* pipe2(fds, O_CLOEXEC): [read, write], neither inherited by a child started meanwhile.
 * Returns 0, or -1 with errno set. */
int csystem_pipe(int fds[2]);

/* The peer's supplementary groups of a connected AF_UNIX socket, from
 * getsockopt(SO_PEERGROUPS) (Linux 4.13): the groups it had when it called connect, as the
 * kernel recorded them, so no group database is consulted. Fills up to `capacity` gids and
 * returns how many there are, or -1 with errno set; with ERANGE, `*needed` (if not NULL) is
 * the count that would fit them all. */
int csystem_peergroups(int fd, gid_t *groups, int capacity, int *needed);

/* One epoll event as the Varlink event loop sees it. struct epoll_event is packed on x86-64,
 * which Swift imports awkwardly; this plain struct carries the same two fields. */
struct csystem_event {
    unsigned int events;
    unsigned long long token;
};

/* epoll_create1(EPOLL_CLOEXEC). Returns the fd, or -1 with errno set. */
int csystem_epoll_create(void);

/* epoll_ctl(epfd, op, fd, {events, token}); op is one of the CSYSTEM_EPOLL_CTL_* values below.
 * Returns 0, or -1 with errno set. */
int csystem_epoll_ctl(int epfd, int op, int fd, unsigned int events, unsigned long long token);

/* epoll_wait into `out` (at most `capacity`, and at most 256 per call). Returns the number of
 * events, or -1 with errno set (EINTR included: the caller retries). */
int csystem_epoll_wait(int epfd, struct csystem_event *out, int capacity, int timeout_ms);

/* eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC). Returns the fd, or -1 with errno set. */
int csystem_eventfd(void);

/* sendmsg(fd, {iov, count}, MSG_NOSIGNAL): writev with MSG_NOSIGNAL, so a closed peer is EPIPE
 * rather than SIGPIPE. Returns the bytes sent, or -1 with errno set. */
long csystem_sendv(int fd, const struct iovec *iov, int count);

/* The zero-copy fan-out of one reply to many sockets (Varlink's PipedReply and Splicer).
 * csystem_pipe_nonblock: pipe2(fds, O_CLOEXEC | O_NONBLOCK). csystem_pipe_capacity: the pipe's
 * capacity in bytes after setting it to `size` rounded up to a power of two pages, growing or
 * shrinking it (F_SETPIPE_SZ), or as it is when `size` is 0 (F_GETPIPE_SZ). csystem_tee:
 * tee(in, out, len, SPLICE_F_NONBLOCK), duplicating a pipe's contents into another pipe by
 * reference. csystem_splice: splice(in, NULL, out, NULL, len, SPLICE_F_NONBLOCK), moving a
 * pipe's pages into a socket by reference. Each returns -1 with errno set on failure. */
int csystem_pipe_nonblock(int fds[2]);
int csystem_pipe_capacity(int fd, int size);
long csystem_tee(int in, int out, unsigned long len);
long csystem_splice(int in, int out, unsigned long len);

/* How csystem_splice_fanout went. `written` sockets, from the first, took the whole message.
 * When that is fewer than asked, the next one is where it stopped: it took `moved` bytes (less
 * than the message, possibly 0), or failed with `error` (moved is -1); or `tee_failed` is set,
 * and nothing of its group was spliced (`error` is tee's errno, or 0 when tee took part).
 * `leftover` bytes stay in the scratch pipe: the caller must take them out before it is used
 * again. */
struct csystem_fanout {
    long written;
    long moved;
    int error;
    int tee_failed;
    unsigned long leftover;
};

/* Writes one message of `count` bytes to each of the `n` sockets `fds`, in order, stopping at
 * the first that does not take it whole. `source` is a pipe holding the message `copies` times
 * back to back (it is left as it is); the empty `scratch_read`/`scratch_write` pipe must hold
 * `copies` messages. Per group of up to `copies` sockets, one tee duplicates as many messages
 * into the scratch pipe, then one splice per socket moves one message in. Half the system calls
 * of a tee and a splice per socket: a system call costs ~0.5 µs on its own here (issue 17).
 * Both with SPLICE_F_NONBLOCK; EINTR is retried. */
void csystem_splice_fanout(int source, int scratch_read, int scratch_write, unsigned long count, long copies,
                           const int *fds, long n, struct csystem_fanout *result);

/* Blocks SIGPIPE in the calling thread: a splice into a socket whose peer has gone then fails
 * with EPIPE instead of raising the signal (splice has no MSG_NOSIGNAL). Returns 0 or an error
 * number. */
int csystem_block_sigpipe(void);

/* wcwidth(3) of the Unicode scalar `scalar` in glibc's C.UTF-8 locale, whatever locale the process
 * runs in (uselocale around the call, so nothing global changes): 2 for East Asian Wide and
 * Fullwidth characters (Hangul, CJK, fullwidth forms, emoji), 0 for combining marks, zero-width
 * and format characters, 1 for others, -1 for a control character. Where C.UTF-8 is missing
 * (glibc before 2.35 without the locale installed), -1 for every scalar above 0x7E. */
int csystem_wcwidth(unsigned int scalar);

/* Names the calling thread (at most 15 bytes are kept), for top, perf and gdb. */
void csystem_set_thread_name(const char *name);

/* epoll_ctl operations and event bits. */
int csystem_epoll_ctl_add(void);
int csystem_epoll_ctl_mod(void);
int csystem_epoll_ctl_del(void);
unsigned int csystem_epollin(void);
unsigned int csystem_epollout(void);
unsigned int csystem_epollhup(void);
unsigned int csystem_epollerr(void);

/* glibc's malloc tuning, which Swift's Glibc module does not show (malloc.h).
 * csystem_malloc_trim: malloc_trim(0), giving every arena's free pages back to the kernel;
 * returns 1 if memory was released. csystem_malloc_tune: mallopt(M_ARENA_MAX, arenas) and
 * mallopt(M_MMAP_THRESHOLD, bytes) (which also stops the threshold's dynamic growth);
 * returns 1 when both were accepted. */
int csystem_malloc_trim(void);
int csystem_malloc_tune(int arenas, int mmap_threshold);

/* The values of flags that need _GNU_SOURCE or that Swift imports awkwardly. */
int csystem_sock_nonblock(void);
int csystem_sock_cloexec(void);
int csystem_msg_nosignal(void);

#endif
