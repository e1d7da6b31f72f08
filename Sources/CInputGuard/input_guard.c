// SIGBUS handling for file mappings (see input_guard.h). In C because a signal handler must
// not allocate, lock or touch reference counts, which Swift code cannot promise.
#define _GNU_SOURCE
#include "input_guard.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

// Room for every mapping a process holds at once: a build maps its large inputs and, for the
// site's assets, the theme's fonts (three per build, and the test suite runs many builds at once).
enum { guard_count = 1024 };

/// The guarded ranges; a free slot has start 0 and length 0. Read by the handler without a lock:
/// a slot is filled start first, then the protection, then length, and emptied length first.
static struct {
    _Atomic(uintptr_t) start;
    _Atomic(int) protection;
    _Atomic(size_t) length;
} guards[guard_count];

static struct sigaction previous_action;
static pthread_once_t installed = PTHREAD_ONCE_INIT;
static uintptr_t page_size;

static void on_bus_error(int signal_number, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    // BUS_ADRERR is a page past the end of a mapped file; other codes (a memory error) are not ours.
    for (int index = 0; info->si_code == BUS_ADRERR && index < guard_count; index++) {
        uintptr_t start = atomic_load(&guards[index].start);
        size_t length = atomic_load(&guards[index].length);
        int protection = atomic_load(&guards[index].protection);
        if (start == 0 || address < start || address - start >= length) continue;
        // The file ends before this page: zeros in its place. One page at a time, so that a slot
        // being refilled while it is read can never make this cover more than the faulting page.
        // A raw system call, as the sanitizers' `mmap` wrappers are not meant for signal handlers.
        uintptr_t page = address & ~(page_size - 1);
        long mapped = syscall(SYS_mmap, page, page_size, protection, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (mapped != -1) return;
    }
    // Not a guarded page: what would have happened without this handler.
    if ((previous_action.sa_flags & SA_SIGINFO) && previous_action.sa_sigaction) {
        previous_action.sa_sigaction(signal_number, info, context);
    } else if (previous_action.sa_handler != SIG_DFL && previous_action.sa_handler != SIG_IGN) {
        previous_action.sa_handler(signal_number);
    } else {
        // Returning runs the faulting instruction again, which now ends the program.
        struct sigaction fallback = {0};
        fallback.sa_handler = SIG_DFL;
        sigaction(SIGBUS, &fallback, NULL);
    }
}

static void install(void) {
    page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
    struct sigaction action = {0};
    action.sa_sigaction = on_bus_error;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, &previous_action);
}

int marquee_input_guard_add(const void *start, size_t length, int writable) {
    pthread_once(&installed, install);
    for (int index = 0; index < guard_count; index++) {
        uintptr_t expected = 0;
        if (atomic_compare_exchange_strong(&guards[index].start, &expected, (uintptr_t)start)) {
            atomic_store(&guards[index].protection, writable ? PROT_READ | PROT_WRITE : PROT_READ);
            atomic_store(&guards[index].length, length);
            return index;
        }
    }
    return -1;
}

void marquee_input_guard_remove(int guard) {
    if (guard < 0 || guard >= guard_count) return;
    atomic_store(&guards[guard].length, 0);
    atomic_store(&guards[guard].start, 0);
}
