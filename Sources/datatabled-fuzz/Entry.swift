#if FUZZING
/// libFuzzer's entry point: one input, from the fuzzer's own `main`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequests(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    RequestFuzzer.shared.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
#else
import Foundation

/// Built without libFuzzer (an ordinary `swift build`): runs each file named on the command
/// line through the request path once, the way the fuzzer replays a saved input.
@main
enum FuzzReplay {
    static func main() {
        let files = CommandLine.arguments.dropFirst()
        guard !files.isEmpty else {
            print("usage: datatabled-fuzz FILE... (scripts/fuzz builds it with libFuzzer and runs it)")
            exit(2)
        }
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                print("cannot read \(file)")
                exit(1)
            }
            RequestFuzzer.shared.run(Array(data))
            print("\(file): answered")
        }
    }
}
#endif
