import Foundation

@testable import BackoffCLI

/// libFuzzer's driver, from libclang_rt.fuzzer_no_main (scripts/fuzz links it).
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// One fuzz target of `FuzzTargets`, chosen by BACKOFF_FUZZ_TARGET; the arguments are libFuzzer's.
@main
struct BackoffFuzz {
    static let target = ProcessInfo.processInfo.environment["BACKOFF_FUZZ_TARGET"] ?? ""

    static func main() {
        guard FuzzTargets.names.contains(target) else {
            FileHandle.standardError.write(
                Data("set BACKOFF_FUZZ_TARGET to one of \(FuzzTargets.names.joined(separator: ", "))\n".utf8))
            exit(64)
        }
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(
            runDriver(&argc, &argv) { data, size in
                let bytes = data.map { Data(bytes: $0, count: size) } ?? Data()
                FuzzTargets.run(BackoffFuzz.target, bytes)
                return 0
            })
    }
}
