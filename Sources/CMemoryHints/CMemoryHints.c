// The module's functions are inline, in its header.
#include "CMemoryHints.h"
