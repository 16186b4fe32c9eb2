@testable import FolioContent
@testable import FolioCore
import FolioTestSupport
import Foundation
import GRDB
import XCTest

/// A gallery moved from sigal keeps its words: albums' `index.md` and photos' `<stem>.md`, meta
/// lines read as sigal reads them, bodies rendered by cmark with raw HTML left out.
final class SigalMarkdownTests: XCTestCase {
    func photo(_ site: TestSite, _ path: String, seed: UInt64, taken: String) throws {
        var sample = SamplePhoto(width: 240, height: 180, seed: seed)
        sample.taken = ISO8601DateFormatter().date(from: taken)
        try site.write(try sample.jpeg(), to: "content/\(path)")
    }

    func text(_ site: TestSite, _ path: String, _ text: String) throws {
        try site.write(Data(text.utf8), to: "content/\(path)")
    }

    /// sigal's sample gallery, in small: a photo with its own .md, an album described by its
    /// index.md with a thumbnail and CC-BY credits, an XMP sidecar and a catalog beside them.
    func testASigalGalleryKeepsItsTitlesAndDescriptions() async throws {
        let site = try TestSite()
        try photo(site, "dir1/test1/11.jpg", seed: 1, taken: "2015-06-01T10:00:00Z")
        try text(site, "dir1/test1/11.md", "Title: Foo Bar\n\nThis is a **funny** description of this image\n")
        try photo(site, "dir2/exo20101028-b-full.jpg", seed: 2, taken: "2010-10-28T10:00:00Z")
        try photo(site, "dir2/m57_the_ring_nebula-587px.jpg", seed: 3, taken: "2009-01-01T10:00:00Z")
        try text(site, "dir2/index.md", """
            title: Another example gallery with a very long name
            THUMBNAIL: m57_the_ring_nebula-587px.jpg
            Author: Bill Smith
                and friends

            This is a sample gallery with images from Wikipedia.

            Credits: [CC-BY 3.0](https://creativecommons.org/licenses/by/3.0/deed.en) <script>alert(1)</script>
            and [a trap](javascript:alert(1)).

            - *KeckObservatory20071020.jpg* : By SiOwl [CC BY 3.0] <a
              href="https://commons.wikimedia.org/wiki/File:KeckObservatory20071020.jpg">
              from Wikimedia Commons</a>
            - <a href="javascript:alert(2)">not a link</a>, <a href="https://example.com/" onclick="alert(3)">nor this</a>
            """)
        // The .md is the gallery's own words: over an XMP sidecar, under a catalog.
        try photo(site, "dir2/exo20101028-b-full.xmp.jpg", seed: 4, taken: "2010-10-29T10:00:00Z")
        try photo(site, "both/a.jpg", seed: 5, taken: "2020-01-01T10:00:00Z")
        try text(site, "both/a.md", "Title: From the md\n\nThe md's words\n")
        try text(site, "both/a.xmp", #"""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">From the XMP</rdf:li></rdf:Alt></dc:title>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """#)
        try photo(site, "both/b.jpg", seed: 6, taken: "2020-01-02T10:00:00Z")
        try text(site, "both/b.md", "Title: From the md\n\nThe md's words\n")
        try site.catalog("catalog.plist", [["path": "both/b.jpg", "name": "From the catalog", "description": "The catalog's words"]])
        try text(site, "notes.md", "Not a photo's, not an album's.\n")

        let report = try await site.build()
        XCTAssertEqual(report.issues, [])
        XCTAssertEqual(report.skippedLines, ["skipped 1 file: 1 .md (document)"], "the descriptions are part of what they describe")
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])

        let database = try site.database
        let rows = try database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT source, title, description, descriptionHTML FROM photo ORDER BY source")
        }
        let byPath = Dictionary(uniqueKeysWithValues: rows.map { (String(($0["source"] as String).dropFirst("content:".count)), $0) })
        XCTAssertEqual(byPath["dir1/test1/11.jpg"]?["title"], "Foo Bar")
        XCTAssertEqual(byPath["dir1/test1/11.jpg"]?["description"], "This is a funny description of this image", "plain text for search and the feed")
        XCTAssertEqual(byPath["dir1/test1/11.jpg"]?["descriptionHTML"], "<p>This is a <strong>funny</strong> description of this image</p>")
        XCTAssertEqual(byPath["both/a.jpg"]?["title"], "From the md", "the .md over the XMP sidecar")
        XCTAssertEqual(byPath["both/b.jpg"]?["title"], "From the catalog", "the catalog over the .md")
        XCTAssertEqual(byPath["both/b.jpg"]?["description"], "The catalog's words")
        XCTAssertEqual(byPath["both/b.jpg"]?["descriptionHTML"], String?.none)

        let photoPage = try site.read("photos/\(try site.identifier("dir1/test1/11.jpg")).html")
        XCTAssertTrue(photoPage.contains("<title>Foo Bar"), "sigal's title")
        XCTAssertTrue(photoPage.contains(#"<div class="photo-description"><p>This is a <strong>funny</strong> description of this image</p></div>"#))

        let albums = try site.read("albums/index.html")
        XCTAssertTrue(albums.contains("Another example gallery with a very long name"), albums)
        let album = try site.read("albums/dir2.html")
        XCTAssertTrue(album.contains("<h1>Another example gallery with a very long name</h1>"))
        XCTAssertTrue(album.contains("<p>This is a sample gallery with images from Wikipedia.</p>"))
        XCTAssertTrue(album.contains(#"Credits: <a href="https://creativecommons.org/licenses/by/3.0/deed.en">CC-BY 3.0</a>"#), album)
        XCTAssertTrue(album.contains(#"By SiOwl [CC BY 3.0] <a href="https://commons.wikimedia.org/wiki/File:KeckObservatory20071020.jpg">"#
                                     + "\nfrom Wikimedia Commons</a>"), "sigal's credits, links written as HTML: \(album)")
        XCTAssertTrue(album.contains("<li><!-- raw HTML omitted -->not a link<!-- raw HTML omitted -->, <!-- raw HTML omitted -->nor this"),
                      "any other tag is left out")
        for markup in ["<script>alert", "onclick", "alert(2)", "alert(3)"] {
            XCTAssertFalse(album.contains(markup), "raw HTML is left out: \(markup)")
        }
        XCTAssertFalse(album.contains("javascript:"), "unsafe links lose their destination")
        XCTAssertFalse(album.contains("Bill Smith"), "meta lines are not the description")
        XCTAssertTrue(album.contains(#"<meta property="og:description" content="This is a sample gallery with images from Wikipedia."#),
                      "link previews have the words, without the markup")
        // The Thumbnail names the older photo, which the newest would otherwise be passed over for.
        let covers = try database.albums().map { "\($0.path): \($0.cover ?? "-")" }
        XCTAssertEqual(covers, ["dir2: m57_the_ring_nebula-587px.jpg"])

        // Editing a .md alone is seen by the next build.
        try text(site, "dir1/test1/11.md", "Title: Foo Baz\n")
        let again = try await site.build()
        XCTAssertEqual(again.imported, 1)
        let edited = try site.read("photos/\(try site.identifier("dir1/test1/11.jpg")).html")
        XCTAssertTrue(edited.contains("<title>Foo Baz"))
        XCTAssertFalse(edited.contains("funny"))
    }

    func testMetaLinesAreReadAsPythonMarkdownReadsThem() throws {
        let fenced = SigalMarkdown("---\nTitle: A\nthumbnail:b.jpg\n  Title : not a key\n...\nBody *here*")
        XCTAssertEqual(fenced.title, "A")
        XCTAssertEqual(fenced.thumbnail, "b.jpg")
        XCTAssertEqual(fenced.body?.html, "<p>Title : not a key\n...\nBody <em>here</em></p>",
                       "a line that is no meta line ends them and starts the body")
        let plain = SigalMarkdown("Just words: with a colon\n\nand more")
        XCTAssertEqual(plain.title, nil, "'Just words' has a space: no key")
        XCTAssertEqual(plain.body?.text, "Just words: with a colon\nand more")
        let multi = SigalMarkdown("Title: One\nTitle: Two\nSummary: first\n    second\n\n")
        XCTAssertEqual(multi.title, "One", "sigal takes the first value")
        XCTAssertEqual(multi.meta["summary"], ["first", "second"])
        XCTAssertNil(multi.body)
        XCTAssertEqual(RenderedMarkdown.plainLinkURL(#"<A HREF="https://a.example/?x=1&amp;y=2">"#), "https://a.example/?x=1&y=2")
        XCTAssertNil(RenderedMarkdown.plainLinkURL(#"<a href="https://a.example/" title="t">"#))
        XCTAssertNil(RenderedMarkdown.plainLinkURL(#"<a href='https://a.example/'>"#))
        XCTAssertEqual(try RenderedMarkdown("<a href=\"https://a.example/\">one</a> <b>two</b>")?.html,
                       #"<p><a href="https://a.example/">one</a> <!-- raw HTML omitted -->two<!-- raw HTML omitted --></p>"#)
        XCTAssertEqual(try RenderedMarkdown("<a href=\"https://a.example/\">never closed")?.html,
                       "<p><!-- raw HTML omitted -->never closed</p>")
        XCTAssertEqual(try RenderedMarkdown("<div onclick=x>raw</div>\n\n<b>inline</b> text")?.html,
                       "<!-- raw HTML omitted -->\n<p><!-- raw HTML omitted -->inline<!-- raw HTML omitted --> text</p>")
    }
}
