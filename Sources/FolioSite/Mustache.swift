import FolioCore
import Foundation

/// Folio's Mustache: a theme's templates parsed once, and pages drawn from them straight into
/// one string. It knows the values it is given (`TemplateValue`s, as `TemplateEncoder` makes
/// them), so drawing a page asks no value what it is by protocol or cast, splits
/// no name and makes no string per tag. The spec's interpolation, sections, inverted sections,
/// comments, set delimiters, partials (standalone ones indented) and inheritance (`{{<parent}}`,
/// `{{$block}}`); a name no value holds draws nothing, lambdas are not called.
public struct TemplateLibrary: Sendable {
    private var templates: [String: [TemplateNode]] = [:]

    public init() {}

    /// A template that does not parse, and where.
    public struct SyntaxError: Error, Sendable, Equatable {
        public var line: Int
        public var column: Int
        public var reason: String
    }

    /// Parses `text` as the template `name`, in place of any of that name.
    public mutating func register(_ text: String, named name: String) throws(SyntaxError) {
        var parser = TemplateParser(text)
        templates[name] = try parser.parse()
    }

    public func has(_ name: String) -> Bool { templates[name] != nil }

    /// Sections, partials, parents and blocks drawn inside one another deeper than
    /// `ReadingLimits.nesting` (a template's own sections are fewer: `TemplateParser`): a partial
    /// that includes itself, with nothing in the values to end it.
    public struct TooDeep: Error, Sendable, Equatable {
        /// The template being drawn when the drawing would have gone deeper.
        public var template: String
    }

    /// The template `name` drawn with `values` at the top of the context; nil when there is no such template.
    func render(_ values: TemplateValue, template name: String) throws(TooDeep) -> String? {
        guard let nodes = templates[name] else { return nil }
        var drawing = TemplateDrawing(library: self, stack: [values])
        drawing.draw(nodes)
        if drawing.tooDeep { throw TooDeep(template: drawing.tooDeepIn ?? name) }
        return drawing.out
    }

    fileprivate func nodes(_ name: String) -> [TemplateNode]? { templates[name] }
}

/// A name as a tag spells it, cut at its dots once, when the template is parsed.
struct TemplateName: Sendable, Equatable {
    /// Empty for `.`, the value in hand.
    var parts: [String]
    /// `.name`: looked up in the value in hand alone, not up the context.
    var anchored = false
    /// Whether it is all ASCII, as names nearly always are: shorter names are not it
    /// (`TemplateObject.child(named:ascii:)`).
    var ascii: Bool

    init(_ text: Substring) {
        ascii = text.utf8.allSatisfy { $0 < 0x80 }
        if text == "." {
            parts = []
        } else {
            anchored = text.hasPrefix(".")
            parts = text.split(separator: ".", omittingEmptySubsequences: false).dropFirst(anchored ? 1 : 0).map(String.init)
        }
    }
}

indirect enum TemplateNode: Sendable, Equatable {
    case text(String)
    case value(TemplateName, escaped: Bool)
    case section(TemplateName, [TemplateNode])
    case inverted(TemplateName, [TemplateNode])
    /// A partial, and the whitespace before it when it stands alone on its line.
    case partial(String, indentation: String)
    /// `{{<parent}}`: the parent template drawn with these blocks in place of its own.
    case parent(String, indentation: String, blocks: [String: [TemplateNode]])
    /// `{{$block}}`: where a block goes, with what goes there when no template that includes
    /// this one gives it.
    case block(String, [TemplateNode])
}

/// One drawing of a page: the string it goes into, the context, the blocks given from above,
/// and the indentation of the standalone partials it is inside.
private struct TemplateDrawing {
    let library: TemplateLibrary
    var stack: [TemplateValue]
    var out = ""
    var blocks: [String: [TemplateNode]] = [:]
    /// What each line of the partial being drawn starts with (a template's own lines: a value's
    /// line breaks are not indented).
    var indentation = ""
    var atLineStart = true
    /// The lists of nodes being drawn, one inside another (each a call). Going past the limit
    /// ends the drawing (`tooDeep`); the first partial or parent left on the way out is the template
    /// that was being drawn (`tooDeepIn`), or else the page's own.
    var depth = 0
    var tooDeep = false
    var tooDeepIn: String?

    init(library: TemplateLibrary, stack: [TemplateValue]) {
        self.library = library
        self.stack = stack
        out.reserveCapacity(16 * 1024)
    }

    mutating func draw(_ nodes: [TemplateNode]) {
        guard depth < ReadingLimits.nesting else {
            tooDeep = true
            return
        }
        depth += 1
        for node in nodes where !tooDeep { draw(node) }
        depth -= 1
    }

    mutating func draw(_ node: TemplateNode) {
        switch node {
        case .text(let text):
            if atLineStart, !indentation.isEmpty { out += indentation }
            out += text
            atLineStart = text.utf8.last == UInt8(ascii: "\n")
        case .value(let name, let escaped):
            guard let value = lookUp(name) else { return }
            if atLineStart, !indentation.isEmpty {
                var piece = ""
                if escaped { Self.escape(value, into: &piece) } else { Self.write(value, into: &piece) }
                if piece.isEmpty { return }
                out += indentation
                out += piece
            } else if escaped {
                Self.escape(value, into: &out)
            } else {
                Self.write(value, into: &out)
            }
            atLineStart = false
        case .section(let name, let nodes):
            switch lookUp(name) {
            case nil:
                return
            case .list(let list)?:
                for item in list { drawWith(item, nodes) }
            case .flag(let flag)?:
                if flag { draw(nodes) }
            case let value?:
                drawWith(value, nodes)
            }
        case .inverted(let name, let nodes):
            switch lookUp(name) {
            case nil: draw(nodes)
            case .list(let list)?: if list.isEmpty { draw(nodes) }
            case .flag(let flag)?: if !flag { draw(nodes) }
            case .some: return
            }
        case .partial(let name, let indented):
            guard let nodes = library.nodes(name) else { return }
            drawIndented(nodes, indented)
            if tooDeep, tooDeepIn == nil { tooDeepIn = name }
        case .parent(let name, let indented, let given):
            guard let nodes = library.nodes(name) else { return }
            // Blocks given from further out win over this template's own.
            let kept = blocks
            blocks = given.merging(kept) { _, outer in outer }
            drawIndented(nodes, indented)
            if tooDeep, tooDeepIn == nil { tooDeepIn = name }
            blocks = kept
        case .block(let name, let fallback):
            draw(blocks[name] ?? fallback)
        }
    }

    private mutating func drawWith(_ value: TemplateValue, _ nodes: [TemplateNode]) {
        stack.append(value)
        draw(nodes)
        stack.removeLast()
    }

    /// A partial's lines each start with the whitespace it stood after, alone on its line (its
    /// first line's is written already, before the tag).
    private mutating func drawIndented(_ nodes: [TemplateNode], _ indented: String) {
        guard !indented.isEmpty else { return draw(nodes) }
        let outer = indentation
        indentation += indented
        atLineStart = false
        draw(nodes)
        indentation = outer
    }

    /// The value a name names: its first part the nearest in the context that holds it, the
    /// rest looked up in that alone; nil when none does, or a value is an explicit nil.
    private func lookUp(_ name: TemplateName) -> TemplateValue? {
        guard let first = name.parts.first else { return stack.last.flatMap(Self.present) }
        var value: TemplateValue
        if name.anchored {
            guard let found = stack.last.flatMap({ Self.child(first, of: $0, ascii: name.ascii) }) else { return nil }
            value = found
        } else {
            var found: TemplateValue?
            for object in stack.reversed() {
                if let child = Self.child(first, of: object, ascii: name.ascii) {
                    found = child
                    break
                }
            }
            guard let found else { return nil }
            value = found
        }
        for part in name.parts.dropFirst() {
            guard let child = Self.child(part, of: value, ascii: name.ascii) else { return nil }
            value = child
        }
        return Self.present(value)
    }

    private static func child(_ name: String, of value: TemplateValue, ascii: Bool) -> TemplateValue? {
        guard case .object(let object) = value else { return nil }
        return object.child(named: name, ascii: ascii)
    }

    /// A value, unless it is an explicit nil (an absent optional in a list).
    private static func present(_ value: TemplateValue) -> TemplateValue? {
        if case .null = value { return nil }
        return value
    }

    private static func write(_ value: TemplateValue, into out: inout String) {
        switch value {
        case .text(let text), .markup(let text): out += text
        case .number(let number): out += String(number)
        case .real(let number): out += String(describing: number)
        case .flag(let flag): out += flag ? "true" : "false"
        case .object(let object): out += String(describing: object)
        case .list(let list): out += String(describing: list)
        case .null: return
        }
    }

    /// HTML-escaped (`HTMLText`): `& < > " '`.
    private static func escape(_ value: TemplateValue, into out: inout String) {
        var text: String
        switch value {
        case .text(let value): text = value
        case .markup(let html): return out += html
        case .number, .real, .flag, .null: return write(value, into: &out)
        case .object, .list:
            text = ""
            write(value, into: &text)
        }
        HTMLText.escape(text, into: &out)
    }
}

/// Reads a template's text into nodes, as the spec says: tags between the delimiters (`{{ }}`
/// until a `{{=<% %>=}}` changes them), and a line that holds nothing but one section, inverted
/// section, closing, comment, partial, parent, block or delimiter tag and whitespace leaves no
/// trace of itself in the output.
private struct TemplateParser {
    let bytes: [UInt8]
    var at = 0
    var open: [UInt8] = Array("{{".utf8)
    var close: [UInt8] = Array("}}".utf8)
    /// Where the last tag ended: a tag after another on its line does not stand alone.
    var lastTagEnd = -1

    /// A tag opened and not yet closed, where, and the nodes inside it so far.
    struct Open {
        enum Kind { case section, inverted, parent, block }
        var kind: Kind
        var name: Substring
        var nodes: [TemplateNode] = []
        var indentation = ""
        var offset: Int
    }

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// The tags open around where the parser is, the template itself first.
    var stack = [Open(kind: .section, name: "", offset: 0)]
    /// The start of the line a tag is on, known up to `scanned`: tags come in order, so the text
    /// is looked through once, however long its lines.
    var lineStart = 0
    var scanned = 0
    /// Text read since the last tag or line break.
    var text: [UInt8] = []

    mutating func flush() {
        guard !text.isEmpty else { return }
        stack[stack.count - 1].nodes.append(.text(String(decoding: text, as: UTF8.self)))
        text.removeAll(keepingCapacity: true)
    }

    mutating func parse() throws(TemplateLibrary.SyntaxError) -> [TemplateNode] {
        while at < bytes.count {
            guard let tagStart = find(open, from: at) else {
                appendLines(at..<bytes.count)
                break
            }
            appendLines(at..<tagStart)
            let (bytes, start) = (self.bytes, tagStart)
            func failure(_ reason: String) -> TemplateLibrary.SyntaxError {
                let (line, column) = Self.position(of: start, in: bytes)
                return TemplateLibrary.SyntaxError(line: line, column: column, reason: reason)
            }
            var contentStart = tagStart + open.count
            guard contentStart < bytes.count else { throw failure("a tag is not closed") }
            let sigil = bytes[contentStart]
            let triple = sigil == UInt8(ascii: "{")
            let closing = triple ? [UInt8(ascii: "}")] + close : close
            if "#^/>!=&<${".utf8.contains(sigil) { contentStart += 1 }
            guard let contentEnd = find(closing, from: contentStart) else { throw failure("a tag is not closed") }
            var tagEnd = contentEnd + closing.count
            var content = Substring(decoding: bytes[contentStart..<contentEnd], as: UTF8.self)
            content = content.drop { $0 == " " || $0 == "\t" }
            while content.last == " " || content.last == "\t" { content = content.dropLast() }
            if sigil == UInt8(ascii: "=") {
                guard content.last == "=" else { throw failure("a delimiter tag must end with '='") }
                let parts = content.dropLast().split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard parts.count == 2 else { throw failure("a delimiter tag names two delimiters") }
            }

            // A tag that is not a value's stands alone on its line: the line leaves nothing.
            let interpolation = !"#^/>!=<$".utf8.contains(sigil)
            var indentation = ""
            let lineStart = lineStart(of: tagStart)
            if !interpolation, lastTagEnd <= lineStart, bytes[lineStart..<tagStart].allSatisfy(Self.isBlank),
               let lineEnd = endOfLine(after: tagEnd) {
                indentation = String(decoding: bytes[lineStart..<tagStart], as: UTF8.self)
                text.removeLast(tagStart - lineStart)
                tagEnd = lineEnd
            }
            lastTagEnd = tagEnd
            at = tagEnd
            if sigil != UInt8(ascii: "!") && sigil != UInt8(ascii: "=") && content.isEmpty { throw failure("a tag names nothing") }

            switch sigil {
            case UInt8(ascii: "!"):
                continue
            case UInt8(ascii: "="):
                let parts = content.dropLast().split(whereSeparator: { $0 == " " || $0 == "\t" })
                (open, close) = (Array(parts[0].utf8), Array(parts[1].utf8))
            case UInt8(ascii: "#"), UInt8(ascii: "^"), UInt8(ascii: "<"), UInt8(ascii: "$"):
                flush()
                let kind: Open.Kind = switch sigil {
                case UInt8(ascii: "#"): .section
                case UInt8(ascii: "^"): .inverted
                case UInt8(ascii: "<"): .parent
                default: .block
                }
                // Each level is a call when a page is drawn, the template itself the first.
                guard stack.count < ReadingLimits.nesting else {
                    throw failure("sections, parents and blocks nest more than \(ReadingLimits.nesting) deep, the template itself the first level")
                }
                stack.append(Open(kind: kind, name: content, indentation: indentation, offset: tagStart))
            case UInt8(ascii: "/"):
                flush()
                guard stack.count > 1, let inner = stack.last, inner.name == content else {
                    throw failure(stack.count > 1 ? "'{{/\(content)}}' closes '\(stack.last!.name)', opened at line \(Self.position(of: stack.last!.offset, in: bytes).line)"
                                                  : "'{{/\(content)}}' closes nothing")
                }
                stack.removeLast()
                let node: TemplateNode
                switch inner.kind {
                case .section: node = .section(TemplateName(inner.name), inner.nodes)
                case .inverted: node = .inverted(TemplateName(inner.name), inner.nodes)
                case .block: node = .block(String(inner.name), inner.nodes)
                case .parent:
                    var blocks: [String: [TemplateNode]] = [:]
                    for case .block(let name, let nodes) in inner.nodes { blocks[name] = nodes }
                    node = .parent(String(inner.name), indentation: inner.indentation, blocks: blocks)
                    // Its first line's indentation is written as text; the parent indents the rest.
                    if !inner.indentation.isEmpty { stack[stack.count - 1].nodes.append(.text(inner.indentation)) }
                }
                stack[stack.count - 1].nodes.append(node)
            case UInt8(ascii: ">"):
                flush()
                // Its first line's indentation is written as text; the partial indents the rest.
                if !indentation.isEmpty { stack[stack.count - 1].nodes.append(.text(indentation)) }
                stack[stack.count - 1].nodes.append(.partial(String(content), indentation: indentation))
            default:
                flush()
                stack[stack.count - 1].nodes.append(.value(TemplateName(content), escaped: !(triple || sigil == UInt8(ascii: "&"))))
            }
        }
        flush()
        guard stack.count == 1, let top = stack.first else {
            let unclosed = stack.last!
            let (line, column) = Self.position(of: unclosed.offset, in: bytes)
            throw TemplateLibrary.SyntaxError(line: line, column: column, reason: "'\(unclosed.name)' is never closed")
        }
        return top.nodes
    }

    /// Where the line `offset` is on starts; `offset` is never before one asked already.
    private mutating func lineStart(of offset: Int) -> Int {
        if let newline = bytes[scanned..<offset].lastIndex(of: UInt8(ascii: "\n")) { lineStart = newline + 1 }
        scanned = offset
        return lineStart
    }

    /// Text, cut after each line break: a standalone partial indents each line of its own.
    private mutating func appendLines(_ range: Range<Int>) {
        var start = range.lowerBound
        while let newline = bytes[start..<range.upperBound].firstIndex(of: UInt8(ascii: "\n")) {
            text += bytes[start...newline]
            flush()
            start = newline + 1
        }
        text += bytes[start..<range.upperBound]
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// Past the line break ending the line `from` is on, when only blanks come before it (or the end of the text).
    private func endOfLine(after from: Int) -> Int? {
        var at = from
        while at < bytes.count, Self.isBlank(bytes[at]) { at += 1 }
        if at == bytes.count { return at }
        if bytes[at] == UInt8(ascii: "\n") { return at + 1 }
        if bytes[at] == UInt8(ascii: "\r"), at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "\n") { return at + 2 }
        return nil
    }

    private func find(_ needle: [UInt8], from: Int) -> Int? {
        guard let first = needle.first, from < bytes.count else { return nil }
        var at = from
        while let found = bytes[at...].firstIndex(of: first) {
            if found + needle.count <= bytes.count, bytes[found..<(found + needle.count)].elementsEqual(needle) { return found }
            at = found + 1
        }
        return nil
    }

    private static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let before = bytes[..<offset]
        let line = before.count { $0 == UInt8(ascii: "\n") } + 1
        let lineStart = (before.lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
        return (line, offset - lineStart + 1)
    }
}
