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

/// What one pass over 64 bytes finds, each as a bit mask (bit i: byte p[i]): commas, double quotes,
/// bytes >= 0x80 and NUL bytes. The caller guarantees 64 readable bytes at `p` and masks off the bits past
/// its data.
typedef struct {
    uint64_t commas;
    uint64_t quotes;
    uint64_t highs;
    uint64_t nuls;
} CLineScan_Classes;

static inline CLineScan_Classes CLineScan_classify64(const uint8_t *p) {
    CLineScan_Classes classes;
#if defined(__SSE2__)
    const __m128i comma = _mm_set1_epi8(',');
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i zero = _mm_setzero_si128();
    uint64_t c = 0, q = 0, h = 0, z = 0;
    for (int i = 0; i < 4; i++) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(p + 16 * i));
        c |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, comma)) << (16 * i);
        q |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)) << (16 * i);
        h |= (uint64_t)(uint16_t)_mm_movemask_epi8(v) << (16 * i);
        z |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero)) << (16 * i);
    }
    classes.commas = c;
    classes.quotes = q;
    classes.highs = h;
    classes.nuls = z;
#else
    classes.commas = CLineScan_mask64(p, ',');
    classes.quotes = CLineScan_mask64(p, '"');
    classes.nuls = CLineScan_mask64(p, 0);
    classes.highs = 0;
    for (int i = 0; i < 64; i++) {
        classes.highs |= (uint64_t)(p[i] >= 0x80) << i;
    }
#endif
    return classes;
}

#endif
