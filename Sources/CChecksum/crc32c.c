#include "checksum.h"

#include <string.h>

static uint32_t table[256];

static void fill_table(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t crc = i;
        for (int bit = 0; bit < 8; bit++) crc = (crc & 1) ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
        table[i] = crc;
    }
}

uint32_t penkit_crc32c_portable(uint32_t crc, const void *bytes, size_t length) {
    static int filled;
    if (!__atomic_load_n(&filled, __ATOMIC_ACQUIRE)) {
        fill_table();  // idempotent: a race fills the same values twice
        __atomic_store_n(&filled, 1, __ATOMIC_RELEASE);
    }
    const uint8_t *p = bytes;
    crc = ~crc;
    for (size_t i = 0; i < length; i++) crc = table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t crc32c_sse42(uint32_t crc, const void *bytes, size_t length) {
    const uint8_t *p = bytes;
    uint64_t c = ~crc;
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        c = __builtin_ia32_crc32di(c, word);
        p += 8;
        length -= 8;
    }
    uint32_t c32 = (uint32_t)c;
    while (length > 0) {
        c32 = __builtin_ia32_crc32qi(c32, *p++);
        length--;
    }
    return ~c32;
}
#endif

uint32_t penkit_crc32c(uint32_t crc, const void *bytes, size_t length) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("sse4.2")) return crc32c_sse42(crc, bytes, length);
#endif
    return penkit_crc32c_portable(crc, bytes, length);
}
