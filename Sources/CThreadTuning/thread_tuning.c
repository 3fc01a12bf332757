#include "thread_tuning.h"
#include <malloc.h>
#include <sys/prctl.h>

int penkit_set_timer_slack_ns(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0);
}

int penkit_set_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}
