// The functions are `static inline` in the header; this file makes the target a C library.
#include "StrataAtomics.h"
