#ifndef CLINESCAN_H
#define CLINESCAN_H

#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// A bit mask of the positions of `byte` among the 64 bytes at `p`: bit i is set when p[i] == byte.
/// The caller guarantees that 64 bytes are readable at `p` (bytes past the data may be garbage: mask them).
static inline uint64_t CLineScan_mask64(const uint8_t *p, uint8_t byte) {
#if defined(__SSE2__)
    const __m128i needle = _mm_set1_epi8((char)byte);
    uint64_t m0 = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 0)), needle));
    uint64_t m1 = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), needle));
    uint64_t m2 = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), needle));
    uint64_t m3 = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), needle));
    return m0 | (m1 << 16) | (m2 << 32) | (m3 << 48);
#else
    uint64_t mask = 0;
    for (int i = 0; i < 64; i++) {
        mask |= (uint64_t)(p[i] == byte) << i;
    }
    return mask;
#endif
}

#endif
