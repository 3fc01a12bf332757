#ifndef PENKIT_FUZZ_ENTRY_H
#define PENKIT_FUZZ_ENTRY_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer with these arguments, feeding each input to `test`, and returns its status;
/// 2, with a message, in a build without -sanitize=fuzzer (the plain `swift build`).
int penkit_fuzz_run(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size));

#endif
