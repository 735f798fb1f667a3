import Foundation

#if FUZZING
    import CLibFuzzer
#endif

/// The fuzz target's program. Built by `scripts/fuzz` (with `-sanitize=fuzzer -DFUZZING`) it
/// hands its command line to libFuzzer's driver, which calls ``RequestFuzzer`` with each input.
/// Built plainly it runs each file named on the command line through the same request path
/// once, the way the fuzzer replays a saved input.
@main
enum FuzzEntry {
    static func main() {
        #if FUZZING
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(
                LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                    RequestFuzzer.shared.run(Array(UnsafeBufferPointer(start: data, count: size)))
                    return 0
                }
            )
        #else
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
        #endif
    }
}
