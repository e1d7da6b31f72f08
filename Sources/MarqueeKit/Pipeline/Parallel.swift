import Foundation

/// The cores this process may use, read once: Foundation's `activeProcessorCount` reads the
/// cgroup's CPU quota and CPU set from `/sys` on every call, and every parallel step asks.
let processorCount = ProcessInfo.processInfo.activeProcessorCount

extension Array where Element: Sendable {
    /// `map` spread over every core, order kept. For CPU-bound per-item work (markup, layout,
    /// rendering). When elements throw, the error of the first of them (in order) is rethrown.
    ///
    /// Elements are read in place and results written straight into the new array: with items
    /// of twenty fields, copying each one in and out cost more than some stages' work.
    func concurrentMap<T: Sendable, Failure: Error>(_ transform: @Sendable (Element) throws(Failure) -> T) throws(Failure) -> [T] {
        let count = self.count
        guard count > 1 else {
            var results: [T] = []
            for element in self { results.append(try transform(element)) }
            return results
        }
        // Many small chunks, taken by whichever core is free: no core idles while another finishes
        // a long last chunk.
        let chunks = Swift.min(count, processorCount * 32)
        let failure = Locked<(index: Int, error: Failure)?>(nil)
        // How far each chunk got, so that a failed map can release exactly what it made.
        let reached = UnsafeMutableBufferPointer<Int>.allocate(capacity: chunks)
        defer { reached.deallocate() }
        let results = [T](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            nonisolated(unsafe) let output = buffer, progress = reached
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let start = chunk * count / chunks, end = (chunk + 1) * count / chunks
                progress[chunk] = start
                for index in start..<end {
                    do throws(Failure) {
                        (output.baseAddress! + index).initialize(to: try transform(self[index]))
                        progress[chunk] = index + 1
                    } catch {
                        failure.withLock { if $0 == nil || $0!.index > index { $0 = (index, error) } }
                        return
                    }
                }
            }
            if failure.withLock({ $0 }) == nil {
                initializedCount = count
                return
            }
            for chunk in 0..<chunks {
                let start = chunk * count / chunks
                (output.baseAddress! + start).deinitialize(count: progress[chunk] - start)
            }
            initializedCount = 0
        }
        if let failed = failure.withLock({ $0 }) { throw failed.error }
        return results
    }

    /// Changes every element in place, spread over every core, and returns what `update` returned
    /// for each, in order. Unlike a `concurrentMap` that returns changed copies, an element whose
    /// storage is its own is changed without a copy.
    @discardableResult
    mutating func concurrentUpdate<T: Sendable>(_ update: @Sendable (inout Element) -> T) -> [T] {
        concurrentUpdate { _, element in update(&element) }
    }

    /// ``concurrentUpdate(_:)`` with each element's index.
    @discardableResult
    mutating func concurrentUpdate<T: Sendable>(_ update: @Sendable (Int, inout Element) -> T) -> [T] {
        let count = self.count
        let chunks = Swift.min(count, processorCount * 32)
        guard chunks > 1 else {
            var results: [T] = []
            for index in indices { results.append(update(index, &self[index])) }
            return results
        }
        return withUnsafeMutableBufferPointer { buffer in
            [T](unsafeUninitializedCapacity: count) { results, initializedCount in
                // Each chunk changes its own elements and fills its own results only.
                nonisolated(unsafe) let elements = buffer, output = results
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    for index in chunk * count / chunks..<(chunk + 1) * count / chunks {
                        (output.baseAddress! + index).initialize(to: update(index, &elements[index]))
                    }
                }
                initializedCount = count
            }
        }
    }
}

/// `parts` joined into one array, on every core: each part's elements are copied into place and
/// the part released on the core that copied it, so that the elements end up referenced once (a
/// later change to one needs no copy) without one core touching them all.
func joinedOnEveryCore<T: Sendable>(_ parts: consuming [[T]]) -> [T] {
    var total = 0
    let offsets = parts.map { part in
        defer { total += part.count }
        return total
    }
    return [T](unsafeUninitializedCapacity: total) { output, initializedCount in
        parts.withUnsafeMutableBufferPointer { parts in
            // Each iteration reads and empties its own part and fills its own range only.
            nonisolated(unsafe) let parts = parts, output = output
            DispatchQueue.concurrentPerform(iterations: parts.count) { index in
                let part = parts[index]
                parts[index] = []
                part.withUnsafeBufferPointer { elements in
                    guard let first = elements.baseAddress else { return }
                    (output.baseAddress! + offsets[index]).initialize(from: first, count: elements.count)
                }
            }
        }
        initializedCount = total
    }
}

/// Runs `first` and `second` at the same time (each on a core of its own when there are two) and
/// returns both results: for a few independent pieces of serial work.
func concurrently<First: Sendable, Second: Sendable>(
    _ first: @Sendable () -> First, _ second: @Sendable () -> Second
) -> (First, Second) {
    let results = Locked<(First?, Second?)>((nil, nil))
    DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
            let value = first()
            results.withLock { $0.0 = value }
        } else {
            let value = second()
            results.withLock { $0.1 = value }
        }
    }
    let (firstResult, secondResult) = results.withLock { $0 }
    return (firstResult!, secondResult!)
}
