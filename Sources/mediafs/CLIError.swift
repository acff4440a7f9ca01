/// A failure the user can act on: printed as "mediafs: MESSAGE", exit status 1.
struct CLIError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
