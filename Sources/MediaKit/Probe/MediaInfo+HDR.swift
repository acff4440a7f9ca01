extension MediaInfo {
    /// The high dynamic range of a video stream, as `info.json` names it.
    public enum HDR: String, Codable, Sendable {
        /// SMPTE ST 2084 transfer (HDR10, HDR10+).
        case pq = "PQ"
        /// ARIB STD-B67 transfer, hybrid log-gamma.
        case hlg = "HLG"
        /// A Dolby Vision configuration record in the stream's side data (its base layer, if any,
        /// is in `DolbyVision.compatibleBaseLayer`).
        case dolbyVision = "Dolby Vision"
    }

    /// A stream's Dolby Vision decoder configuration record (`dvcC`/`dvvC` in MP4, the block
    /// addition mapping in Matroska): ffprobe's `dv_*` fields, named as `info.json` gives them.
    /// The corresponding C type is `AVDOVIDecoderConfigurationRecord` (stream side data
    /// `AV_PKT_DATA_DOVI_CONF`).
    ///
    /// Probes kept in the cache database before these names (`rpuPresent`, `elPresent`,
    /// `blPresent`, `blSignalCompatibilityId`) decode too.
    public struct DolbyVision: Codable, Sendable, Equatable {
        /// `dv_profile`: 5 (no compatible base layer), 7 (dual layer, HDR10 base), 8 (single
        /// layer, HDR10, SDR or HLG base), 9 (AVC, SDR base), 10 (AV1).
        public var profile: Int
        public var level: Int
        /// `rpu_present_flag`, `el_present_flag`, `bl_present_flag`: whether the stream has
        /// RPUs, an enhancement layer and a base layer.
        public var rpu: Bool
        public var el: Bool
        public var bl: Bool
        /// `dv_bl_signal_compatibility_id`: 0 none, 1 HDR10, 2 SDR, 4 HLG, 6 HDR10 (Blu-ray).
        public var blCompatibilityId: Int
        /// What a player without Dolby Vision shows, from the compatibility id.
        public var compatibleBaseLayer: BaseLayer

        public init(profile: Int, level: Int, rpu: Bool, el: Bool, bl: Bool, blCompatibilityId: Int) {
            self.profile = profile
            self.level = level
            self.rpu = rpu
            self.el = el
            self.bl = bl
            self.blCompatibilityId = blCompatibilityId
            compatibleBaseLayer = bl ? BaseLayer(compatibilityId: blCompatibilityId) : .incompatible
        }

        private enum CodingKeys: String, CodingKey {
            case profile, level, rpu, el, bl, blCompatibilityId, compatibleBaseLayer
        }

        /// The names of the flags in probes kept before they were renamed.
        private enum EarlierKeys: String, CodingKey {
            case rpuPresent, elPresent, blPresent, blSignalCompatibilityId
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let earlier = try decoder.container(keyedBy: EarlierKeys.self)
            func either<T: Decodable>(_ key: CodingKeys, _ old: EarlierKeys) throws -> T {
                try c.decodeIfPresent(T.self, forKey: key) ?? earlier.decode(T.self, forKey: old)
            }
            self.init(profile: try c.decode(Int.self, forKey: .profile), level: try c.decode(Int.self, forKey: .level),
                      rpu: try either(.rpu, .rpuPresent), el: try either(.el, .elPresent), bl: try either(.bl, .blPresent),
                      blCompatibilityId: try either(.blCompatibilityId, .blSignalCompatibilityId))
        }
    }

    /// The kind of picture a Dolby Vision stream's base layer is, for players without Dolby Vision.
    public enum BaseLayer: String, Codable, Sendable {
        case hdr10 = "HDR10"
        case sdr = "SDR"
        case hlg = "HLG"
        /// None that can be shown without Dolby Vision's reshaping (profile 5, IPTPQc2 colours,
        /// or an id this version does not know): written `none`.
        case incompatible = "none"

        /// The base layer a `dv_bl_signal_compatibility_id` names.
        public init(compatibilityId: Int) {
            switch compatibilityId {
            case 1, 6: self = .hdr10
            case 2: self = .sdr
            case 4: self = .hlg
            default: self = .incompatible
            }
        }
    }
}
