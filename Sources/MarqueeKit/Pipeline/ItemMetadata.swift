/// A key for a typed value that a plugin stores on an item.
///
/// ```swift
/// enum ReadingMinutes: ItemMetadataKey {
///     typealias Value = Int
///     static let templateName: String? = "readingMinutes"   // {{meta.readingMinutes}}
/// }
/// item.metadata[ReadingMinutes.self] = 4
/// ```
public protocol ItemMetadataKey {
    associatedtype Value: Sendable
    /// The name templates see the value under, as `{{meta.NAME}}`; nil keeps it out of templates.
    static var templateName: String? { get }
}

extension ItemMetadataKey {
    /// No template name: the value stays out of templates.
    public static var templateName: String? { nil }
}

/// Typed storage for plugin values on an item.
public struct ItemMetadata: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]
    /// The values of keys with a template name, as text.
    public private(set) var templateValues: [String: String] = [:]

    /// Creates empty storage.
    public init() {}

    /// True when no value is stored.
    public var isEmpty: Bool { values.isEmpty }

    /// The value stored under `key`, or nil.
    public subscript<Key: ItemMetadataKey>(key: Key.Type) -> Key.Value? {
        get { values[ObjectIdentifier(key)] as? Key.Value }
        set {
            values[ObjectIdentifier(key)] = newValue
            if let name = Key.templateName { templateValues[name] = newValue.map { "\($0)" } }
        }
    }
}
