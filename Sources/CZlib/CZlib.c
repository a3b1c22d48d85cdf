// CZlib is header-only (static inline wrappers of zlib's macros); this file gives the target a source.
#include "CZlib.h"
