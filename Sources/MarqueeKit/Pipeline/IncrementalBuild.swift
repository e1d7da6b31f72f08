import Foundation

/// The layer around the stages that lets a build skip what the last build of the same site
/// already did. ``SiteBuilder`` asks it, in order:
///
/// 1. ``unchangedBeforeLoading()``: nothing the items come from changed and the output is
///    untouched, so the build stops before loading;
/// 2. ``unchangedAfterLoading(_:)``: the loaded items and settings are the last build's, and
///    its output is untouched, so the build stops before the stages;
/// 3. ``stagedOutput()``: where the writers put their files, knowing which of the last build's
///    files are still in the output as it left them (pages made from unchanged values are then
///    kept without being rendered). When the items changed, the output is compared with the
///    last build's state beside the stages, and this waits for it;
/// 4. ``remember(_:result:items:)``: what this build made, for the next one.
///
/// Everything it reads and writes is in ``BuildState`` (the output's files as the last build
/// left them) and the ``BuildMemo`` (results of per-item work, which the stages look up
/// themselves, and which values made each file: ``FileMakers``). Without it, every build would
/// be a full build with the same result.
struct IncrementalBuild {
    let site: Site
    let memo: BuildMemo
    /// What every page depends on besides its items (see ``BuildState/environment(of:)``).
    let environment: String
    /// The stamps of the content folder's files: all of them, and those besides the files the
    /// items are read from (which the items themselves stand for once loaded).
    private let contentStamps: (all: String, besideItemFiles: String)
    /// A hash of everything the items come from, taken before anything is read (a file changed
    /// while the build runs then differs from what the state records, and the next build loads
    /// it); nil when a plugin cannot name the files it loads from.
    private let inputs: String?
    /// The last build's state, once read.
    private var previous: BuildState?
    /// The memo and the last build's state, read beside loading.
    private var reading: Task<BuildState?, Never>?
    /// Works out ``checked`` once the state is read, beside loading and the stages.
    private var checking: Task<Checked, Never>?
    /// What ``checking`` worked out, once awaited.
    private var checked: Checked?
    /// A hash of the loaded items and the settings, for the state.
    private var fingerprint = ""
    /// Which values made each file of the output, as this build and the last remember them.
    private let makers: FileMakers

    /// Stamps what the site's items come from.
    init(site: Site, context: BuildContext) {
        self.site = site
        memo = context.memo
        environment = BuildState.environment(of: site)
        makers = FileMakers(memo: context.memo, environment: environment)
        let itemFiles = site.itemFiles(in: context)
        contentStamps = BuildState.contentStamps(of: site, itemFiles: itemFiles.files)
        inputs = itemFiles.complete
            ? BuildState.inputs(files: itemFiles.files, contentStamps: contentStamps.all, environment: environment) : nil
    }

    /// The last build's state, when nothing the items come from changed since it and its output
    /// is untouched. (The state's last line tells whether reading all of it is worth it.)
    mutating func unchangedBeforeLoading() -> BuildState? {
        guard let inputs, BuildState.recordedInputs(for: site) == inputs else { return nil }
        previous = BuildState.load(for: site)
        guard let state = previous, state.inputs == inputs, state.matches(site.output) else { return nil }
        return state
    }

    /// What ``startReadingPrevious()`` works out after reading the state.
    private struct Checked: Sendable {
        /// The output compared with the last build's state.
        var check: BuildState.OutputCheck?
        /// The digests of the values that made the last build's files.
        var madeFrom: [UInt64?]
    }

    /// Starts reading, beside loading, the memo (which the stages look things up in), then the
    /// last build's state (unless ``unchangedBeforeLoading()`` read it), then comparing the output
    /// with it and reading which values made its files. Nothing in the output changes before the
    /// commit. (Another program writing into the output during the build may leave a file the
    /// state does not list, however late the check; a later build that finds a folder's time
    /// differing from the state's reads the output.)
    ///
    /// One step after another, not side by side: two tasks at work would take both threads of a
    /// two-core machine, and loading would start only when one ended. The check is a task of its
    /// own, which waits for the state, so that a build whose items changed need not wait for it
    /// before its stages.
    mutating func startReadingPrevious() {
        let known = previous, memo = memo, site = site, makers = makers
        let reading = Task {
            memo.prepare()
            return known ?? BuildState.load(for: site)
        }
        self.reading = reading
        checking = Task {
            let state = await reading.value
            return Checked(check: state?.check(site.output), madeFrom: makers.digests(of: state?.files ?? [:]))
        }
    }

    /// Waits for the output check started by ``startReadingPrevious()``.
    private mutating func finishChecking() async {
        if checked == nil { checked = await checking?.value }
    }

    /// The last build's state, when `items` and the settings are the same as its and its output
    /// is untouched. Each item's body digest is kept on it for the stages.
    mutating func unchangedAfterLoading(_ items: inout [Item]) async -> BuildState? {
        fingerprint = BuildState.fingerprint(items: &items, contentStamps: contentStamps.besideItemFiles, environment: environment)
        previous = await reading?.value
        guard var state = previous, state.fingerprint == fingerprint else { return nil }
        await finishChecking()
        guard checked?.check?.isUntouched == true else { return nil }
        // The same items from inputs stamped differently (a file saved unchanged): the new
        // stamps are recorded, so that the next build can stop before loading.
        if let inputs, state.inputs != inputs {
            let saved = state
            state.inputs = inputs
            state.save(for: site, replacing: saved, changed: ([], []))
        }
        return state
    }

    /// The staging area for this build's files, which keeps a file of the last build's when
    /// its maker's digest is the same and the output still holds it as that build left it.
    mutating func stagedOutput() async throws(BuildError) -> StagedOutput {
        await finishChecking()
        return try StagedOutput(
            output: site.output, previous: previous?.files ?? [:], untouchedFiles: checked?.check?.untouchedFiles,
            madeFrom: checked?.madeFrom, makers: makers)
    }

    /// Whether the output holds exactly the last build's files: no folder had an entry added or
    /// removed since. The commit then needs not read the output's folders.
    var outputHoldsPrevious: Bool { checked?.check?.foldersUnchanged == true }

    /// Saves the state of the committed `staged` output; returns how many pages and files the
    /// output holds. (The builder saves the memo beside it.)
    func remember(_ staged: StagedOutput, result: StagedOutput.Result, items: Int) -> (pages: Int, files: Int) {
        let recorded = staged.recorded()
        let pages = recorded.count { OutputFile.isPage($0.path) }
        let folders = BuildState.folderStamps(
            holding: recorded, in: site.output, known: outputHoldsPrevious ? previous : nil, changes: result.changes)
        let state = BuildState(
            fingerprint: fingerprint, environment: environment, inputs: inputs ?? "-", items: items, pages: pages,
            files: recorded, folders: folders.stamps)
        // Only the lines of the files recorded anew or removed, and of the folders read again,
        // can differ from the previous build's state.
        let changedFiles = staged.recordedAnew() + staged.removedPrevious()
        state.save(for: site, replacing: previous, changed: folders.reread.map { (changedFiles, $0) })
        return (pages, recorded.count)
    }
}
