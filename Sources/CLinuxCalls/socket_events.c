#define _GNU_SOURCE
#include <stddef.h>
#include <sys/socket.h>

#include "socket_events.h"

int penkit_epoll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

int penkit_epoll_control(int epoll, int op, int fd, uint32_t events) {
    struct epoll_event event = { .events = events, .data = { .fd = fd } };
    return epoll_ctl(epoll, op, fd, &event);
}

int penkit_epoll_wait(int epoll, penkit_socket_event *events, int capacity, int timeout_ms) {
    struct epoll_event raw[64];
    if (capacity > 64) capacity = 64;
    int count = epoll_wait(epoll, raw, capacity, timeout_ms);
    for (int i = 0; i < count; i++) {
        events[i].fd = raw[i].data.fd;
        events[i].events = raw[i].events;
    }
    return count;
}

int penkit_eventfd(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

int penkit_accept(int listener) {
    return accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int penkit_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *pid = credentials.pid;
    *uid = credentials.uid;
    *gid = credentials.gid;
    return 0;
}
