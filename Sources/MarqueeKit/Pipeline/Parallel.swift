import Foundation

/// The cores this process may use, read once: Foundation's `activeProcessorCount` reads the
/// cgroup's CPU quota and CPU set from `/sys` on every call, and every parallel step asks.
let processorCount = ProcessInfo.processInfo.activeProcessorCount

extension Array where Element: Sendable {
    /// `map` spread over every core, order kept. For CPU-bound per-item work (markup, layout,
    /// rendering). When elements throw, the error of the first of them (in order) is rethrown.
    func concurrentMap<T: Sendable, Failure: Error>(_ transform: @Sendable (Element) throws(Failure) -> T) throws(Failure) -> [T] {
        let parts = Self.chunks(count).inParallel { range throws(Failure) in
            var results: [T] = []
            results.reserveCapacity(range.count)
            for index in range { results.append(try transform(self[index])) }
            return results
        }
        switch parts {
        case .success(let parts): return [T](parts.joined())
        case .failure(let error): throw error
        }
    }

    /// Changes every element in place, spread over every core, and returns what `update` returned
    /// for each, in order.
    @discardableResult
    mutating func concurrentUpdate<T: Sendable>(_ update: @Sendable (inout Element) -> T) -> [T] {
        concurrentUpdate { _, element in update(&element) }
    }

    /// ``concurrentUpdate(_:)`` with each element's index.
    @discardableResult
    mutating func concurrentUpdate<T: Sendable>(_ update: @Sendable (Int, inout Element) -> T) -> [T] {
        // The elements are moved into one array per chunk, so that each core changes elements
        // that nothing else references (changed without a copy of their storage).
        let ranges = Self.chunks(count)
        let parts = Locked(ranges.map { Array(self[$0]) })
        removeAll()
        let results = [Int](ranges.indices).inParallel { part -> [T] in
            var elements = parts.withLock { parts in
                defer { parts[part] = [] }
                return parts[part]
            }
            defer { parts.withLock { $0[part] = elements } }
            let start = ranges[part].lowerBound
            return elements.indices.map { update(start + $0, &elements[$0]) }
        }
        self = [Element](parts.withLock { parts in
            defer { parts = [] }
            return parts
        }.joined())
        return [T](results.get().joined())
    }

    /// `0..<count` cut into many small ranges, taken by whichever core is free: no core idles
    /// while another finishes a long last range.
    private static func chunks(_ count: Int) -> [Range<Int>] {
        let chunks = Swift.min(count, processorCount * 32)
        return (0..<chunks).map { chunk in chunk * count / chunks..<(chunk + 1) * count / chunks }
    }
}

extension Array where Element: Sendable {
    /// `body` applied to every element on every core; the results in order, or the error of the
    /// first element (in order) that threw.
    fileprivate func inParallel<T: Sendable, Failure: Error>(_ body: @Sendable (Element) throws(Failure) -> T) -> Result<[T], Failure> {
        let results = Locked([Result<T, Failure>?](repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let result = Result { () throws(Failure) in try body(self[index]) }
            results.withLock { $0[index] = result }
        }
        let finished = results.withLock { $0 }
        return Result { () throws(Failure) -> [T] in
            var values: [T] = []
            values.reserveCapacity(finished.count)
            for result in finished { values.append(try result!.get()) }
            return values
        }
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
