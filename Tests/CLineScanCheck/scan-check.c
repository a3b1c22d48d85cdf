// Compares CLineScan's vector path for the machine it is compiled for (SSE2 on x86-64, NEON on arm64) with
// its scalar path on every byte value at every position, every needle, unaligned loads and seeded random
// blocks. `.ci/scan-check` builds it natively and for arm64 (run under qemu). Exit status 1 on a mismatch.
#include <stdio.h>
#include <string.h>
#include "CLineScan.h"

static unsigned long failures = 0;
static unsigned long checks = 0;

static void report(const char *what, const uint8_t *p, uint64_t vector, uint64_t scalar) {
    if (failures++ < 10) {
        fprintf(stderr, "mismatch in %s: vector %016llx, scalar %016llx; block:", what,
                (unsigned long long)vector, (unsigned long long)scalar);
        for (int i = 0; i < 64; i++) fprintf(stderr, " %02x", p[i]);
        fprintf(stderr, "\n");
    }
}

static void compare(const uint8_t *p, uint8_t needle) {
    checks++;
    uint64_t vector = CLineScan_mask64(p, needle), scalar = CLineScan_mask64_scalar(p, needle);
    if (vector != scalar) report("mask64", p, vector, scalar);
    CLineScan_Classes v = CLineScan_classify64(p), s = CLineScan_classify64_scalar(p);
    if (v.commas != s.commas) report("classify64 commas", p, v.commas, s.commas);
    if (v.quotes != s.quotes) report("classify64 quotes", p, v.quotes, s.quotes);
    if (v.highs != s.highs) report("classify64 highs", p, v.highs, s.highs);
    if (v.nuls != s.nuls) report("classify64 nuls", p, v.nuls, s.nuls);
}

static uint64_t state = 0x9E3779B97F4A7C15ull;
static uint64_t next(void) { // xorshift64*: the same blocks on every machine
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545F4914F6CDD1Dull;
}

int main(void) {
    static const uint8_t special[] = {',', '"', '\n', '\r', 0, 0x7F, 0x80, 0xFF, 'a'};
    uint8_t buffer[64 + 16];

    // Each byte value at each position, in a block of each special filler, searched for each special byte
    // and for itself.
    for (size_t f = 0; f < sizeof special; f++) {
        for (int position = 0; position < 64; position++) {
            for (int value = 0; value < 256; value++) {
                memset(buffer, special[f], sizeof buffer);
                buffer[position] = (uint8_t)value;
                for (size_t n = 0; n < sizeof special; n++) compare(buffer, special[n]);
                compare(buffer, (uint8_t)value);
            }
        }
    }
    // Seeded random blocks, at every alignment, every needle: bytes drawn from the special ones half the
    // time, from all 256 values otherwise.
    for (int block = 0; block < 20000; block++) {
        for (size_t i = 0; i < sizeof buffer; i++) {
            uint64_t r = next();
            buffer[i] = (r & 1) ? special[(r >> 8) % sizeof special] : (uint8_t)(r >> 16);
        }
        compare(buffer + block % 16, (uint8_t)next());
        if (block < 256) {
            for (int needle = 0; needle < 256; needle++) compare(buffer + block % 16, (uint8_t)needle);
        }
    }
#if defined(CLINESCAN_SSE2)
    const char *path = "SSE2";
#elif defined(CLINESCAN_NEON)
    const char *path = "NEON";
#else
    const char *path = "scalar only";
#endif
    if (failures > 0) {
        fprintf(stderr, "scan-check (%s): %lu mismatches with the scalar path in %lu checks\n", path, failures, checks);
        return 1;
    }
    printf("scan-check (%s): %lu checks equal to the scalar path\n", path, checks);
    return 0;
}
