import CAV

extension StreamDescriber {
    /// Fills a video stream's colour fields, `hdr` and `dolbyVision` from its codec parameters and
    /// side data.
    static func describeColor(_ stream: UnsafeMutablePointer<AVStream>, into result: inout MediaInfo.Stream) {
        let color = ColorDescription(stream.pointee.codecpar.pointee)
        result.colorRange = color.rangeName
        result.colorSpace = color.spaceName
        result.colorTransfer = color.transferName
        result.colorPrimaries = color.primariesName
        result.dolbyVision = dolbyVision(stream)
        result.hdr = hdr(transfer: color.hdrTransfer, dolbyVision: result.dolbyVision)
    }

    /// Dolby Vision where the stream has its configuration record, else the transfer's kind.
    static func hdr(transfer: HDRTransfer?, dolbyVision: MediaInfo.DolbyVision?) -> MediaInfo.HDR? {
        if dolbyVision != nil { return .dolbyVision }
        switch transfer {
        case .pq: return .pq
        case .hlg: return .hlg
        case nil: return nil
        }
    }

    /// The stream's Dolby Vision configuration record, if it has one. The corresponding C function
    /// is `av_stream_get_side_data` (`AV_PKT_DATA_DOVI_CONF`).
    static func dolbyVision(_ stream: UnsafeMutablePointer<AVStream>) -> MediaInfo.DolbyVision? {
        var size: Int = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DOVI_CONF, &size),
              size >= MemoryLayout<AVDOVIDecoderConfigurationRecord>.size else { return nil }
        let record = UnsafeRawPointer(data).loadUnaligned(as: AVDOVIDecoderConfigurationRecord.self)
        return MediaInfo.DolbyVision(profile: Int(record.dv_profile), level: Int(record.dv_level),
                                     rpu: record.rpu_present_flag != 0, el: record.el_present_flag != 0,
                                     bl: record.bl_present_flag != 0,
                                     blCompatibilityId: Int(record.dv_bl_signal_compatibility_id))
    }
}
