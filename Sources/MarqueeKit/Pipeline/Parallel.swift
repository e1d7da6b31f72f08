import Foundation

extension Array where Element: Sendable {
    /// `map` spread over every core, order kept. For CPU-bound per-item work (markup, layout,
    /// rendering); the first error thrown by any element is rethrown.
    func concurrentMap<T: Sendable, Failure: Error>(_ transform: @Sendable (Element) throws(Failure) -> T) throws(Failure) -> [T] {
        let count = self.count
        guard count > 1 else {
            var results: [T] = []
            for element in self { results.append(try transform(element)) }
            return results
        }
        let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer {
            results.deinitialize()
            results.deallocate()
        }
        let failure = Locked<Failure?>(nil)
        // Many small chunks, taken by whichever core is free: no core idles while another finishes
        // a long last chunk.
        let chunks = Swift.min(count, ProcessInfo.processInfo.activeProcessorCount * 32)
        nonisolated(unsafe) let output = results
        self.withUnsafeBufferPointer { input in
            nonisolated(unsafe) let input = input
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let start = chunk * count / chunks, end = (chunk + 1) * count / chunks
                for index in start..<end {
                    do throws(Failure) {
                        output[index] = try transform(input[index])
                    } catch {
                        failure.withLock { if $0 == nil { $0 = error } }
                        return
                    }
                }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return results.map { $0! }
    }
}
