#include "number_text.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

// The Swift runtime's own formatter, the one `Double.description` calls, exported
// by libswiftCore (which every Swift program links). `description` returns a
// String, which allocates once the text is longer than 15 bytes; this writes the
// same bytes into a caller's stack buffer. Tests compare the two over many values.
extern uint64_t swift_float64ToString(char *buffer, size_t bufferLength, double value, bool debug);

size_t penkit_double_text(char *buffer, size_t capacity, double value) {
    // The formatter leaves the "0" before the point of a value below 1 (0.25) to
    // the buffer's prior contents, as if it were pre-filled with zero digits.
    memset(buffer, '0', capacity);
    return (size_t)swift_float64ToString(buffer, capacity, value, false);
}
