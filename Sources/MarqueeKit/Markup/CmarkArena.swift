import CCmark
import Foundation

/// A bump allocator for cmark: one Markdown document at a time per thread is parsed, read and
/// rendered with it, and everything cmark allocated for that document is released at once
/// when it is done.
///
/// cmark allocates every node, string and buffer separately, and with every core parsing at
/// once those many small `malloc`s and `free`s contend for the allocator.
/// cmark lets the caller supply the allocator (`cmark_mem`); its functions take no context,
/// so each thread finds its own arena through a thread-local slot.
enum CmarkArena {
    /// Runs `body` with an allocator to hand to cmark; every block it allocates is released
    /// when `body` returns, so nothing cmark made may be used after that (copy out first).
    static func withAllocator<Result>(_ body: (UnsafeMutablePointer<cmark_mem>) -> Result) -> Result {
        let arena = Arena.current
        arena.depth += 1
        defer {
            arena.depth -= 1
            if arena.depth == 0 { arena.reset() }
        }
        return body(allocator)
    }

    /// Written once, then only read (by cmark).
    nonisolated(unsafe) private static let allocator: UnsafeMutablePointer<cmark_mem> = {
        let memory = UnsafeMutablePointer<cmark_mem>.allocate(capacity: 1)
        memory.initialize(to: cmark_mem(
            calloc: { count, size in
                let (total, overflow) = count.multipliedReportingOverflow(by: size)
                guard !overflow, let block = Arena.withCurrent({ $0.allocate(total) }) else { return nil }
                return memset(block, 0, total)
            },
            realloc: { block, size in Arena.withCurrent { $0.reallocate(block, to: size) } },
            free: { _ in }))
        return memory
    }()

    /// One thread's blocks: large chunks handed out front to back, each block preceded by its size.
    private final class Arena {
        static let chunkSize = 256 * 1024
        /// Blocks are aligned like `malloc`'s, and the header holding a block's size keeps that.
        static let alignment = 16

        // An arena is only ever used by its own thread, so its properties need no run-time
        // exclusivity checks (which would cost as much as the bump allocation they guard).
        @exclusivity(unchecked) private var chunks: [UnsafeMutableRawPointer] = []
        /// Blocks too large for a chunk, allocated on their own.
        @exclusivity(unchecked) private var large: [UnsafeMutableRawPointer] = []
        @exclusivity(unchecked) private var chunk = -1
        @exclusivity(unchecked) private var offset = chunkSize
        /// The last block handed out, which can grow in place.
        @exclusivity(unchecked) private var last: UnsafeMutableRawPointer?
        @exclusivity(unchecked) var depth = 0

        private static let key: pthread_key_t = {
            var key = pthread_key_t()
            pthread_key_create(&key) { slot in
                if let slot { Unmanaged<Arena>.fromOpaque(slot).release() }
            }
            return key
        }()

        /// Runs `body` with this thread's arena, without retaining it: the thread's slot holds it
        /// for as long as the thread lives, and cmark calls this for every node it allocates.
        static func withCurrent<Result>(_ body: (Arena) -> Result) -> Result {
            if let slot = pthread_getspecific(key) {
                return Unmanaged<Arena>.fromOpaque(slot)._withUnsafeGuaranteedRef(body)
            }
            return body(current)
        }

        /// This thread's arena.
        static var current: Arena {
            if let slot = pthread_getspecific(key) { return Unmanaged<Arena>.fromOpaque(slot).takeUnretainedValue() }
            let arena = Arena()
            pthread_setspecific(key, Unmanaged.passRetained(arena).toOpaque())
            return arena
        }

        func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
            let needed = Self.alignment + (size + Self.alignment - 1) & ~(Self.alignment - 1)
            let start: UnsafeMutableRawPointer
            if needed > Self.chunkSize / 4 {
                guard let block = malloc(needed) else { return nil }
                large.append(block)
                start = block
            } else {
                if offset + needed > Self.chunkSize {
                    chunk += 1
                    if chunk == chunks.count {
                        guard let block = malloc(Self.chunkSize) else { return nil }
                        chunks.append(block)
                    }
                    offset = 0
                }
                start = chunks[chunk] + offset
                offset += needed
            }
            start.storeBytes(of: size, as: Int.self)
            last = start + Self.alignment
            return last
        }

        func reallocate(_ block: UnsafeMutableRawPointer?, to size: Int) -> UnsafeMutableRawPointer? {
            guard let block else { return allocate(size) }
            let header = block - Self.alignment
            let oldSize = header.load(as: Int.self)
            if size <= oldSize { return block }
            // The last block of the current chunk grows where it is when the chunk has room.
            if block == last, chunk >= 0, header >= chunks[chunk], header < chunks[chunk] + Self.chunkSize {
                let end = header - chunks[chunk] + Self.alignment + (size + Self.alignment - 1) & ~(Self.alignment - 1)
                if end <= Self.chunkSize {
                    offset = end
                    header.storeBytes(of: size, as: Int.self)
                    return block
                }
            }
            guard let moved = allocate(size) else { return nil }
            moved.copyMemory(from: block, byteCount: oldSize)
            return moved
        }

        deinit {
            reset()
            for block in chunks { free(block) }
        }

        /// Releases every block; keeps a few chunks for the next document.
        func reset() {
            for block in large { free(block) }
            large.removeAll(keepingCapacity: true)
            while chunks.count > 4 { free(chunks.removeLast()) }
            chunk = -1
            offset = Self.chunkSize
            last = nil
        }
    }
}
