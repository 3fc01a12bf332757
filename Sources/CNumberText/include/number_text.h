#ifndef PENKIT_NUMBER_TEXT_H
#define PENKIT_NUMBER_TEXT_H

#include <stddef.h>

/// Writes `value` as Swift's `Double.description` spells it (the shortest digits
/// that read back to the same double) into `buffer`, without allocating.
/// Returns the number of bytes written (at most 32 for any finite double).
size_t penkit_double_text(char *buffer, size_t capacity, double value);

#endif
