/* See CSystem.h. _GNU_SOURCE must come before the first system include. */
#define _GNU_SOURCE
#include <spawn.h>
#include <errno.h>
#include <stddef.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <fcntl.h>
#include <locale.h>
#include <wchar.h>
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

int csystem_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int csystem_epoll_ctl(int epfd, int op, int fd, unsigned int events, unsigned long long token) {
    struct epoll_event event = {.events = events, .data.u64 = token};
    return epoll_ctl(epfd, op, fd, &event);
}

int csystem_epoll_wait(int epfd, struct csystem_event *out, int capacity, int timeout_ms) {
    struct epoll_event events[256];
    if (capacity > 256) capacity = 256;
    int count = epoll_wait(epfd, events, capacity, timeout_ms);
    for (int i = 0; i < count; i++) {
        out[i].events = events[i].events;
        out[i].token = events[i].data.u64;
    }
    return count;
}

int csystem_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

long csystem_sendv(int fd, const struct iovec *iov, int count) {
    struct msghdr message = {.msg_iov = (struct iovec *)iov, .msg_iovlen = (size_t)count};
    return sendmsg(fd, &message, MSG_NOSIGNAL);
}

void csystem_set_thread_name(const char *name) {
    char truncated[16];
    size_t i = 0;
    for (; i < sizeof(truncated) - 1 && name[i] != 0; i++) truncated[i] = name[i];
    truncated[i] = 0;
    pthread_setname_np(pthread_self(), truncated);
}

static locale_t utf8_locale;
static pthread_once_t utf8_locale_once = PTHREAD_ONCE_INIT;
static void load_utf8_locale(void) { utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0); }

int csystem_wcwidth(unsigned int scalar) {
    pthread_once(&utf8_locale_once, load_utf8_locale);
    if (utf8_locale == (locale_t)0) return scalar >= 0x20 && scalar < 0x7F ? 1 : -1;
    locale_t previous = uselocale(utf8_locale);
    int width = wcwidth((wchar_t)scalar);
    uselocale(previous);
    return width;
}

int csystem_malloc_trim(void) { return malloc_trim(0); }

int csystem_malloc_tune(int arenas, int mmap_threshold) {
    return mallopt(M_ARENA_MAX, arenas) == 1 && mallopt(M_MMAP_THRESHOLD, mmap_threshold) == 1;
}

int csystem_epoll_ctl_add(void) { return EPOLL_CTL_ADD; }
int csystem_epoll_ctl_mod(void) { return EPOLL_CTL_MOD; }
int csystem_epoll_ctl_del(void) { return EPOLL_CTL_DEL; }
unsigned int csystem_epollin(void) { return EPOLLIN; }
unsigned int csystem_epollout(void) { return EPOLLOUT; }
unsigned int csystem_epollhup(void) { return EPOLLHUP; }
unsigned int csystem_epollerr(void) { return EPOLLERR; }

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

/* dup2 `fd` to `target`, or close `target` when `fd` is negative. */
static int add_standard(posix_spawn_file_actions_t *actions, int fd, int target) {
    return fd < 0 ? posix_spawn_file_actions_addclose(actions, target)
                  : posix_spawn_file_actions_adddup2(actions, fd, target);
}

int csystem_spawn(const char *path, char *const argv[], char *const envp[], int in, int out, int err, int passed,
                  const char *directory, pid_t *pid) {
    posix_spawnattr_t attributes;
    int status = posix_spawnattr_init(&attributes);
    if (status != 0) return status;
    /* The child starts with no signal blocked and every signal at its default action, whatever
     * the calling thread blocks (Dispatch threads block most, the Varlink loop thread SIGPIPE)
     * or the daemon ignores (SIGPIPE; SIGTERM, SIGINT and SIGHUP, which it takes through Dispatch
     * signal sources): ignored signals survive exec. glibc leaves out what cannot be reset. */
    sigset_t none, defaulted;
    sigemptyset(&none);
    sigfillset(&defaulted);
    if ((status = posix_spawnattr_setsigmask(&attributes, &none)) != 0
        || (status = posix_spawnattr_setsigdefault(&attributes, &defaulted)) != 0
        || (status = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)) != 0) {
        posix_spawnattr_destroy(&attributes);
        return status;
    }
    posix_spawn_file_actions_t actions;
    status = posix_spawn_file_actions_init(&actions);
    if (status != 0) {
        posix_spawnattr_destroy(&attributes);
        return status;
    }
    /* dup2 clears FD_CLOEXEC on the copies; the originals (O_CLOEXEC) close at exec. */
    if ((status = add_standard(&actions, in, 0)) == 0 && (status = add_standard(&actions, out, 1)) == 0
        && (status = add_standard(&actions, err, 2)) == 0
        && (passed < 0 || (status = posix_spawn_file_actions_adddup2(&actions, passed, 3)) == 0)) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
        status = posix_spawn_file_actions_addclosefrom_np(&actions, passed < 0 ? 3 : 4);
#endif
        if (status == 0 && directory != NULL) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))
            status = posix_spawn_file_actions_addchdir_np(&actions, directory);
#else
            status = ENOSYS;
#endif
        }
        if (status == 0) status = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    }
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return status;
}

int csystem_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int csystem_pipe_nonblock(int fds[2]) { return pipe2(fds, O_CLOEXEC | O_NONBLOCK); }

int csystem_pipe_capacity(int fd, int size) {
    return size > 0 ? fcntl(fd, F_SETPIPE_SZ, size) : fcntl(fd, F_GETPIPE_SZ);
}

long csystem_tee(int in, int out, unsigned long len) { return tee(in, out, len, SPLICE_F_NONBLOCK); }

long csystem_splice(int in, int out, unsigned long len) {
    return splice(in, NULL, out, NULL, len, SPLICE_F_NONBLOCK);
}

/* tee and splice without glibc's cancellation wrappers (the loop thread is never cancelled),
 * retrying EINTR. */
static long tee_retrying(int in, int out, unsigned long len) {
    long n;
    do n = syscall(SYS_tee, in, out, len, SPLICE_F_NONBLOCK);
    while (n < 0 && errno == EINTR);
    return n;
}

static long splice_retrying(int in, int out, unsigned long len) {
    long n;
    do n = syscall(SYS_splice, in, NULL, out, NULL, len, SPLICE_F_NONBLOCK);
    while (n < 0 && errno == EINTR);
    return n;
}

void csystem_splice_fanout(int source, int scratch_read, int scratch_write, unsigned long count, long copies,
                           const int *fds, long n, struct csystem_fanout *result) {
    *result = (struct csystem_fanout){.written = 0, .moved = -1, .error = 0, .tee_failed = 0, .leftover = 0};
    if (copies < 1) copies = 1;
    long i = 0;
    while (i < n) {
        long group = n - i < copies ? n - i : copies;
        unsigned long wanted = (unsigned long)group * count;
        long teed = tee_retrying(source, scratch_write, wanted);
        if (teed < 0 || (unsigned long)teed != wanted) {
            result->written = i;
            result->tee_failed = 1;
            result->error = teed < 0 ? errno : 0;
            result->leftover = teed > 0 ? (unsigned long)teed : 0;
            return;
        }
        for (long j = 0; j < group; j++, i++) {
            long moved = splice_retrying(scratch_read, fds[i], count);
            if (moved < 0 || (unsigned long)moved != count) {
                result->written = i;
                result->moved = moved;
                result->error = moved < 0 ? errno : 0;
                result->leftover = (unsigned long)(group - j) * count - (moved > 0 ? (unsigned long)moved : 0);
                return;
            }
        }
    }
    result->written = n;
}

int csystem_block_sigpipe(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    return pthread_sigmask(SIG_BLOCK, &set, NULL);
}
