#ifndef PENKIT_THREAD_TUNING_H
#define PENKIT_THREAD_TUNING_H

#include <poll.h>
#include <stdint.h>

/// Sets the calling thread's timer slack (prctl PR_SET_TIMERSLACK), which Swift
/// cannot call directly because prctl is variadic. Returns 0 or -1 with errno set.
int penkit_set_timer_slack_ns(unsigned long nanoseconds);

/// Fixes glibc's mmap threshold (mallopt M_MMAP_THRESHOLD) at `bytes`, which also stops glibc
/// raising it after large frees. Returns 1 on success, 0 on failure.
int penkit_set_mmap_threshold(int bytes);

/// Gives the free pages of every malloc arena back to the system (malloc_trim(0)): blocks
/// freed in the middle of a heap otherwise stay resident. Returns 1 if memory was released.
int penkit_trim_heap(void);

/// poll(2) with a timeout in microseconds (ppoll, a GNU extension Swift's Glibc module hides):
/// the input thread wakes for a warm-up half a millisecond before a pen report, finer than
/// poll's milliseconds. Returns what ppoll returns.
int penkit_poll_microseconds(struct pollfd *fds, nfds_t count, uint64_t timeout_microseconds);

/// Names the calling thread for `top -H` and gdb (pthread_setname_np, a GNU extension Swift's
/// Glibc module hides), cut to the 15 bytes Linux keeps. Returns 0 or an error number.
int penkit_set_thread_name(const char *name);

#endif
