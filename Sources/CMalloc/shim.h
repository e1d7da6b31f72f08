// glibc's allocator tuning (mallopt), which Swift's Glibc module does not include.
#if defined(__linux__)
#include <malloc.h>
#endif
