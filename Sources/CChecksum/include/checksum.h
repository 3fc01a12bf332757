#ifndef PENKIT_CHECKSUM_H
#define PENKIT_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) of `length` bytes, continuing from
/// `crc` (0 to start): the journal's record checksum. Uses the CPU's crc32 instruction where
/// there is one (SSE 4.2), else a table; both give the same value.
uint32_t penkit_crc32c(uint32_t crc, const void *bytes, size_t length);

/// The table-driven version alone, so that tests can check both paths on this machine.
uint32_t penkit_crc32c_portable(uint32_t crc, const void *bytes, size_t length);

#endif
