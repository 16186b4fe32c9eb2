import FolioCore
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads the photographer's fields from an XMP packet (embedded in a file, or a sidecar such as
/// Lightroom and darktable write), through Foundation's XML parser (libxml2). Properties are found
/// by namespace, whatever prefix the file gives them, written as elements or as attributes.
public enum XMPReader {
    static let embeddedPrefix = Array("http://ns.adobe.com/xap/1.0/\0".utf8)

    public enum Failure: Error, Equatable {
        case tooLarge(Int)
        case declaresEntities
        case notUTF8
        case malformed(String)
        /// Elements opened more than `ReadingLimits.nesting` deep, on this line.
        case tooDeep(line: Int)

        public var reason: String {
            switch self {
            case .tooLarge(let size): return "XMP of \(size) bytes is larger than the \(ReadingLimits.megabytes(ReadingLimits.xmpBytes)) Folio reads"
            case .declaresEntities: return "XMP with a document type declaration (XMP has none; entities could expand without end)"
            case .notUTF8: return "XMP that is not UTF-8 text"
            case .malformed(let detail): return "not readable XMP (\(detail))"
            case .tooDeep(let line): return "XMP whose elements nest more than \(ReadingLimits.nesting) deep (line \(line))"
            }
        }
    }

    public static func read(_ data: Data) -> Result<PhotoDescription, Failure> {
        guard data.count <= ReadingLimits.xmpBytes else { return .failure(.tooLarge(data.count)) }
        let data = withoutTrailingPadding(data)
        // No DTD, no entities to expand (a "billion laughs" packet is refused before parsing).
        if data.range(of: Data("<!DOCTYPE".utf8)) != nil || data.range(of: Data("<!ENTITY".utf8)) != nil {
            return .failure(.declaresEntities)
        }
        // Foundation's XML parser on Linux traps (killing the process) on some names that are not
        // valid UTF-8, whatever libxml2 made of them: such a packet never reaches it. Found by the
        // metadata fuzzer; XMP written by photo tools is UTF-8.
        guard String(data: data, encoding: .utf8) != nil else { return .failure(.notUTF8) }
        if let line = emptyProcessingInstruction(in: data) {
            return .failure(.malformed("line \(line): a processing instruction with nothing in it"))
        }
        let collector = XMPCollector()
        let parser = XMLParser(data: data)
        parser.delegate = collector
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        // Foundation's parser on Linux can answer true for a document cut short (setting only
        // parserError) or even without any error when elements are left open: both are checked here.
        let parsed = parser.parse()
        if let line = collector.tooDeep { return .failure(.tooDeep(line: line)) }
        if !parsed || parser.parserError != nil || collector.open != 0 || !collector.sawRoot {
            let code = (parser.parserError as NSError?)?.code
            let detail = collector.open != 0 || code == 5 ? "it ends before its elements close"
                : !collector.sawRoot ? "no XML element in it" : "XML error \(code ?? 0)"
            return .failure(.malformed("line \(max(1, parser.lineNumber)): \(detail)"))
        }
        return .success(collector.found)
    }

    /// An XMP date ("2023-10-06T08:30:29.12+02:00", "2023-10-06T08:30", "2023-10-06") as the wall
    /// clock reads it, as EXIF's dates are (`LocalDateTime`): its zone set aside, a missing time
    /// midnight. A year or a month alone says too little to date a photo by.
    static func wallTime(_ text: String) -> Date? {
        let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        let day = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard day.count == 3, let year = day[0], let month = day[1], let date = day[2] else { return nil }
        var time = [0, 0, 0]
        if parts.count == 2 {
            let clock = parts[1].prefix { $0.isNumber || $0 == ":" || $0 == "." }.split(separator: ":")
            for (index, part) in clock.prefix(3).enumerated() {
                guard let number = Int(part.prefix { $0.isNumber }) else { return nil }
                time[index] = number
            }
        }
        return LocalDateTime.date(from: "\(year):\(month):\(date) \(time[0]):\(time[1]):\(time[2])")
    }

    /// An XMP GPS coordinate ("48,51.502N", "48,51,30.1N", or degrees alone, "48.858N") as signed
    /// decimal degrees; nil when it is none or beyond `limit`.
    static func coordinate(_ text: String, limit: Double, negative: Character) -> Double? {
        guard let reference = text.last?.uppercased().first, "NSEW".contains(reference) else { return nil }
        let numbers = text.dropLast().split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard !numbers.isEmpty, numbers.count <= 3, !numbers.contains(nil) else { return nil }
        let parts = numbers.compactMap { $0 }
        let degrees = parts[0] + (parts.count > 1 ? parts[1] / 60 : 0) + (parts.count > 2 ? parts[2] / 3600 : 0)
        guard degrees.isFinite, degrees <= limit, parts.allSatisfy({ $0 >= 0 }) else { return nil }
        return reference == negative ? -degrees : degrees
    }

    /// The packet without the NULs and blanks after it: Apple Photos ends the packet it embeds
    /// with a NUL, which XML forbids and libxml2 stops at ("it ends before its elements close");
    /// exiftool and other readers take the packet as it is.
    static func withoutTrailingPadding(_ data: Data) -> Data {
        var end = data.endIndex
        while end > data.startIndex, [0x00, 0x20, 0x09, 0x0A, 0x0D].contains(data[end - 1]) { end -= 1 }
        return end == data.endIndex ? data : Data(data[data.startIndex..<end])
    }

    /// The line of the first processing instruction with no data (`<?xpacket?>`), if any: libxml2
    /// hands such a one to Foundation's parser as a null pointer, which it reads as a C string and
    /// crashes (found by the metadata fuzzer). XMP's own (`<?xpacket begin=…?>`) always have data.
    /// Whitespace alone counts as none. A `<?` inside a comment is looked at too: such XMP is refused
    /// rather than parsed, which loses nothing real.
    static func emptyProcessingInstruction(in data: Data) -> Int? {
        let bytes = [UInt8](data)
        let question = UInt8(ascii: "?"), close = UInt8(ascii: ">")
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        var line = 1
        var index = 0
        // One pass: an instruction runs to the first `?>`, where the search for the next one resumes.
        while index < bytes.count {
            if bytes[index] == 0x0A { line += 1 }
            guard bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count, bytes[index + 1] == question else {
                index += 1
                continue
            }
            let start = line
            var cursor = index + 2
            while cursor < bytes.count, !isBlank(bytes[cursor]), bytes[cursor] != question { cursor += 1 }  // the target
            var empty = true
            while cursor < bytes.count, !(bytes[cursor] == question && cursor + 1 < bytes.count && bytes[cursor + 1] == close) {
                if bytes[cursor] == 0x0A { line += 1 }
                if !isBlank(bytes[cursor]) { empty = false }
                cursor += 1
            }
            if empty { return start }
            index = cursor + 2
        }
        return nil
    }
}

/// The parser's delegate: follows the namespace prefixes in scope and gathers the values of the
/// properties Folio reads (simple text, or the `rdf:li` items of an Alt, Bag or Seq), and the
/// names of the faces in the MWG regions Lightroom, digiKam, Picasa and Apple Photos write.
private final class XMPCollector: NSObject, XMLParserDelegate {
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let dc = "http://purl.org/dc/elements/1.1/"
    static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
    static let iptcCore = "http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/"
    static let xmp = "http://ns.adobe.com/xap/1.0/"
    static let aux = "http://ns.adobe.com/exif/1.0/aux/"
    static let exifEX = "http://cipa.jp/exif/1.0/"
    static let lightroom = "http://ns.adobe.com/lightroom/1.0/"
    static let exif = "http://ns.adobe.com/exif/1.0/"
    static let regions = "http://www.metadataworkinggroup.com/schemas/regions/"
    static let tiff = "http://ns.adobe.com/tiff/1.0/"

    var found = PhotoDescription()
    /// Elements started and not yet ended, and whether there was any: what a complete document
    /// must end with.
    var open = 0
    var sawRoot = false
    /// The line of an element opened deeper than `ReadingLimits.nesting`, where the parsing
    /// stopped: no photo tool writes XMP this deep, and nothing in it is read.
    var tooDeep: Int?
    private var prefixes: [String: [String]] = [:]
    private var property: (namespace: String, name: String)?
    private var depth = 0
    private var items: [(language: String?, text: String)] = []
    private var language: String?
    private var text = ""
    /// Inside `mwg-rs:Regions`: the region being read (an `rdf:li` of its list, at `depth`), and
    /// which of its fields the text is.
    private var region: (depth: Int, name: String?, type: String?)?
    private var regionField: String?
    /// How good the date found so far is: 0 for DateTimeOriginal, 1 for DateCreated, 2 for CreateDate.
    private var takenRank = Int.max
    private var gps: (latitude: Double?, longitude: Double?) = (nil, nil)

    func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
        prefixes[prefix, default: []].append(namespaceURI)
    }

    func parser(_ parser: XMLParser, didEndMappingPrefix prefix: String) {
        _ = prefixes[prefix]?.popLast()
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        open += 1
        sawRoot = true
        guard open <= ReadingLimits.nesting else {
            if tooDeep == nil { tooDeep = max(1, parser.lineNumber) }
            parser.abortParsing()
            return
        }
        let namespace = namespaceURI ?? ""
        if let current = property, current.namespace == Self.regions {
            depth += 1
            startRegionElement(namespace, name, attributes: attributes)
            return
        }
        if property != nil {
            depth += 1
            if namespace == Self.rdf, name == "li" {
                language = attributes["xml:lang"]
                text = ""
            }
            return
        }
        if namespace == Self.rdf, name == "Description" {
            for (key, value) in attributes {
                let parts = key.split(separator: ":", maxSplits: 1).map(String.init)
                guard parts.count == 2, let uri = prefixes[parts[0]]?.last else { continue }
                store(namespace: uri, name: parts[1], items: [(nil, value)])
            }
        } else if Self.isRead(namespace, name) {
            property = (namespace, name)
            depth = 0
            items = []
            text = ""
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if property != nil { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        open -= 1
        guard let current = property else { return }
        if current.namespace == Self.regions, depth > 0 {
            endRegionElement(namespaceURI ?? "", name)
            depth -= 1
            return
        }
        if depth > 0 {
            if namespaceURI == Self.rdf, name == "li" { items.append((language, text)) }
            depth -= 1
            return
        }
        store(namespace: current.namespace, name: current.name, items: items.isEmpty ? [(nil, text)] : items)
        property = nil
    }

    private func takeDate(_ text: String?, rank: Int) {
        guard rank < takenRank, let date = text.flatMap(XMPReader.wallTime) else { return }
        found.taken = date
        takenRank = rank
    }

    /// A region is an `rdf:li` of the region list; its name and type are attributes of it or of
    /// the `rdf:Description` in it, or elements of either.
    private func startRegionElement(_ namespace: String, _ name: String, attributes: [String: String]) {
        if namespace == Self.rdf, name == "li", region == nil {
            region = (depth, nil, nil)
        }
        guard region != nil else { return }
        if namespace == Self.rdf, name == "li" || name == "Description" {
            for (key, value) in attributes {
                let parts = key.split(separator: ":", maxSplits: 1).map(String.init)
                guard parts.count == 2, prefixes[parts[0]]?.last == Self.regions else { continue }
                if parts[1] == "Name" { region?.name = value }
                if parts[1] == "Type" { region?.type = value }
            }
        } else if namespace == Self.regions, name == "Name" || name == "Type" {
            regionField = name
            text = ""
        }
    }

    private func endRegionElement(_ namespace: String, _ name: String) {
        if namespace == Self.regions, let field = regionField, name == field {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if field == "Name" { region?.name = value } else { region?.type = value }
            regionField = nil
        }
        guard let current = region, namespace == Self.rdf, name == "li", depth == current.depth else { return }
        // Faces and pets are who is in a photo; a focus point or a barcode is not.
        let name = current.name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if !name.isEmpty, ["face", "pet", ""].contains((current.type ?? "").lowercased()), !found.people.contains(name) {
            found.people.append(name)
        }
        region = nil
    }

    static func isRead(_ namespace: String, _ name: String) -> Bool {
        switch (namespace, name) {
        case (dc, "title"), (dc, "description"), (dc, "subject"), (dc, "creator"),
             (photoshop, "City"), (photoshop, "State"), (photoshop, "Country"), (photoshop, "Headline"),
             (iptcCore, "Location"), (xmp, "Rating"), (xmp, "Label"), (aux, "Lens"), (exifEX, "LensModel"),
             (lightroom, "hierarchicalSubject"), (regions, "Regions"), (exif, "DateTimeOriginal"), (photoshop, "DateCreated"),
             (xmp, "CreateDate"), (exif, "GPSLatitude"), (exif, "GPSLongitude"), (tiff, "Orientation"):
            return true
        default:
            return false
        }
    }

    private func store(namespace: String, name: String, items: [(language: String?, text: String)]) {
        let values = items.map { (language: $0.language, text: $0.text.trimmingCharacters(in: .whitespacesAndNewlines)) }
            .filter { !$0.text.isEmpty }
        // An Alt's default language first, as XMP says readers should.
        let first = (values.first { $0.language == "x-default" } ?? values.first)?.text
        switch (namespace, name) {
        case (Self.dc, "title"): found.title = first
        case (Self.dc, "description"): found.description = first
        case (Self.dc, "subject"): found.keywords = values.map(\.text)
        // Lightroom's keywords as paths ("Places|France|Paris"): their last words, when the
        // flat list (which Lightroom writes beside them) is not there.
        case (Self.lightroom, "hierarchicalSubject"):
            guard found.keywords.isEmpty else { break }
            for leaf in values.compactMap({ $0.text.split(separator: "|").last.map { $0.trimmingCharacters(in: .whitespaces) } })
            where !leaf.isEmpty && !found.keywords.contains(leaf) {
                found.keywords.append(leaf)
            }
        case (Self.xmp, "Label"): found.label = first
        case (Self.exif, "DateTimeOriginal"): takeDate(first, rank: 0)
        case (Self.photoshop, "DateCreated"): takeDate(first, rank: 1)
        case (Self.xmp, "CreateDate"): takeDate(first, rank: 2)
        case (Self.exif, "GPSLatitude"), (Self.exif, "GPSLongitude"):
            let isLatitude = name == "GPSLatitude"
            let value = first.flatMap { XMPReader.coordinate($0, limit: isLatitude ? 90 : 180, negative: isLatitude ? "S" : "W") }
            if isLatitude { gps.latitude = value } else { gps.longitude = value }
            if let latitude = gps.latitude, let longitude = gps.longitude { (found.latitude, found.longitude) = (latitude, longitude) }
        case (Self.dc, "creator"): found.creator = first
        case (Self.photoshop, "City"): found.city = first
        case (Self.photoshop, "State"): found.state = first
        case (Self.photoshop, "Country"): found.country = first
        case (Self.photoshop, "Headline"): found.headline = first
        case (Self.iptcCore, "Location"): found.sublocation = first
        // Lightroom's name for the lens over the EXIF schema's, whichever comes first.
        case (Self.aux, "Lens"): found.lens = first ?? found.lens
        case (Self.exifEX, "LensModel"): found.lens = found.lens ?? first
        case (Self.tiff, "Orientation"):
            found.orientation = first.flatMap { Int($0) }.flatMap { (1...8).contains($0) ? $0 : nil }
        case (Self.xmp, "Rating"):
            found.rating = first.flatMap(Double.init).flatMap { $0.isFinite ? Int(min(5, max(-1, $0.rounded()))) : nil }
        default: break
        }
    }
}
