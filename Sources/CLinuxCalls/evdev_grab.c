#include "evdev_grab.h"

#include <errno.h>
#include <linux/input.h>
#include <string.h>
#include <sys/ioctl.h>

int penkit_evdev_grab(int fd, int grab) {
    return ioctl(fd, EVIOCGRAB, grab ? 1 : 0) == 0 ? 0 : -errno;
}

static int bit_set(const unsigned char *bits, int code) {
    return (bits[code / 8] >> (code % 8)) & 1;
}

int penkit_evdev_tool_present(int fd) {
    unsigned char keys[KEY_MAX / 8 + 1];
    memset(keys, 0, sizeof keys);
    if (ioctl(fd, EVIOCGKEY(sizeof keys), keys) < 0) return -errno;
    static const int codes[] = {
        BTN_TOOL_PEN, BTN_TOOL_RUBBER, BTN_TOOL_BRUSH, BTN_TOOL_PENCIL, BTN_TOOL_AIRBRUSH,
        BTN_TOOL_MOUSE, BTN_TOOL_LENS, BTN_TOUCH,
    };
    for (unsigned i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        if (bit_set(keys, codes[i])) return 1;
    }
    return 0;
}
