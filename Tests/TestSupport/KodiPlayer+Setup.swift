import Foundation
import Glibc

/// Kodi's private home and its settings, and the loopback socket its JSON-RPC answers on.
extension KodiPlayer {
    /// HOME/.kodi/userdata with the settings the tests need, and HOME/.asoundrc.
    static func writeSettings(home: String, port: Int) throws {
        let userdata = home + "/.kodi/userdata"
        try FileManager.default.createDirectory(atPath: userdata, withIntermediateDirectories: true)
        let advanced = """
            <advancedsettings version="1.0">
              <loglevel>1</loglevel>
              <jsonrpc>
                <tcpport>\(port)</tcpport>
                <compactoutput>true</compactoutput>
              </jsonrpc>
            </advancedsettings>

            """
        // JSON-RPC over TCP on (its default), the web server, zeroconf, UPnP and add-on updates off,
        // the audio device ALSA's default (the null plugin, below). Kodi logs that it cannot load
        // this file (it lacks the `<resolutions>` Kodi writes) but takes these settings from it.
        let gui = """
            <settings version="2">
              <setting id="services.esenabled">true</setting>
              <setting id="services.esallinterfaces">false</setting>
              <setting id="services.webserver">false</setting>
              <setting id="services.zeroconf">false</setting>
              <setting id="services.upnp">false</setting>
              <setting id="general.addonupdates">2</setting>
              <setting id="audiooutput.audiodevice">ALSA:default</setting>
            </settings>

            """
        let asound = "pcm.!default { type null }\n"
        try advanced.write(toFile: userdata + "/advancedsettings.xml", atomically: true, encoding: .utf8)
        try gui.write(toFile: userdata + "/guisettings.xml", atomically: true, encoding: .utf8)
        try asound.write(toFile: home + "/.asoundrc", atomically: true, encoding: .utf8)
    }

    /// A TCP port of 127.0.0.1 free now (the kernel's pick for a socket bound to port 0).
    static func freePort() throws -> Int {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "no free TCP port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A socket connected to 127.0.0.1:`port`, or -1.
    static func connect(port: Int) -> Int32 {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var address = loopback(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { close(fd); return -1 }
        return fd
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(INADDR_LOOPBACK).bigEndian
        return address
    }

    static func read(_ path: String) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}
