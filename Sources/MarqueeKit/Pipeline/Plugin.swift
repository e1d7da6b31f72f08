import Foundation

/// A piece of the build. Every built-in feature — each source format, Markdown, sanitizing,
/// layout, each writer — is a plugin, and a site's own plugins use the same protocol.
///
/// The builder runs the stages in this order, and within a stage the plugins in the order
/// they were registered:
///
/// 1. ``loadItems(in:)`` — sources produce items (all sources run concurrently; their items are
///    kept in registration order).
/// 2. ``transformItems(_:in:)`` — normalize, render markup, enrich.
/// 3. ``layOutItems(_:in:)`` — decide how each item is shown.
/// 4. ``writeOutputs(for:into:in:)`` — add pages, assets and other files to the output.
/// 5. ``postProcess(_:in:)`` — adjust each file before it reaches the disk. This runs on every
///    file as soon as a writer adds it (by every plugin, in registration order), so files
///    stream to the disk instead of waiting in memory for the whole site.
///
/// Every hook has a default that does nothing, so a plugin implements only what it needs.
///
/// A plugin can also say what its items are loaded from (``itemFiles(in:)``): when every plugin
/// does, and none of those files nor anything else changed, a rebuild stops before loading.
public protocol Plugin: Sendable {
    /// A short name used in logs and error messages, such as `movies` or `reading-time`.
    var name: String { get }

    /// Stage 1: produce items. Called once per build.
    func loadItems(in context: BuildContext) async throws -> [Item]
    /// The local files ``loadItems(in:)`` reads, when its items depend on nothing else: `[]` for
    /// a plugin that loads no items. `nil` (the default) means its items may change without a
    /// local file changing (a URL, a database, the clock), so they are loaded on every build.
    func itemFiles(in context: BuildContext) -> [URL]?

    /// Stage 2: change, add or remove items. It may wait for the network (the image stage
    /// downloads images); a plugin that does not can implement it without `async`.
    func transformItems(_ items: inout [Item], in context: BuildContext) async throws

    /// Stage 3: set each item's ``Item/cell`` plan (or adjust one set by an earlier plugin).
    func layOutItems(_ items: inout [Item], in context: BuildContext) throws

    /// Stage 4: add files to the output.
    func writeOutputs(for items: [Item], into output: OutputSet, in context: BuildContext) throws

    /// Stage 5: adjust one output file before it is written; called as each file is added, possibly
    /// from several threads at once.
    func postProcess(_ file: inout OutputFile, in context: BuildContext) throws
}

extension Plugin {
    /// Produces no items.
    public func loadItems(in context: BuildContext) async throws -> [Item] { [] }
    /// Unknown: the items are loaded on every build.
    public func itemFiles(in context: BuildContext) -> [URL]? { nil }
    /// Leaves the items as they are.
    public func transformItems(_ items: inout [Item], in context: BuildContext) throws {}
    /// Leaves the cell plans as they are.
    public func layOutItems(_ items: inout [Item], in context: BuildContext) throws {}
    /// Writes nothing.
    public func writeOutputs(for items: [Item], into output: OutputSet, in context: BuildContext) throws {}
    /// Leaves the file as it is.
    public func postProcess(_ file: inout OutputFile, in context: BuildContext) throws {}
}
