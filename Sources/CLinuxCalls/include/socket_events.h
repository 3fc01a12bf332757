#ifndef PENKIT_SOCKET_EVENTS_H
#define PENKIT_SOCKET_EVENTS_H

#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

/// epoll for penkitd's socket loop. Glibc's Swift module leaves out <sys/epoll.h>,
/// and `struct epoll_event` is packed on x86-64, so Swift sees it through these
/// plain functions and an unpacked event.
typedef struct {
    int fd;
    uint32_t events;
} penkit_socket_event;

static const uint32_t penkit_epoll_in = EPOLLIN;
static const uint32_t penkit_epoll_out = EPOLLOUT;
static const uint32_t penkit_epoll_hangup = EPOLLHUP | EPOLLERR;

int penkit_epoll_create(void);
/// op: EPOLL_CTL_ADD, EPOLL_CTL_MOD or EPOLL_CTL_DEL. Returns 0 or -1 with errno set.
int penkit_epoll_control(int epoll, int op, int fd, uint32_t events);
/// Waits up to `timeout_ms` (-1: forever); returns how many events it wrote, or -1 with errno set.
int penkit_epoll_wait(int epoll, penkit_socket_event *events, int capacity, int timeout_ms);
int penkit_eventfd(void);

/// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC (a GNU extension Swift's Glibc module hides).
int penkit_accept(int listener);
/// The connected peer's pid, uid and gid (SO_PEERCRED). Returns 0 or -1 with errno set.
int penkit_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid);

#endif
