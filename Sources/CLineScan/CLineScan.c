// CLineScan is header-only (static inline functions that Swift inlines); this file gives the target a source.
#include "CLineScan.h"
