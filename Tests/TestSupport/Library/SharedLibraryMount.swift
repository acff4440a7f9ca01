import Testing

/// One mount of the test library for a whole suite whose tests only read it (none changes the
/// source or the cache, none ends the mount): made once before the suite's first test, unmounted
/// and checked (`Mount.finish()`) once its last has run, torn down in every case. Each copy of
/// the library and each daemon costs a `make test` a few seconds; a suite of read-only tests
/// needs one.
///
///     @Suite(.mounts, .sharedLibraryMount("thumbs")) struct ThumbsTests {
///         @Test func … { let library = try LibraryMount.shared … }
///     }
///
/// A test that changes what it reads, counts what the mount made, or ends the mount keeps a
/// mount of its own (`LibraryMount.with`). Tests of the suite may run at once, as usual.
public struct SharedLibraryMount: SuiteTrait, TestScoping {
    let name: String
    let arguments: [String]
    let prepare: @Sendable (String) throws -> Void

    public var isRecursive: Bool { false }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        let folder = try TempFolder(name)
        defer { folder.remove() }
        let source = try folder.copyOfLibrary()
        try prepare(source)
        let mount = try Mount(source: source, point: try folder.makeFolder("mnt"), log: folder.path("mediafs.log"),
                              arguments: arguments)
        defer { mount.teardown() }
        try await LibraryMount.$current.withValue(LibraryMount(folder: folder, source: source, mount: mount)) {
            try await function()
        }
        try mount.finish()
    }
}

extension Trait where Self == SharedLibraryMount {
    /// A mount of a copy of the test library for the suite's tests to share, made with
    /// `arguments`; `prepare` changes the copy before it is mounted.
    public static func sharedLibraryMount(_ name: String, arguments: [String] = [],
                                          prepare: @escaping @Sendable (String) throws -> Void = { _ in }) -> Self {
        SharedLibraryMount(name: name, arguments: arguments, prepare: prepare)
    }
}

extension LibraryMount {
    /// The suite's shared mount, set while a suite with `.sharedLibraryMount` runs.
    @TaskLocal static var current: LibraryMount?

    /// The mount the suite's tests share (`SharedLibraryMount`).
    /// - Throws: `HarnessError` outside a suite with the `.sharedLibraryMount` trait.
    public static var shared: LibraryMount {
        get throws {
            guard let current else { throw HarnessError("no shared mount: the suite has no .sharedLibraryMount trait") }
            return current
        }
    }
}
