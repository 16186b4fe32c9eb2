import Foundation

/// Clips made by the `ffmpeg` command line (Debian's ffmpeg, which `scripts/setup.sh` installs),
/// as a phone or camera would write them: H.264 or HEVC, turned by a display matrix, dated and
/// placed by their container's tags, with or without sound. Folio itself never runs ffmpeg;
/// tests do, to make inputs Folio's own code did not make.
public enum VideoTools {
    public enum Codec: String, Sendable {
        case h264 = "libx264", hevc = "libx265", theora = "libtheora", vp9 = "libvpx-vp9"
        /// Lossless, its frame size told only by the container: what a header can lie about.
        case ffv1
    }

    /// A clip of ffmpeg's moving test picture. `blackSeconds` of black come first (a fade in from
    /// a lens cap); `rotation` (clockwise degrees) is written as the display matrix, as phones do;
    /// `pixelAspect` ("4/3") makes the pixels wider than tall, as camcorders' are;
    /// `tags` are container metadata (`creation_time`, `location`, `title`).
    public static func clip(codec: Codec = .h264, width: Int = 320, height: Int = 240, seconds: Double = 2,
                            frames: Int? = nil, rate: Int = 25, audio: Bool = true, blackSeconds: Double = 0,
                            rotation: Int = 0, pixelAspect: String? = nil, tags: [String: String] = [:],
                            fileExtension: String = "mp4") throws -> Data {
        try PhotoTools.inTemporaryFolder { folder in
            let made = folder.appendingPathComponent("made.\(fileExtension)")
            let size = "\(width)x\(height)"
            var arguments = ["-v", "error", "-y"]
            var picture = "testsrc2=size=\(size):rate=\(rate):duration=\(seconds)"
            if blackSeconds > 0 {
                arguments += ["-f", "lavfi", "-i", "color=black:size=\(size):rate=\(rate):duration=\(blackSeconds)"]
                picture = "testsrc2=size=\(size):rate=\(rate):duration=\(seconds)"
            }
            arguments += ["-f", "lavfi", "-i", picture]
            if audio { arguments += ["-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds + blackSeconds)"] }
            if blackSeconds > 0 {
                arguments += ["-filter_complex", "[0:v][1:v]concat=n=2:v=1,format=yuv420p[v]", "-map", "[v]"]
                if audio { arguments += ["-map", "2:a"] }
            } else {
                arguments += ["-pix_fmt", "yuv420p"]
                // Anamorphic, as HDV and DV camcorders store their frames.
                if let pixelAspect { arguments += ["-vf", "setsar=\(pixelAspect)"] }
            }
            arguments += ["-c:v", codec.rawValue]
            if codec == .hevc { arguments += ["-x265-params", "log-level=error", "-tag:v", "hvc1"] }
            if let frames { arguments += ["-frames:v", "\(frames)"] }
            if audio { arguments += ["-c:a", fileExtension == "ogv" || fileExtension == "webm" ? "libvorbis" : "aac", "-shortest"] }
            for (key, value) in tags.sorted(by: { $0.key < $1.key }) { arguments += ["-metadata", "\(key)=\(value)"] }
            // Apple's keys (`com.apple.quicktime.…`) go in the `keys`/`ilst` boxes iPhones write.
            if tags.keys.contains(where: { $0.hasPrefix("com.apple.") }) { arguments += ["-movflags", "use_metadata_tags"] }
            try PhotoTools.run("ffmpeg", arguments + [made.path])
            guard rotation != 0 else { return try Data(contentsOf: made) }
            // ffmpeg 5 writes a display matrix from the stream's `rotate` tag when copying streams.
            let turned = folder.appendingPathComponent("turned.\(fileExtension)")
            try PhotoTools.run("ffmpeg", ["-v", "error", "-y", "-i", made.path, "-map", "0", "-c", "copy",
                                          "-metadata:s:v:0", "rotate=\(rotation)", turned.path])
            return try Data(contentsOf: turned)
        }
    }

    /// One frame of `video` as ffmpeg decodes it (turned upright by its display matrix, as players
    /// show it), as PNG: the reference a poster is compared with.
    public static func frame(_ number: Int, of video: Data, fileExtension: String = "mp4") throws -> Data {
        try PhotoTools.inTemporaryFolder { folder in
            let input = folder.appendingPathComponent("in.\(fileExtension)"), output = folder.appendingPathComponent("frame.png")
            try video.write(to: input)
            try PhotoTools.run("ffmpeg", ["-v", "error", "-y", "-i", input.path, "-vf", "select=eq(n\\,\(number))",
                                          "-frames:v", "1", output.path])
            return try Data(contentsOf: output)
        }
    }

    /// What ffprobe says of a video: its streams' and its container's fields, `key=value` lines.
    public static func probe(_ url: URL) throws -> [String: String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        process.arguments = ["-v", "error", "-show_streams", "-show_format", url.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // Each block's fields, named by what it is: "video.codec_name", "audio.codec_name",
        // "format.duration", "format.TAG:location"; the first stream of a kind wins.
        var fields: [String: String] = [:]
        var block: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            if line == "[/STREAM]" || line == "[/FORMAT]" {
                let prefix = line == "[/FORMAT]" ? "format" : block["codec_type"] ?? "stream"
                for (key, value) in block where fields["\(prefix).\(key)"] == nil { fields["\(prefix).\(key)"] = value }
                block = [:]
            } else if let equals = line.firstIndex(of: "=") {
                block[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
        }
        return fields
    }
}
