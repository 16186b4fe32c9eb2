import FolioMedia
/// A value that writes its own template value, as `TemplateEncoder` would encode it: the same
/// names, in the order they are declared, an absent optional left out. Only for what a page
/// holds by the hundred (a grid's cards) and a site by the hundred thousand (a photo's page, the
/// frame and view around every page), where `Encodable`'s container and node for each value is
/// most of drawing a page. A test encodes every kind of page both ways and checks that each of
/// these values sets every field it has.
protocol TemplateConvertible: Encodable {
    var templateValue: TemplateValue { get }
}

extension ImageCandidate: TemplateConvertible {
    private static let names = ["src", "width", "last", "external"]

    var templateValue: TemplateValue {
        .object(TemplateObject(names: Self.names, values: [.text(src), .number(width), .flag(last), .flag(external)]))
    }
}

extension PictureSource: TemplateConvertible {
    private static let names = ["type", "candidates"]

    var templateValue: TemplateValue {
        .object(TemplateObject(names: Self.names, values: [.text(type), .list(candidates.map(\.templateValue))]))
    }
}

extension ImageRef: TemplateConvertible {
    var templateValue: TemplateValue {
        var fields = TemplateFields(capacity: 7)
        fields.add("src", src)
        fields.add("width", width)
        fields.add("height", height)
        fields.add("candidates", candidates)
        fields.add("picture", picture)
        fields.add("external", external)
        fields.add("animation", animation)
        return fields.value
    }
}

extension PhotoCard: TemplateConvertible {
    var templateValue: TemplateValue {
        var fields = TemplateFields(capacity: 13)
        fields.add("href", href)
        fields.add("title", title)
        fields.add("subtitle", subtitle)
        fields.add("alt", alt)
        fields.add("thumb", thumb)
        fields.add("favorite", favorite)
        fields.add("identifier", identifier)
        fields.add("shape", shape)
        fields.add("shapeSizes", shapeSizes)
        fields.add("duration", duration)
        fields.add("live", live)
        fields.add("eager", eager)
        fields.add("leading", leading)
        return fields.value
    }
}

extension PhotoPage: TemplateConvertible {
    var templateValue: TemplateValue {
        var fields = TemplateFields(capacity: 3)
        fields.add("frame", frame)
        fields.add("photo", photo)
        fields.add("map", map)
        return fields.value
    }
}

extension PhotosPage: TemplateConvertible {
    var templateValue: TemplateValue {
        var fields = TemplateFields(capacity: 4)
        fields.add("frame", frame)
        fields.add("photoSections", photoSections)
        fields.add("emptyMessage", emptyMessage)
        fields.add("map", map)
        return fields.value
    }
}

extension PhotoSection: TemplateConvertible {
    var templateValue: TemplateValue {
        var fields = TemplateFields(capacity: 7)
        fields.add("title", title)
        fields.add("photos", photos)
        fields.add("keepsShapes", keepsShapes)
        fields.add("continued", continued)
        fields.add("href", href)
        fields.add("subtitle", subtitle)
        fields.add("more", more)
        return fields.value
    }
}

extension PhotoDetail: TemplateConvertible {
    var templateValue: TemplateValue {
        var fields = TemplateFields(capacity: 23)
        fields.add("identifier", identifier)
        fields.add("title", title)
        fields.add("description", description)
        fields.add("descriptionHTML", descriptionHTML)
        fields.add("alt", alt)
        fields.add("image", image)
        fields.add("thumb", thumb)
        fields.add("originalWidth", originalWidth)
        fields.add("originalHeight", originalHeight)
        fields.add("fillSizes", fillSizes)
        fields.add("zoom", zoom)
        fields.add("zoomDescriptor", zoomDescriptor)
        fields.add("facts", facts)
        fields.add("tags", .list(tags.map(TemplateValue.text)))
        fields.add("favorite", favorite)
        fields.add("previous", previous)
        fields.add("next", next)
        fields.add("nextImage", nextImage)
        fields.add("nextSizes", nextSizes)
        fields.add("video", video)
        fields.add("liveVideo", liveVideo)
        fields.add("sequence", sequence)
        return fields.value
    }
}

extension PageFrame: TemplateConvertible {
    var templateValue: TemplateValue {
        var fields = TemplateFields(capacity: 16)
        fields.add("path", path)
        fields.add("section", section.rawValue)
        fields.add("title", title)
        fields.add("heading", heading)
        fields.add("subheading", subheading)
        fields.add("descriptionHTML", descriptionHTML)
        fields.add("crumbs", crumbs)
        fields.add("paging", paging)
        fields.add("placeSlug", placeSlug)
        fields.add("social", social)
        fields.add("origin", origin)
        fields.add("noindex", noindex)
        fields.add("sequence", sequence)
        fields.add("lock", lock)
        fields.add("hasMap", hasMap)
        return fields.value
    }
}

extension PageRenderer.View: TemplateConvertible {
    var templateValue: TemplateValue {
        var fields = TemplateFields(capacity: 9)
        fields.add("site", site)
        fields.add("root", root)
        fields.add("nav", nav)
        fields.add("generator", generator)
        fields.add("documentTitle", documentTitle)
        fields.add("hasCrumbs", hasCrumbs)
        fields.add("hasLetters", hasLetters)
        fields.add("hasTags", hasTags)
        fields.add("hasFeed", hasFeed)
        return fields.value
    }
}

extension PageRenderer.SiteWords: TemplateConvertible {
    var templateValue: TemplateValue {
        var fields = TemplateFields(capacity: 6)
        fields.add("title", title)
        fields.add("description", description)
        fields.add("baseURL", baseURL)
        fields.add("language", language)
        fields.add("rightToLeft", rightToLeft)
        fields.add("feedTitle", feedTitle)
        return fields.value
    }
}

extension NavItem: TemplateConvertible {
    var templateValue: TemplateValue {
        var fields = TemplateFields(capacity: 3)
        fields.add("title", title)
        fields.add("href", href)
        fields.add("current", current)
        return fields.value
    }
}

extension Crumb: TemplateConvertible {
    var templateValue: TemplateValue {
        var fields = TemplateFields(capacity: 2)
        fields.add("title", title)
        fields.add("href", href)
        return fields.value
    }
}

extension Fact: TemplateConvertible {
    var templateValue: TemplateValue {
        var fields = TemplateFields(capacity: 5)
        fields.add("kind", kind.rawValue)
        fields.add("label", label)
        fields.add("value", value)
        fields.add("href", href)
        fields.add("external", external)
        return fields.value
    }
}

extension SequencePlace: TemplateConvertible {
    var templateValue: TemplateValue {
        var fields = TemplateFields(capacity: 7)
        fields.add("key", key)
        fields.add("file", file)
        fields.add("number", number)
        fields.add("count", count)
        fields.add("title", title)
        fields.add("href", href)
        fields.add("html", html)
        return fields.value
    }
}

extension PhotoSequence: TemplateConvertible {
    var templateValue: TemplateValue {
        var fields = TemplateFields(capacity: 3)
        fields.add("key", key)
        fields.add("title", title)
        fields.add("file", file)
        return fields.value
    }
}

extension SocialCard: TemplateConvertible {
    var templateValue: TemplateValue {
        var fields = TemplateFields(capacity: 9)
        fields.add("type", type)
        fields.add("title", title)
        fields.add("description", description)
        fields.add("url", url)
        fields.add("image", image)
        fields.add("imageAlt", imageAlt)
        fields.add("imageWidth", imageWidth)
        fields.add("imageHeight", imageHeight)
        fields.add("twitterCard", twitterCard)
        return fields.value
    }
}

extension MapFigure: TemplateConvertible {
    var templateValue: TemplateValue {
        var fields = TemplateFields(capacity: 4)
        fields.add("kind", kind)
        fields.add("svg", svg)
        fields.add("label", label)
        fields.add("viewBox", viewBox)
        return fields.value
    }
}

extension TilePyramid: TemplateConvertible {
    var templateValue: TemplateValue {
        var fields = TemplateFields(capacity: 8)
        fields.add("width", width)
        fields.add("height", height)
        fields.add("tileSize", tileSize)
        fields.add("overlap", overlap)
        fields.add("format", format)
        fields.add("minLevel", minLevel)
        fields.add("maxLevel", maxLevel)
        fields.add("tilesBase", tilesBase)
        return fields.value
    }
}

extension Paging: TemplateConvertible {
    var templateValue: TemplateValue {
        var fields = TemplateFields(capacity: 7)
        fields.add("number", number)
        fields.add("count", count)
        fields.add("status", status)
        fields.add("previous", previous)
        fields.add("next", next)
        fields.add("first", first)
        fields.add("pages", pages)
        return fields.value
    }
}

extension PageLink: TemplateConvertible {
    var templateValue: TemplateValue {
        var fields = TemplateFields(capacity: 5)
        fields.add("number", number)
        fields.add("numberText", numberText)
        fields.add("href", href)
        fields.add("current", current)
        fields.add("gap", gap)
        return fields.value
    }
}

/// An object's fields as they are added, an absent one left out.
private struct TemplateFields {
    private var names: [String] = []
    private var values: [TemplateValue] = []

    init(capacity: Int) {
        names.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    mutating func add(_ name: String, _ value: TemplateValue?) {
        guard let value else { return }
        names.append(name)
        values.append(value)
    }

    mutating func add(_ name: String, _ text: String?) { add(name, text.map(TemplateValue.text)) }
    mutating func add(_ name: String, _ number: Int?) { add(name, number.map(TemplateValue.number)) }
    mutating func add(_ name: String, _ flag: Bool) { add(name, .flag(flag)) }
    mutating func add(_ name: String, _ value: (some TemplateConvertible)?) { add(name, value?.templateValue) }
    mutating func add(_ name: String, _ list: [some TemplateConvertible]) { add(name, .list(list.map(\.templateValue))) }

    var value: TemplateValue { .object(TemplateObject(names: names, values: values)) }
}
