#define _GNU_SOURCE
#include "thread_tuning.h"
#include <time.h>
#include <malloc.h>
#include <sys/prctl.h>
#include <pthread.h>
#include <string.h>

int penkit_set_timer_slack_ns(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0);
}

int penkit_set_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

int penkit_trim_heap(void) {
    return malloc_trim(0);
}

int penkit_poll_microseconds(struct pollfd *fds, nfds_t count, uint64_t timeout_microseconds) {
    struct timespec timeout = {
        .tv_sec = (time_t)(timeout_microseconds / 1000000),
        .tv_nsec = (long)(timeout_microseconds % 1000000) * 1000,
    };
    return ppoll(fds, count, &timeout, NULL);
}

int penkit_set_thread_name(const char *name) {
    char truncated[16];
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = '\0';
    return pthread_setname_np(pthread_self(), truncated);
}
