import Foundation

#if FUZZING
/// The target libFuzzer runs, from `MARQUEE_FUZZ_TARGET` (default: sanitizer).
let selectedTarget = FuzzTarget(rawValue: ProcessInfo.processInfo.environment["MARQUEE_FUZZ_TARGET"] ?? "sanitizer") ?? .sanitizer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    selectedTarget.run(Data(bytes: bytes, count: count))
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// SwiftPM links executables with their entry point renamed to `<module>_main`; hand control to
/// libFuzzer's driver from there.
@_cdecl("marquee_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { bytes, size in
        guard let bytes else { return 0 }
        selectedTarget.run(Data(bytes: bytes, count: size))
        return 0
    }
}
#else
/// Without the fuzzer, the same targets replay saved inputs: `marquee-fuzz FOLDER…` runs every
/// file under each `FOLDER/<target>/` through that target (the regression test for crashes that
/// fuzzing found), and `marquee-fuzz --all FILE…` runs files through every target.
@main
struct Replay {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var runs = 0
        if arguments.first == "--all" {
            arguments.removeFirst()
            for path in arguments {
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                for target in FuzzTarget.allCases { target.run(data); runs += 1 }
            }
        } else {
            for folder in arguments {
                for target in FuzzTarget.allCases {
                    let directory = URL(fileURLWithPath: folder).appending(path: target.rawValue)
                    for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] {
                        guard let data = FileManager.default.contents(atPath: directory.appending(path: name).path) else { continue }
                        target.run(data)
                        runs += 1
                    }
                }
            }
        }
        print("replayed \(runs) inputs without a crash or an unsafe output")
    }
}
#endif
