// zlib from the system: Debian's zlib1g-dev on Linux, the SDK's libz on Apple platforms (a plain C target
// with a linked library, so no pkg-config and no Homebrew copy gets in the way).
#ifndef CZLIB_H
#define CZLIB_H

#include <zlib.h>

/// `inflateInit2` is a macro in zlib.h; Swift cannot call macros, so wrap it.
static inline int CZlib_inflateInit2(z_streamp strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}

/// `deflateInit2` is a macro as well (used by tests and tools that write gzip).
static inline int CZlib_deflateInit2(z_streamp strm, int level, int method, int windowBits, int memLevel, int strategy) {
    return deflateInit2(strm, level, method, windowBits, memLevel, strategy);
}

#endif
