#ifndef CLINESCAN_H
#define CLINESCAN_H

#include <stdint.h>

// One vector path per instruction set (SSE2 on x86-64, NEON on arm64) and a scalar path for the rest. The
// scalar functions are always compiled: they are the reference that `.ci/scan-check` compares each vector
// path with, byte pattern by byte pattern.
#if defined(__SSE2__)
#include <emmintrin.h>
#define CLINESCAN_SSE2 1
#elif defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#define CLINESCAN_NEON 1
#endif

/// What one pass over 64 bytes finds, each as a bit mask (bit i: byte p[i]): commas, double quotes,
/// bytes >= 0x80 and NUL bytes. The caller guarantees 64 readable bytes at `p` and masks off the bits past
/// its data.
typedef struct {
    uint64_t commas;
    uint64_t quotes;
    uint64_t highs;
    uint64_t nuls;
} CLineScan_Classes;

/// The scalar `CLineScan_mask64`: the reference for the vector paths, and the path where there is none.
static inline uint64_t CLineScan_mask64_scalar(const uint8_t *p, uint8_t byte) {
    uint64_t mask = 0;
    for (int i = 0; i < 64; i++) {
        mask |= (uint64_t)(p[i] == byte) << i;
    }
    return mask;
}

/// The scalar `CLineScan_classify64`: the reference for the vector paths, and the path where there is none.
static inline CLineScan_Classes CLineScan_classify64_scalar(const uint8_t *p) {
    CLineScan_Classes classes = {0, 0, 0, 0};
    for (int i = 0; i < 64; i++) {
        classes.commas |= (uint64_t)(p[i] == ',') << i;
        classes.quotes |= (uint64_t)(p[i] == '"') << i;
        classes.highs |= (uint64_t)(p[i] >= 0x80) << i;
        classes.nuls |= (uint64_t)(p[i] == 0) << i;
    }
    return classes;
}

#if defined(CLINESCAN_NEON)
/// The 64 lanes of four all-ones-or-zero comparison vectors as one bit mask. NEON has no movemask: each
/// lane keeps its own bit of {1, 2, …, 128}, and three rounds of pairwise adds pack 8 lanes into a byte.
static inline uint64_t CLineScan_neonBits(uint8x16_t c0, uint8x16_t c1, uint8x16_t c2, uint8x16_t c3) {
    static const uint8_t weights[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    const uint8x16_t bits = vld1q_u8(weights);
    uint8x16_t sum0 = vpaddq_u8(vandq_u8(c0, bits), vandq_u8(c1, bits));
    uint8x16_t sum1 = vpaddq_u8(vandq_u8(c2, bits), vandq_u8(c3, bits));
    sum0 = vpaddq_u8(sum0, sum1);
    sum0 = vpaddq_u8(sum0, sum0);
    return vgetq_lane_u64(vreinterpretq_u64_u8(sum0), 0);
}
#endif

/// A bit mask of the positions of `byte` among the 64 bytes at `p`: bit i is set when p[i] == byte.
/// The caller guarantees that 64 bytes are readable at `p` (bytes past the data may be garbage: mask them).
static inline uint64_t CLineScan_mask64(const uint8_t *p, uint8_t byte) {
#if defined(CLINESCAN_SSE2)
    const __m128i needle = _mm_set1_epi8((char)byte);
    uint64_t m0 = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 0)), needle));
    uint64_t m1 = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), needle));
    uint64_t m2 = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), needle));
    uint64_t m3 = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), needle));
    return m0 | (m1 << 16) | (m2 << 32) | (m3 << 48);
#elif defined(CLINESCAN_NEON)
    const uint8x16_t needle = vdupq_n_u8(byte);
    return CLineScan_neonBits(vceqq_u8(vld1q_u8(p + 0), needle), vceqq_u8(vld1q_u8(p + 16), needle),
                              vceqq_u8(vld1q_u8(p + 32), needle), vceqq_u8(vld1q_u8(p + 48), needle));
#else
    return CLineScan_mask64_scalar(p, byte);
#endif
}

static inline CLineScan_Classes CLineScan_classify64(const uint8_t *p) {
#if defined(CLINESCAN_SSE2)
    CLineScan_Classes classes;
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
    return classes;
#elif defined(CLINESCAN_NEON)
    CLineScan_Classes classes;
    const uint8x16_t v0 = vld1q_u8(p + 0), v1 = vld1q_u8(p + 16), v2 = vld1q_u8(p + 32), v3 = vld1q_u8(p + 48);
    const uint8x16_t comma = vdupq_n_u8(','), quote = vdupq_n_u8('"'), high = vdupq_n_u8(0x80);
    classes.commas = CLineScan_neonBits(vceqq_u8(v0, comma), vceqq_u8(v1, comma), vceqq_u8(v2, comma),
                                        vceqq_u8(v3, comma));
    classes.quotes = CLineScan_neonBits(vceqq_u8(v0, quote), vceqq_u8(v1, quote), vceqq_u8(v2, quote),
                                        vceqq_u8(v3, quote));
    classes.highs = CLineScan_neonBits(vcgeq_u8(v0, high), vcgeq_u8(v1, high), vcgeq_u8(v2, high),
                                       vcgeq_u8(v3, high));
    classes.nuls = CLineScan_neonBits(vceqzq_u8(v0), vceqzq_u8(v1), vceqzq_u8(v2), vceqzq_u8(v3));
    return classes;
#else
    return CLineScan_classify64_scalar(p);
#endif
}

#endif
