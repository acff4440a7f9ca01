import Glibc

/// glibc's `setxattr` and `removexattr` (sys/xattr.h, which Swift's Glibc module does not import),
/// for tests that try to write attributes: -1 with `errno` set on failure, as the C calls.
public enum ExtendedAttributeCalls {
    public static func set(_ name: String, of path: String, to value: [UInt8]) -> Int32 {
        value.withUnsafeBytes { setxattr(path, name, $0.baseAddress, $0.count, 0) }
    }

    public static func remove(_ name: String, of path: String) -> Int32 {
        removexattr(path, name)
    }

    nonisolated(unsafe) private static let setxattr: @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32 =
        symbol("setxattr")
    nonisolated(unsafe) private static let removexattr: @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32 =
        symbol("removexattr")

    private static func symbol<F>(_ name: String) -> F {
        guard let symbol = dlsym(nil, name) else { fatalError("no \(name) in the C library") }
        return unsafeBitCast(symbol, to: F.self)
    }
}
