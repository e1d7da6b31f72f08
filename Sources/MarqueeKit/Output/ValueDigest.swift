/// Hashes the plain values templates see (strings, numbers, booleans, arrays, dictionaries), so
/// a page whose values are the same as last time need not be rendered again.
enum ValueDigest {
    static func combine(_ value: Any, into hasher: inout StableHasher) {
        switch value {
        case let text as String:
            hasher.combine(1)
            hasher.combine(text)
        case let flag as Bool:
            hasher.combine(flag ? 2 : 3)
        case let number as Int:
            hasher.combine(4)
            hasher.combine(number)
        case let dictionary as [String: Any]:
            // Entries hashed one by one and summed: the same for any order, no sorting.
            var sum: UInt64 = 0
            for (key, element) in dictionary {
                var entry = StableHasher()
                entry.combine(key)
                combine(element, into: &entry)
                sum &+= entry.value
            }
            hasher.combine(5)
            hasher.combine(Int(truncatingIfNeeded: sum))
        case let strings as [String]:
            hasher.combine(6)
            hasher.combine(strings.count)
            for text in strings { hasher.combine(text) }
        case let list as [Any]:
            hasher.combine(7)
            hasher.combine(list.count)
            for element in list { combine(element, into: &hasher) }
        default:
            // Other types (a plugin's metadata values, nil): their description.
            hasher.combine(8)
            hasher.combine(String(describing: value))
        }
    }
}
