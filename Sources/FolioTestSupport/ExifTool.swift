import Foundation

/// Phil Harvey's exiftool (Debian's libimage-exiftool-perl), the tool photographers' own software
/// is checked against: the tests write IPTC, XMP and sidecars with it rather than by hand.
public enum ExifTool {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs exiftool with `arguments` and answers what it printed.
    @discardableResult
    public static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaints = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "exiftool \(arguments.joined(separator: " ")): \(String(decoding: complaints, as: UTF8.self))")
        }
        return String(decoding: printed, as: UTF8.self)
    }

    /// Writes tags into `file` in place: `["IPTC:City": "Porto", "XMP-dc:Subject": "a"]`; a tag
    /// given several values (keywords) takes them all.
    public static func write(_ tags: [(String, String)], to file: URL, options: [String] = []) throws {
        try run(options + ["-overwrite_original", "-q"] + tags.map { "-\($0.0)=\($0.1)" } + [file.path])
    }
}
