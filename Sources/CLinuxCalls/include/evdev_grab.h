#ifndef PENKIT_EVDEV_GRAB_H
#define PENKIT_EVDEV_GRAB_H

/// EVIOCGRAB on an evdev descriptor (ioctl is variadic and EVIOCGRAB a function-like macro,
/// both out of Swift's reach): while grabbed, only this descriptor receives the device's
/// events; closing it (or the process dying) releases the grab. Returns 0 or -errno.
int penkit_evdev_grab(int fd, int grab);

/// Whether the kernel's key state (EVIOCGKEY) shows a tool in proximity (any BTN_TOOL_*) or
/// touching (BTN_TOUCH): 1 yes, 0 no, -errno when it cannot be read.
int penkit_evdev_tool_present(int fd);

#endif
