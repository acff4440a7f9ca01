import Foundation

/// Damage done to a cache folder while no mount uses it, as disks, crashes and people do it: to
/// every made file (`files/`), every track file (`tracks/`) and every row of the probe database
/// (probes, listing facts, chapter lists), and for `swapped` to the disk cache's index too; each
/// kind to its share of them (`applyAll(to:)`).
public enum CacheDamage: String, CaseIterable, Sendable {
    /// Each file and value cut to half its length.
    case cut
    /// One bit flipped in the middle of each.
    case bitFlipped
    /// Bytes appended to each.
    case appendedTo
    /// Files and values exchanged in pairs (the same length where there are such pairs): each
    /// whole and valid, under another's name; and index rows' names exchanged.
    case swapped
    /// Each file and value replaced by another whole one (of the same length where there is one).
    case replaced

    /// Does every kind of damage to the cache folder `folder` at once, each to its share of the
    /// files and of the rows (the i-th of each to kind i mod 5, the exchanges within each share).
    /// - Returns: how many files and rows were changed.
    /// - Throws: `HarnessError` when Python fails.
    @discardableResult
    public static func applyAll(to folder: String) throws -> (files: Int, rows: Int) {
        let kinds = allCases.map(\.rawValue)
        let result = try Command.run([Command.pythonPath, "-c", script, folder] + kinds, timeout: 60)
        guard result.succeeded else { throw HarnessError("damaging \(folder): \(result)") }
        let counts = result.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard counts.count == 2 else { throw HarnessError("damaging \(folder): \(result)") }
        return (counts[0], counts[1])
    }

    static let script = #"""
    import os, sqlite3, sys
    folder, kinds = sys.argv[1], sys.argv[2:]

    def damage(value, how):
        if how == "cut": return value[: len(value) // 2]
        if how == "bitFlipped":
            middle = len(value) // 2
            return value[:middle] + bytes([value[middle] ^ 0x10]) + value[middle + 1:] if value else value
        if how == "appendedTo": return value + b"\0mediafs" * 8
        return value

    def exchange(values, one_way):
        """New values for `values` (a list of bytes): paired with one of the same length where
        there is one, else with the next; swapped both ways, or replaced one way."""
        new = list(values)
        left = list(range(len(values)))
        while len(left) > 1:
            i = left.pop(0)
            j = next((k for k in left if len(values[k]) == len(values[i]) and values[k] != values[i]), left[0])
            left.remove(j)
            new[i] = values[j]
            if not one_way: new[j] = values[i]
        return new

    def damaged(values):
        """`values`, the i-th damaged by kinds[i % len(kinds)]."""
        new = list(values)
        for k, how in enumerate(kinds):
            share = list(range(k, len(values), len(kinds)))
            part = [values[i] for i in share]
            part = exchange(part, how == "replaced") if how in ("swapped", "replaced") else [damage(v, how) for v in part]
            for i, value in zip(share, part): new[i] = value
        return new

    paths = []
    for top in ("files", "tracks"):
        for root, _, names in os.walk(os.path.join(folder, top)):
            paths += [os.path.join(root, n) for n in sorted(names) if not n.startswith(".") and n != "manifest.json"]
    for path, content in zip(paths, damaged([open(p, "rb").read() for p in paths])):
        with open(path, "wb") as f: f.write(content)

    db = sqlite3.connect(os.path.join(folder, "probes.sqlite"))
    key = "device, inode, size, mtime_ns"
    rows = [(column,) + row for column in ("probe", "chapters", "listing")
            for row in db.execute(f"SELECT {key}, {column} FROM version WHERE {column} IS NOT NULL ORDER BY inode").fetchall()]
    for row, value in zip(rows, damaged([bytes(row[-1]) for row in rows])):
        db.execute(f"UPDATE version SET {row[0]} = ? WHERE device = ? AND inode = ? AND size = ? AND mtime_ns = ?",
                   (value,) + tuple(row[1:-1]))
    if "swapped" in kinds:
        names = db.execute("SELECT key, name FROM file WHERE kind = 'file' ORDER BY key").fetchall()
        for (k1, n1), (k2, n2) in zip(names[0::2], names[1::2]):
            db.execute("UPDATE file SET name = ? WHERE key = ?", (n2, k1))
            db.execute("UPDATE file SET name = ? WHERE key = ?", (n1, k2))
    db.commit()
    print(len(paths), len(rows))
    """#
}
