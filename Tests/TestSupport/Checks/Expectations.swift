import Testing

/// Records an issue (with the command's output) when `result` did not exit 0; `result`.
@discardableResult
public func expectSuccess(_ result: CommandResult, _ what: String = "",
                          sourceLocation: SourceLocation = #_sourceLocation) -> CommandResult {
    #expect(result.succeeded, "\(what)\n\(result)", sourceLocation: sourceLocation)
    return result
}
