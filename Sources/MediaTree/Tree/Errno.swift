import Glibc

/// A C error number, thrown where a system call failed.
struct Errno: Error, Equatable, CustomStringConvertible {
    var code: Int32
    init(_ code: Int32) { self.code = code }
    var description: String { String(cString: strerror(code)) }
}
