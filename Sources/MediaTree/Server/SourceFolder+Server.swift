import Dispatch
import MediaKit

/// A source folder in the server layout: its entries as in the other layout, every file shown as
/// itself (films too), and beside each film the entries of `ServerEntries.kinds`.
///
/// A name is the first film's where two films would make it (films in name order: `Film.mkv`
/// before `Film.mp4`), and a source entry's where the source has it (a film's own `Film.nfo`,
/// a sidecar of its own): the two ways of reaching an entry, listing and lookup, agree on that.
extension SourceFolder {
    /// The entries beside the films of this folder, whose names are `names` (all of them, sorted).
    /// Probes the films not probed yet, several at a time; makes nothing.
    /// - Throws: `Pending` where another thread probes one of them; `AtOnce.GaveUp`.
    func serverEntries(names: [Name], in tree: MediaTree) throws -> [DirectoryEntry] {
        let candidates = names.filter(MediaNames.isCandidate)
        let found = ParallelResults<[any ServerEntry]>(count: candidates.count, repeating: [])
        let waiting = FirstError()
        DispatchQueue.concurrentPerform(iterations: candidates.count) { i in
            guard let film = waiting.catching({ try tree.serverFilm(at: path.appending(candidates[i]), folder: key) }) else { return }
            found.set(i, to: ServerEntries.listed(beside: film, tree: tree))
        }
        try waiting.rethrow()
        var taken = Set(names)
        var entries: [DirectoryEntry] = []
        for entry in found.all.joined() {
            guard let name = entry.placement?.name, taken.insert(name).inserted,
                  let listed = try Pending.nilWhereFailing({ try entry.listedEntry(in: tree) }) else { continue }
            entries.append(listed)
        }
        return entries
    }

    /// The entry beside a film of this folder called `name` (not a source entry's name): probes
    /// only the films whose base name `name` starts with (`FolderNames.films(beside:)`). None for a
    /// name longer than a name may be, which is not listed either (`ServerEntries.listed`).
    /// - Throws: `Pending` where another thread probes a film it needs; `AtOnce.GaveUp`.
    func serverEntry(named name: Name, in tree: MediaTree) throws -> (any TreeNode)? {
        guard name.bytes.count <= Name.maximumBytes, let names = tree.folderNames(of: path), !names.all.contains(name) else {
            return nil
        }
        for file in names.films(beside: name) {
            guard let film = try tree.serverFilm(at: path.appending(file), folder: key) else { continue }
            for kind in ServerEntries.kinds {
                if let found = kind.resolve(name, beside: film, tree: tree) { return found }
            }
        }
        return nil
    }
}
