// The helpers are inline functions in include/CSQLiteConfig.h; a C target needs one source file.
#include "CSQLiteConfig.h"
