import CCmark
import Foundation

/// A Markdown text as a page shows it (HTML) and as plain text (search, the feed, a page's meta
/// description, a photo's caption in a grid). The only code touching libcmark.
///
/// cmark is run in its safe mode: raw HTML in the source comes out as a comment saying it was
/// omitted, and links to `javascript:`, `vbscript:`, `file:` and non-image `data:` lose their
/// destination, so the HTML can go into pages unescaped.
///
/// cmark parses and walks a document of any depth without recursing, in time linear in its
/// size; a page with blocks nested thousands deep is no page a browser shows, so a source that
/// nests deeper than `ReadingLimits.nesting` is refused.
public struct RenderedMarkdown: Sendable, Equatable {
    public var html: String
    public var text: String

    /// A source whose blocks and spans nest deeper than `ReadingLimits.nesting`.
    public struct TooDeep: Error, Equatable {}

    /// Nil when the source holds nothing to show.
    public init?(_ source: String) throws(TooDeep) {
        let options = folio_cmark_safe_options()
        let parsed = source.withCString { cmark_parse_document($0, source.utf8.count, options) }
        guard let document = parsed else { return nil }
        defer { cmark_node_free(document) }
        guard Self.depth(document) <= ReadingLimits.nesting else { throw TooDeep() }
        Self.keepPlainLinks(document)
        let text = Self.plainText(document)
        guard !text.isEmpty, let rendered = cmark_render_html(document, options) else { return nil }
        defer { free(rendered) }
        self.html = String(cString: rendered).trimmingCharacters(in: .whitespacesAndNewlines)
        self.text = text
    }

    /// How deep the document's nodes lie inside one another, the document itself at depth 0.
    /// cmark's walk enters and leaves each node that can hold others, and only enters the rest.
    private static func depth(_ document: OpaquePointer) -> Int {
        guard let iterator = cmark_iter_new(document) else { return 0 }
        defer { cmark_iter_free(iterator) }
        var depth = 0, deepest = 0
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            if event == CMARK_EVENT_EXIT {
                depth -= 1
            } else if let node = cmark_iter_get_node(iterator), !isLeaf(cmark_node_get_type(node)) {
                depth += 1
                deepest = max(deepest, depth - 1)
            }
        }
        return deepest
    }

    /// The kinds of node that hold no others, as cmark's walk has them.
    private static func isLeaf(_ type: cmark_node_type) -> Bool {
        [CMARK_NODE_HTML_BLOCK, CMARK_NODE_THEMATIC_BREAK, CMARK_NODE_CODE_BLOCK, CMARK_NODE_TEXT, CMARK_NODE_SOFTBREAK,
         CMARK_NODE_LINEBREAK, CMARK_NODE_CODE, CMARK_NODE_HTML_INLINE].contains(type)
    }

    /// sigal's own sample credits its photos with `<a href="https://…">from Wikimedia Commons</a>`
    /// written as HTML, which the safe mode would leave out, link and all. An `<a>` with an http or
    /// https `href` and nothing else, closed in the same paragraph, becomes a Markdown link; every
    /// other tag is still left out.
    private static func keepPlainLinks(_ document: OpaquePointer) {
        var openers: [(node: OpaquePointer, url: String)] = []
        guard let iterator = cmark_iter_new(document) else { return }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator),
                  cmark_node_get_type(node) == CMARK_NODE_HTML_INLINE, let literal = cmark_node_get_literal(node),
                  let url = plainLinkURL(String(cString: literal)) else { continue }
            openers.append((node, url))
        }
        cmark_iter_free(iterator)
        for (opener, url) in openers {
            // The closing tag among the following siblings, before any other tag.
            var closer = cmark_node_next(opener)
            while let node = closer, cmark_node_get_type(node) != CMARK_NODE_HTML_INLINE { closer = cmark_node_next(node) }
            guard let closer, let literal = cmark_node_get_literal(closer),
                  String(cString: literal).lowercased() == "</a>", let link = cmark_node_new(CMARK_NODE_LINK) else { continue }
            cmark_node_set_url(link, url)
            cmark_node_insert_before(opener, link)
            while let inside = cmark_node_next(opener), inside != closer {
                cmark_node_append_child(link, inside)
            }
            cmark_node_free(opener)
            cmark_node_free(closer)
        }
    }

    /// The address of `<a href="http(s)://…">` with no other attribute, else nil.
    static func plainLinkURL(_ tag: String) -> String? {
        let pattern = #"^<a\s+href\s*=\s*"(https?://[^"<>\s]+)"\s*>$"#
        guard let match = tag.range(of: pattern, options: [.regularExpression, .caseInsensitive]) else { return nil }
        let quoted = tag[match].split(separator: "\"", omittingEmptySubsequences: false)
        guard quoted.count == 3 else { return nil }
        return quoted[1].replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The words of the document, a line per paragraph, heading or list item; no markup, and
    /// nothing of the raw HTML that the page leaves out too.
    private static func plainText(_ document: OpaquePointer) -> String {
        guard let iterator = cmark_iter_new(document) else { return "" }
        defer { cmark_iter_free(iterator) }
        var text = ""
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            if event == CMARK_EVENT_ENTER {
                switch type {
                case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                    if let literal = cmark_node_get_literal(node) { text += String(cString: literal) }
                case CMARK_NODE_CODE_BLOCK:
                    if let literal = cmark_node_get_literal(node) { text += String(cString: literal) + "\n" }
                case CMARK_NODE_SOFTBREAK: text += " "
                case CMARK_NODE_LINEBREAK: text += "\n"
                default: break
                }
            } else if type == CMARK_NODE_PARAGRAPH || type == CMARK_NODE_HEADING {
                text += "\n"
            }
        }
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .joined(separator: "\n")
    }
}
