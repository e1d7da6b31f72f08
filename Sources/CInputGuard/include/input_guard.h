#ifndef MARQUEE_INPUT_GUARD_H
#define MARQUEE_INPUT_GUARD_H

#include <stddef.h>

/// Guards a read-only mapping of a file against the file being cut short while it is mapped.
///
/// Reading a page of a file mapping past the file's end raises SIGBUS, which would end the
/// program. For the pages of a guarded mapping, a SIGBUS handler (installed on the first call)
/// puts zero-filled memory in place of the missing pages and lets the read go on; the caller
/// finds out that the file changed by comparing its status afterwards. A SIGBUS anywhere else
/// goes to the handler that was there before, or ends the program as it would have.
///
/// `start` must be page-aligned and `length` a whole number of pages. The zeros are writable when
/// `writable` is nonzero (for a private mapping its reader may change). Returns the guard's number
/// for `marquee_input_guard_remove`, or -1 when every guard is in use (the caller then reads the
/// file instead of mapping it).
int marquee_input_guard_add(const void *start, size_t length, int writable);

/// Stops guarding; called before the mapping is removed.
void marquee_input_guard_remove(int guard);

#endif
