/// Elements in one array whose emptied slots are filled again before it grows: an element's index
/// stays its own until it is emptied, so it can stand for the element (a file handle's number, a
/// cache entry's link) and be followed without hashing.
public struct SlotArray<Element> {
    private var elements: [Element] = []
    /// Slots emptied, filled again first.
    private var free: [Int] = []

    public init() {}

    /// How many slots there are, filled or empty.
    public var count: Int { elements.count }

    /// Puts `make`'s element in an emptied slot, or a new one; its index. `make` is given the
    /// element the slot held before, nil for a new slot (a generation carried over, say).
    public mutating func fill(_ make: (_ before: Element?) -> Element) -> Int {
        if let index = free.popLast() {
            elements[index] = make(elements[index])
            return index
        }
        elements.append(make(nil))
        return elements.count - 1
    }

    /// Marks slot `index` empty, to be filled again; what it holds stays until then (the caller
    /// drops what must not be kept).
    public mutating func empty(_ index: Int) { free.append(index) }

    public subscript(index: Int) -> Element {
        get { elements[index] }
        set { elements[index] = newValue }
    }
}
