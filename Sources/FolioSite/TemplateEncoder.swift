import Foundation

/// Turns an `Encodable` value into what Mustache reads, without Mirror: `TemplateObject`s of its
/// coding keys, lists and scalars. A page's template values are its own stored properties, with
/// no key list to keep in step; the values drawn by the hundred thousand write themselves instead
/// (`TemplateConvertible`), held to what this encoder makes of them by a test. An absent optional
/// is left out, as Mustache expects; with `keys` set, every key a value declares is recorded, for
/// the test that checks the templates' names against what pages hold.
final class TemplateEncoder {
    /// Every key met, nil ones included, when recording.
    private(set) var keys: Set<String>?

    init(recordingKeys: Bool = false) {
        keys = recordingKeys ? [] : nil
    }

    func encode(_ value: some Encodable) throws -> TemplateValue {
        if let direct = direct(value) { return direct }
        let node = Node()
        try value.encode(to: TreeEncoder(node: node, owner: self))
        return node.value
    }

    fileprivate func record(_ key: String) {
        keys?.insert(key)
    }

    /// The value as it writes itself, when it does and names are not being recorded (recording
    /// goes through `Encodable`, which names absent optionals too).
    fileprivate func direct(_ value: some Encodable) -> TemplateValue? {
        guard keys == nil, let value = value as? any TemplateConvertible else { return nil }
        return value.templateValue
    }

    /// One value of the tree being built: filled in by whichever container the value asks for.
    /// A keyed or unkeyed node's fields are its own arrays, not an enum's payload: taken out of
    /// an enum to append to, an array is still held by the enum and is copied whole on every
    /// append, which made encoding a page's values quadratic in its fields. A scalar field is
    /// held as its value, not as a node of its own: a page of 150 cards has thousands.
    fileprivate final class Node {
        enum Content {
            case empty
            case scalar(TemplateValue)
            case keyed
            case unkeyed
        }

        /// A field or element: a scalar as it is, anything else the node it is encoded into.
        enum Child {
            case scalar(TemplateValue)
            case node(Node)

            var value: TemplateValue {
                switch self {
                case .scalar(let value): return value
                case .node(let node): return node.value
                }
            }
        }

        private(set) var content = Content.empty
        /// A keyed node's field names, and its fields (or an unkeyed node's elements).
        private var names: [String] = []
        private(set) var children: [Child] = []

        var value: TemplateValue {
            switch content {
            case .empty: return .object(TemplateObject(names: [], values: []))
            case .scalar(let value): return value
            case .keyed: return .object(TemplateObject(names: names, values: children.map(\.value)))
            case .unkeyed: return .list(children.map(\.value))
            }
        }

        func set(_ scalar: TemplateValue) {
            content = .scalar(scalar)
        }

        func becomeKeyed() {
            if case .keyed = content { return }
            (content, names, children) = (.keyed, [], [])
        }

        func becomeUnkeyed() {
            if case .unkeyed = content { return }
            (content, names, children) = (.unkeyed, [], [])
        }

        /// The field `key` as a node to encode into (a field encoded twice is the last encoding).
        func child(_ key: String) -> Node {
            becomeKeyed()
            if let at = names.firstIndex(of: key) {
                if case .node(let node) = children[at] { return node }
                let node = Node()
                children[at] = .node(node)
                return node
            }
            let node = Node()
            names.append(key)
            children.append(.node(node))
            return node
        }

        func set(_ scalar: TemplateValue, at key: String) {
            becomeKeyed()
            if let at = names.firstIndex(of: key) {
                children[at] = .scalar(scalar)
            } else {
                names.append(key)
                children.append(.scalar(scalar))
            }
        }

        func appended() -> Node {
            becomeUnkeyed()
            let node = Node()
            children.append(.node(node))
            return node
        }

        package func append(_ scalar: TemplateValue) {
            becomeUnkeyed()
            children.append(.scalar(scalar))
        }
    }

    private struct TreeEncoder: Encoder {
        let node: Node
        let owner: TemplateEncoder
        var codingPath: [any CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            node.becomeKeyed()
            return KeyedEncodingContainer(Keyed(node: node, owner: owner))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            node.becomeUnkeyed()
            return Unkeyed(node: node, owner: owner)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(node: node, owner: owner)
        }
    }

    /// A scalar as a template value; nil for anything that encodes itself.
    private static func scalar(_ value: some Encodable) -> TemplateValue? {
        switch value {
        case let text as String: return .text(text)
        case let number as Int: return .number(number)
        case let flag as Bool: return .flag(flag)
        case let number as Double: return .real(number)
        default: return nil
        }
    }

    /// Scalars stay themselves; anything else is encoded into `node`.
    private static func put(_ value: some Encodable, into node: Node, owner: TemplateEncoder) throws {
        if let scalar = scalar(value) ?? owner.direct(value) { return node.set(scalar) }
        try value.encode(to: TreeEncoder(node: node, owner: owner))
    }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let owner: TemplateEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws {
            owner.record(key.stringValue)
        }

        mutating func encode(_ value: Bool, forKey key: Key) throws { set(.flag(value), key) }
        mutating func encode(_ value: String, forKey key: Key) throws { set(.text(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { set(.real(value), key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { set(.real(Double(value)), key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { set(.number(value), key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { set(.number(Int(value)), key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { set(.number(Int(value)), key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { set(.number(Int(value)), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { set(.number(Int(value)), key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { set(.number(Int(value)), key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.number(Int(value)), key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.number(Int(value)), key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.number(Int(value)), key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { set(.number(Int(value)), key) }

        private func set(_ scalar: TemplateValue, _ key: Key) {
            owner.record(key.stringValue)
            node.set(scalar, at: key.stringValue)
        }


        mutating func encode(_ value: some Encodable, forKey key: Key) throws {
            owner.record(key.stringValue)
            if let scalar = TemplateEncoder.scalar(value) ?? owner.direct(value) { return node.set(scalar, at: key.stringValue) }
            try value.encode(to: TreeEncoder(node: node.child(key.stringValue), owner: owner))
        }

        // Absent optionals are left out, but still named when recording.
        mutating func encodeIfPresent(_ value: (some Encodable)?, forKey key: Key) throws {
            owner.record(key.stringValue)
            if let value { try encode(value, forKey: key) }
        }

        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
            owner.record(key.stringValue)
            if let value { try encode(value, forKey: key) }
        }

        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
            owner.record(key.stringValue)
            if let value { try encode(value, forKey: key) }
        }

        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
            owner.record(key.stringValue)
            if let value { try encode(value, forKey: key) }
        }

        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
            owner.record(key.stringValue)
            if let value { try encode(value, forKey: key) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                            forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            owner.record(key.stringValue)
            return TreeEncoder(node: node.child(key.stringValue), owner: owner).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            owner.record(key.stringValue)
            return TreeEncoder(node: node.child(key.stringValue), owner: owner).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { TreeEncoder(node: node, owner: owner) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { TreeEncoder(node: node.child(key.stringValue), owner: owner) }
    }

    private struct Unkeyed: UnkeyedEncodingContainer, TemplateScalarContainer {
        let node: Node
        let owner: TemplateEncoder
        var codingPath: [any CodingKey] { [] }
        var count: Int {
            if case .unkeyed = node.content { return node.children.count }
            return 0
        }

        func put(_ value: TemplateValue) { node.append(value) }


        mutating func encode(_ value: some Encodable) throws {
            if let scalar = TemplateEncoder.scalar(value) ?? owner.direct(value) { return node.append(scalar) }
            try value.encode(to: TreeEncoder(node: node.appended(), owner: owner))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            TreeEncoder(node: node.appended(), owner: owner).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            TreeEncoder(node: node.appended(), owner: owner).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { TreeEncoder(node: node.appended(), owner: owner) }
    }

    private struct Single: SingleValueEncodingContainer, TemplateScalarContainer {
        let node: Node
        let owner: TemplateEncoder
        var codingPath: [any CodingKey] { [] }

        func put(_ value: TemplateValue) { node.set(value) }


        mutating func encode(_ value: some Encodable) throws {
            try TemplateEncoder.put(value, into: node, owner: owner)
        }
    }
}

/// A container that takes one value at a time (a list's next element, a single value): its
/// scalars, and nil, each put as a `TemplateValue`.
private protocol TemplateScalarContainer {
    func put(_ value: TemplateValue)
}

extension TemplateScalarContainer {
    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.flag(value)) }
    mutating func encode(_ value: String) throws { put(.text(value)) }
    mutating func encode(_ value: Double) throws { put(.real(value)) }
    mutating func encode(_ value: Float) throws { put(.real(Double(value))) }
    mutating func encode(_ value: Int) throws { put(.number(value)) }
    mutating func encode(_ value: Int8) throws { put(.number(Int(value))) }
    mutating func encode(_ value: Int16) throws { put(.number(Int(value))) }
    mutating func encode(_ value: Int32) throws { put(.number(Int(value))) }
    mutating func encode(_ value: Int64) throws { put(.number(Int(value))) }
    mutating func encode(_ value: UInt) throws { put(.number(Int(value))) }
    mutating func encode(_ value: UInt8) throws { put(.number(Int(value))) }
    mutating func encode(_ value: UInt16) throws { put(.number(Int(value))) }
    mutating func encode(_ value: UInt32) throws { put(.number(Int(value))) }
    mutating func encode(_ value: UInt64) throws { put(.number(Int(value))) }
}

/// A value as a template sees it: what `TemplateEncoder` makes of a page's values. Drawing a
/// page asks each value what it is thousands of times: an enum's case, not a dynamic cast.
indirect enum TemplateValue: Sendable, Equatable {
    case text(String)
    case number(Int)
    case real(Double)
    case flag(Bool)
    case object(TemplateObject)
    case list([TemplateValue])
    /// An absent optional inside a list: a Mustache name finds nothing there.
    case null
    /// Text that is HTML already (a phrase of the catalogues, escaped where HTML needs it), which
    /// `{{name}}` writes as it is.
    case markup(String)

    var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    var object: TemplateObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    var list: [TemplateValue]? {
        if case .list(let list) = self { return list }
        return nil
    }
}

/// What a template sees of a value: its fields by name. Names are found by comparing them, not
/// hashing: a template looks names up by the thousand per page, most of them missing from the
/// values nearest (Mustache climbs the context), and a short name compares as two machine words.
struct TemplateObject: Sendable, Equatable {
    private(set) var names: [String]
    private(set) var values: [TemplateValue]

    init(names: [String], values: [TemplateValue]) {
        self.names = names
        self.values = values
    }

    func child(named name: String) -> TemplateValue? {
        names.firstIndex(of: name).map { values[$0] }
    }

    /// The same, for a name known to be ASCII or not. A text canonically equivalent to an ASCII
    /// one has as many characters, each ASCII or one of three that stand for an ASCII one in more
    /// bytes (U+037E, U+1FEF, U+212A): never fewer bytes. So names shorter than an ASCII name are
    /// passed over without comparing text (most names a lookup passes are not the one).
    func child(named name: String, ascii: Bool) -> TemplateValue? {
        guard ascii else { return child(named: name) }
        let count = name.utf8.count
        return names.firstIndex { $0.utf8.count >= count && $0 == name }.map { values[$0] }
    }

    subscript(name: String) -> TemplateValue? { child(named: name) }

    /// The field `name`, taken out.
    mutating func remove(_ name: String) -> TemplateValue? {
        guard let at = names.firstIndex(of: name) else { return nil }
        names.remove(at: at)
        return values.remove(at: at)
    }

    /// `other`'s fields added after these, those this already has left out.
    mutating func add(_ other: TemplateObject) {
        for (name, value) in zip(other.names, other.values) where !names.contains(name) {
            names.append(name)
            values.append(value)
        }
    }

    mutating func set(_ name: String, _ value: TemplateValue) {
        if let at = names.firstIndex(of: name) { values[at] = value } else { names.append(name); values.append(value) }
    }
}
