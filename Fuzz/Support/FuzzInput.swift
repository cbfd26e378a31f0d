import CFuzzerDriver
import Dispatch
import Foundation

/// What every fuzz target does with libFuzzer's bytes: text, pieces, and a way to wait for async library calls.
///
/// libFuzzer calls `LLVMFuzzerTestOneInput` synchronously, one input at a time, and counts a crash, a trap or an
/// ASan report as a finding; a thrown (typed) error is the library refusing the input, which is what we want.
public enum FuzzInput {
    /// The bytes as text, invalid UTF-8 repaired (the tool reads its files the same way or refuses them).
    public static func text(_ data: UnsafeRawBufferPointer) -> String {
        String(decoding: data, as: UTF8.self)
    }

    /// The bytes, copied out of libFuzzer's buffer.
    public static func bytes(_ data: UnsafeRawBufferPointer) -> Data {
        Data(data)
    }

    /// The input cut at NUL bytes (which no XML, script or map file contains), at most `limit` pieces: how one
    /// input carries several documents or several arguments.
    public static func pieces(_ data: UnsafeRawBufferPointer, limit: Int) -> [Data] {
        var result: [Data] = []
        var start = 0
        for (i, byte) in data.enumerated() where byte == 0 && result.count < limit - 1 {
            result.append(Data(data[start..<i]))
            start = i + 1
        }
        result.append(Data(data[start...]))
        return result
    }

    /// Runs `work` to completion and returns its result, blocking the calling (libFuzzer's) thread.
    public static func wait<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task {
            box.value = await work()
            done.signal()
        }
        done.wait()
        return box.value!
    }
}

/// Hands a value from the task to the waiting thread; the semaphore orders the write before the read.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}

/// Starts libFuzzer on a target's test function, with the process's command line (`-max_total_time=30 CORPUS`).
public enum FuzzDriver {
    public static func run(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
    }
}
