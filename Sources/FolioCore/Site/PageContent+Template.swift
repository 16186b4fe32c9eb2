/// A value that writes its own template value, as `TemplateEncoder` would encode it: the same
/// names, in the order they are declared, an absent optional left out.
///
/// Only for what a page holds by the hundred (a grid's cards, each with its images and their
/// sizes): going through `Encodable` costs a container and a node for each of them, most of the
/// time it takes to draw a page of photos. The names are the stored properties'; a test encodes
/// every kind of page both ways and checks that each of these values sets every field it has.
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
        fields.add("src", .text(src))
        fields.add("width", .number(width))
        fields.add("height", .number(height))
        fields.add("candidates", .list(candidates.map(\.templateValue)))
        fields.add("picture", picture?.templateValue)
        fields.add("external", .flag(external))
        fields.add("animation", animation.map(TemplateValue.text))
        return fields.value
    }
}

extension PhotoCard: TemplateConvertible {
    var templateValue: TemplateValue {
        var fields = TemplateFields(capacity: 13)
        fields.add("href", .text(href))
        fields.add("title", .text(title))
        fields.add("subtitle", subtitle.map(TemplateValue.text))
        fields.add("alt", .text(alt))
        fields.add("thumb", thumb?.templateValue)
        fields.add("favorite", .flag(favorite))
        fields.add("identifier", .text(identifier))
        fields.add("shape", shape?.templateValue)
        fields.add("shapeSizes", shapeSizes.map(TemplateValue.text))
        fields.add("duration", duration.map(TemplateValue.text))
        fields.add("live", .flag(live))
        fields.add("eager", .flag(eager))
        fields.add("leading", .flag(leading))
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

    var value: TemplateValue { .object(TemplateObject(names: names, values: values)) }
}
