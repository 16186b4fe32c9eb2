import FolioCore
import Foundation

/// Photos in an order, held, or read where they lie once `spilled(into:at:)` or written as rows
/// (`Writer`): each photo then is a row in a store that spills to a file (what `GalleryPhoto`
/// holds beside its packed record, as a kept snapshot writes it), and is made again from its row
/// whenever it is asked for. A large library's photos are rows from the model's read to the last
/// page (`GalleryDatabase.snapshot(kept:topRegionLimit:halves:heldUpTo:)`): they cost the build
/// an offset each, not a `GalleryPhoto` each, and a read each time one is asked for.
public struct PhotoRows: RandomAccessCollection, Sendable, Equatable {
    @usableFromInline enum Storage: Sendable {
        case held([GalleryPhoto])
        case spilled(Rows)
    }

    @usableFromInline var storage: Storage

    public init(_ photos: [GalleryPhoto] = []) {
        storage = .held(photos)
    }

    @inlinable public var startIndex: Int { 0 }

    @inlinable public var endIndex: Int {
        switch storage {
        case .held(let photos): photos.count
        case .spilled(let rows): rows.offsets.count
        }
    }

    /// Lent, not copied, and inlined: a caller that reads one field of a held photo reads that
    /// field in place, not a copy of the whole photo with its strings retained.
    @inlinable public subscript(position: Int) -> GalleryPhoto {
        _read {
            switch storage {
            case .held(let photos): yield photos[position]
            case .spilled(let rows): yield rows.photo(at: position)
            }
        }
    }

    /// The photos' array while they are held: what a pass that takes each photo whole reads
    /// (the site's layout), since the lending subscript yields a copy of a held photo.
    package var held: [GalleryPhoto]? {
        if case .held(let photos) = storage { return photos }
        return nil
    }

    /// The identifier of the photo at `position`, read alone.
    public func identifier(at position: Int) -> String {
        switch storage {
        case .held(let photos): photos[position].identifier
        case .spilled(let rows): rows.identifier(at: position)
        }
    }

    public static func == (a: PhotoRows, b: PhotoRows) -> Bool { a.elementsEqual(b) }

    /// Whether its photos are read from their rows.
    package var isSpilled: Bool {
        if case .spilled = storage { return true }
        return false
    }

    /// Whether its rows went to a file (`PackedStore.spills`).
    package var rowsInFile: Bool {
        if case .spilled(let rows) = storage { return rows.store.spills }
        return false
    }

    /// The same photos as rows in a store of their own, spilling into `folder` past `spillAt`
    /// bytes (the rows stay in memory when `folder` is nil). The photos held here are let go once
    /// no other copy of them is.
    package func spilled(into folder: String?, at spillAt: Int = PackedStore.spillSize) -> PhotoRows {
        guard case .held(let photos) = storage else { return self }
        var writer = Writer(spillingInto: folder, at: spillAt, count: photos.count)
        for item in photos { writer.append(item) }
        return writer.finish()
    }

    /// Photos written as rows one at a time (`spilled(into:at:)`): a large library's, read from
    /// the model, are never all held as photos at once.
    package struct Writer {
        private let store: PackedStore
        private var numbers = Numbering()
        private var offsets: [Int] = []

        /// Rows in a store spilling into `folder` past `spillAt` bytes; room made for `count`.
        package init(spillingInto folder: String?, at spillAt: Int = PackedStore.spillSize, count: Int = 0) {
            store = PackedStore(spillingInto: folder, at: spillAt)
            offsets.reserveCapacity(count)
        }

        package mutating func append(_ item: GalleryPhoto) {
            let parts = item.parts
            let row = Row(folder: numbers.number(of: item.folder), record: numbers.records.number(of: parts.store),
                          offset: parts.offset, person: numbers.people.number(of: parts.person),
                          place: parts.place.map { numbers.places.number(of: $0) } ?? -1,
                          region: parts.region.map { numbers.regions.number(of: $0) } ?? -1)
            offsets.append(store.append { row.write(item, into: &$0) })
        }

        /// The rows written, in the order they came.
        package consuming func finish() -> PhotoRows {
            store.seal()
            var rows = PhotoRows()
            rows.storage = .spilled(Rows(store: store, offsets: offsets, numbers: numbers))
            return rows
        }
    }

    /// Photos gathered one at a time: held, or past `heldUpTo` written as rows as they come (`Writer`).
    package struct Gathering {
        private var held: [GalleryPhoto] = []
        private var rows: Writer?

        package init(count: Int, heldUpTo: Int, spillingInto folder: String?) {
            if count > heldUpTo {
                rows = Writer(spillingInto: folder, count: count)
            } else {
                held.reserveCapacity(count)
            }
        }

        package mutating func append(_ item: GalleryPhoto) {
            if rows != nil { rows!.append(item) } else { held.append(item) }
        }

        package consuming func finish() -> PhotoRows {
            guard let rows else { return PhotoRows(held) }
            return rows.finish()
        }
    }

    /// Put in the order of the photos' keys, each read once: spilled, the rows themselves stay
    /// where they are and only their offsets move.
    package mutating func sort<Key: Comparable>(by key: (GalleryPhoto) -> Key) {
        let keys = held?.map(key) ?? map(key)
        switch storage {
        case .held(var photos):
            storage = .held([])
            photos.sortWithoutScratch(byPositions: { keys[$0] < keys[$1] })
            storage = .held(photos)
        case .spilled(let rows):
            var offsets = rows.offsets
            offsets.sortWithoutScratch(byPositions: { keys[$0] < keys[$1] })
            storage = .spilled(rows.keeping(offsets))
        }
    }

    /// Without the photos `leaves` takes, in place: spilled, their offsets alone go.
    package mutating func removeAll(where leaves: (GalleryPhoto) -> Bool) {
        switch storage {
        case .held(var photos):
            storage = .held([])
            photos.removeAll(where: leaves)
            storage = .held(photos)
        case .spilled(let rows):
            storage = .spilled(rows.keeping(indices.filter { !leaves(self[$0]) }.map { rows.offsets[$0] }))
        }
    }

    /// The rows, and what they name by number: the stores of the photos' packed records, their
    /// folders, and their people, places and regions (each box as the photos held it, so a photo
    /// made again from its row is the photo that was spilled).
    @usableFromInline final class Rows: Sendable {
        let store: PackedStore
        @usableFromInline let offsets: [Int]
        let records: [PackedStore]
        let folders: [String?]
        let people: [Shared<Person>]
        let places: [Shared<Place>]
        let regions: [Shared<Region>]

        fileprivate init(store: PackedStore, offsets: [Int], numbers: Numbering) {
            self.store = store
            self.offsets = offsets
            records = numbers.records.objects
            folders = numbers.folders
            people = numbers.people.objects
            places = numbers.places.objects
            regions = numbers.regions.objects
        }

        private init(_ rows: Rows, offsets: [Int]) {
            store = rows.store
            self.offsets = offsets
            records = rows.records
            folders = rows.folders
            people = rows.people
            places = rows.places
            regions = rows.regions
        }

        /// The same store's rows at `offsets`.
        func keeping(_ offsets: [Int]) -> Rows { Rows(self, offsets: offsets) }

        func identifier(at position: Int) -> String {
            store.withRecord(at: offsets[position]) { bytes in
                var reader = PackedReader(bytes)
                return GalleryPhoto.Kept.identifier(&reader)
            }
        }

        @usableFromInline func photo(at position: Int) -> GalleryPhoto {
            store.withRecord(at: offsets[position]) { bytes in
                var reader = PackedReader(bytes)
                let kept = GalleryPhoto.Kept.read(&reader)
                let row = Row.read(&reader, folder: Int(kept.folder))
                return GalleryPhoto(kept: kept, folder: folders[row.folder], person: people[row.person],
                                    place: row.place < 0 ? nil : places[row.place], region: row.region < 0 ? nil : regions[row.region],
                                    store: records[row.record], offset: row.offset)
            }
        }
    }

    /// What a row holds beside the photo's kept values (`GalleryPhoto.keep(into:folder:)`, whose
    /// folder number is the row's): each by its number in `Rows`, -1 for none.
    private struct Row {
        var folder: Int
        var record: Int
        var offset: Int
        var person: Int
        var place: Int
        var region: Int

        func write(_ item: GalleryPhoto, into out: inout PackedWriter) {
            item.keep(into: &out, folder: Int64(folder))
            out.number(Int64(record))
            out.number(Int64(offset))
            out.number(Int64(person))
            out.number(Int64(place))
            out.number(Int64(region))
        }

        static func read(_ reader: inout PackedReader, folder: Int) -> Row {
            let (record, offset, person, place, region) = (reader.number(), reader.number(), reader.number(), reader.number(), reader.number())
            return Row(folder: folder, record: Int(record), offset: Int(offset), person: Int(person), place: Int(place), region: Int(region))
        }
    }

    /// Numbers for the folders, stores and boxes the photos name, in the order they are met.
    fileprivate struct Numbering {
        var folders: [String?] = []
        private var folderNumbers: [String?: Int] = [:]
        var records = Numbered<PackedStore>()
        var people = Numbered<Shared<Person>>()
        var places = Numbered<Shared<Place>>()
        var regions = Numbered<Shared<Region>>()

        mutating func number(of folder: String?) -> Int {
            if let known = folderNumbers[folder] { return known }
            folders.append(folder)
            folderNumbers[folder] = folders.count - 1
            return folders.count - 1
        }
    }

    /// Objects numbered by identity, in the order they are met.
    fileprivate struct Numbered<Object: AnyObject> {
        private(set) var objects: [Object] = []
        private var numbers: [ObjectIdentifier: Int] = [:]

        mutating func number(of object: Object) -> Int {
            if let known = numbers[ObjectIdentifier(object)] { return known }
            objects.append(object)
            numbers[ObjectIdentifier(object)] = objects.count - 1
            return objects.count - 1
        }
    }
}
