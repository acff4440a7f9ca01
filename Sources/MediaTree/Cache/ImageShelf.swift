/// Made pictures kept in the disk cache: each under its key's stable hash, with the frame it shows
/// (time and kind) as the entry's metadata. A kept file is served only when it is the length its
/// key says (the disk cache has checked its checksum).
struct ImageShelf: MadeShelf {
    let cache: DiskCache

    func load(_ key: MadeKey) -> MadeBytes? {
        guard key.keptOnDisk, let entry = cache.read(key.diskKey), key.size.map({ $0 == entry.bytes.count }) ?? true else { return nil }
        let fields = (entry.meta ?? "").split(separator: " ")
        guard fields.count == 2, let bits = UInt64(fields[0], radix: 16) else { return MadeBytes(bytes: entry.bytes) }
        return MadeBytes(bytes: entry.bytes, frame: ShownFrame(time: Double(bitPattern: bits), isKeyframe: fields[1] == "keyframe"))
    }

    func keep(_ made: MadeBytes, for key: MadeKey) {
        guard key.keptOnDisk else { return }
        let meta = made.frame.map { String($0.time.bitPattern, radix: 16) + ($0.isKeyframe ? " keyframe" : " frame") }
        cache.store(made.bytes, meta: meta, for: key.diskKey)
    }
}
