import Foundation

/// Real tools that make and tag photo files, run the way a photographer's software would:
/// `heif-enc` (Debian's libheif-examples) turns a JPEG into a HEIC, and `exiftool` (Debian's
/// libimage-exiftool-perl) writes EXIF into any format. `scripts/setup.sh` installs both; a test
/// that needs one fails with this error when it is missing rather than passing without it.
public enum PhotoTools {
    public struct ToolError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The JPEG as a HEIC, its EXIF (orientation, date, GPS) carried over by heif-enc.
    public static func heic(fromJPEG jpeg: Data, quality: Int = 70) throws -> Data {
        try heifEnc(jpeg, named: "photo.jpg", quality: quality)
    }

    /// `image` (named so heif-enc knows its format) encoded by heif-enc.
    static func heifEnc(_ image: Data, named name: String, quality: Int) throws -> Data {
        try inTemporaryFolder { folder in
            let input = folder.appendingPathComponent(name), output = folder.appendingPathComponent("photo.heic")
            try image.write(to: input)
            try run("heif-enc", ["-q", "\(quality)", "-o", output.path, input.path])
            return try Data(contentsOf: output)
        }
    }

    /// The file with `tags` written by exiftool, e.g. `["-Orientation#=6", "-Make=Acme"]`.
    /// `fileExtension` tells exiftool the format, as a file's name would.
    public static func exiftool(_ tags: [String], on data: Data, fileExtension: String) throws -> Data {
        try inTemporaryFolder { folder in
            let file = folder.appendingPathComponent("photo.\(fileExtension)")
            try data.write(to: file)
            try run("exiftool", ["-q", "-q", "-overwrite_original"] + tags + [file.path])
            return try Data(contentsOf: file)
        }
    }

    /// The tags a camera writes, as exiftool arguments: orientation, when, what, where.
    public static func cameraTags(orientation: Int? = nil, taken: String? = nil, make: String? = nil, model: String? = nil,
                                  latitude: Double? = nil, longitude: Double? = nil) -> [String] {
        var tags: [String] = []
        if let orientation { tags.append("-Orientation#=\(orientation)") }
        if let taken { tags.append("-DateTimeOriginal=\(taken)") }
        if let make { tags.append("-Make=\(make)") }
        if let model { tags.append("-Model=\(model)") }
        if let latitude {
            tags += ["-GPSLatitude=\(abs(latitude))", "-GPSLatitudeRef=\(latitude < 0 ? "S" : "N")"]
        }
        if let longitude {
            tags += ["-GPSLongitude=\(abs(longitude))", "-GPSLongitudeRef=\(longitude < 0 ? "W" : "E")"]
        }
        return tags
    }

    static func run(_ tool: String, _ arguments: [String]) throws {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let path = paths.map({ "\($0)/\(tool)" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw ToolError(description: "\(tool) is not installed: run scripts/setup.sh")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolError(description: "\(tool) \(arguments.joined(separator: " ")) failed: \(String(decoding: message, as: UTF8.self))")
        }
    }

    static func inTemporaryFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-tools-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }
}
