import Foundation
import FolioTestSupport

/// libFuzzer's driver, from the fuzzer runtime that `-sanitize=fuzzer` links in: SwiftPM gives
/// an executable a main of its own, so ours hands the command line to libFuzzer.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The reader under test, named by FOLIO_FUZZ_TARGET (one of `FuzzTarget`'s names).
nonisolated(unsafe) private var target = FuzzTarget.catalog

/// One input, through the target.
private func fuzzOne(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    target.run(start.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}

@main
enum FolioFuzz {
    static func main() {
        let name = ProcessInfo.processInfo.environment["FOLIO_FUZZ_TARGET"] ?? ""
        guard let chosen = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("FOLIO_FUZZ_TARGET must be one of \(names)\n".utf8))
            exit(2)
        }
        target = chosen
        FuzzTarget.warmUp()
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOne))
    }
}
