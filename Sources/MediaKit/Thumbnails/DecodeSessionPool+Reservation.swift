extension DecodeSessionPool {
    /// A claim on the busy budget, given back with `release(_:)`.
    struct Reservation: Sendable {
        let bytes: Int
        /// How many sessions were decoding when it was granted (this one not counted), those that
        /// yield to it left out: they hold still while it decodes.
        let othersBusy: Int
        /// Whether sessions that yield were decoding when it was granted.
        let besideYielding: Bool
        /// Bytes of the budget left when it was granted (its own counted).
        let room: Int
        /// Whether its session yields to the others (`reserveIfFree(_:yields:)`).
        let yields: Bool

        /// The threads for a decoder woken under it, whose frame threads would take `growth` more
        /// bytes than reserved: frame threads help only while the cores are otherwise free (beside
        /// other decoders they add frames, memory, and no speed); beside sessions that yield,
        /// which hold still meanwhile, the cores are free, and it gets them where their frames fit
        /// in what is left of the budget. Else one.
        func decoderThreads(growth: Int) -> Int {
            othersBusy == 0 && (!besideYielding || growth <= room) ? VideoDecoder.maxThreads : 1
        }

        /// The same claim, of `newBytes` now (`DecodeSessionPool.resize(_:to:)`).
        func resized(to newBytes: Int) -> Reservation {
            Reservation(bytes: newBytes, othersBusy: othersBusy, besideYielding: besideYielding,
                        room: room - (newBytes - bytes), yields: yields)
        }
    }
}
