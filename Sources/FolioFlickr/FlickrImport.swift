import FolioCore
import FolioModel
import Foundation

/// `folio import flickr`: photos from Flickr into the model, a page of results at a time, each
/// page one transaction of a handful of statements (so a failure mid-page leaves the model as
/// it was before that page), each Flickr place id looked up once, a few lookups in flight.
public struct FlickrImport: Sendable {
    /// Which photos.
    public enum Selection: Sendable, Equatable {
        /// Recent geo-referenced photos, anyone's.
        case recent
        /// A user's public photos, by screen name or account id ("12037949754@N01").
        case user(String)
        /// A photoset, by id.
        case album(String)
    }

    public struct Options: Sendable {
        public var selection: Selection
        /// Photos with all these tags.
        public var tags: [String]
        /// Photos under one of these licences (Flickr's ids).
        public var licenses: [String]
        public var pages: Int
        public var perPage: Int

        public init(selection: Selection = .recent, tags: [String] = [], licenses: [String] = [], pages: Int = 1, perPage: Int = 100) {
            self.selection = selection
            self.tags = tags
            self.licenses = licenses
            self.pages = pages
            self.perPage = perPage
        }
    }

    /// What an import did, for its summary line.
    public struct Summary: Sendable {
        public var pages = 0
        public var new = 0
        public var updated = 0
        public var unchanged = 0
        public var placesLookedUp = 0
        public var requests = 0
        /// One line each: a place that could not be learned, a page that could not be fetched.
        public var failures: [String] = []
        /// Place ids that could not be learned in this import: not asked again until the next.
        var unknownPlaces = Set<String>()

        public var line: String {
            var line = "Flickr: \(Wording.count(new + updated + unchanged, "photo")) on \(Wording.count(pages, "page"))"
            line += " (\(new) new, \(updated) updated, \(unchanged) unchanged), \(Wording.count(placesLookedUp, "place")) looked up,"
            line += " \(Wording.count(requests, "request"))"
            if !failures.isEmpty { line += ", \(Wording.count(failures.count, "failure"))" }
            return line
        }
    }

    /// The extras every listing asks for: what a photo's page and the model need.
    static let extras = "description,license,date_upload,date_taken,owner_name,original_format,geo,tags,"
        + FlickrPhoto.sizeLabels.map { "url_\($0)" }.joined(separator: ",")

    /// Place lookups in flight at once: Flickr asks clients to be gentle.
    static let lookupsInFlight = 4

    let client: FlickrClient
    let database: GalleryDatabase
    let now: Date
    /// Progress, a line at a time (a terminal's business).
    let progress: @Sendable (String) -> Void

    public init(client: FlickrClient, database: GalleryDatabase, now: Date = Date(), progress: @escaping @Sendable (String) -> Void = { _ in }) {
        self.client = client
        self.database = database
        self.now = now
        self.progress = progress
    }

    /// Imports what `options` asks for. Throws only when nothing more can be done (a refused
    /// key); other failures are in the summary, and what came before them is kept.
    public func run(_ options: Options) async throws -> Summary {
        var summary = Summary()
        try await retryPendingPlaces(&summary)
        let listing = try await listingMethod(options)
        var page = 1
        while page <= options.pages {
            let result: FlickrPhotoPage
            do {
                result = try await client.call(listing.method, listing.parameters + [
                    ("extras", Self.extras), ("per_page", String(options.perPage)), ("page", String(page)),
                ], as: FlickrPhotoPage.self)
            } catch let error as FlickrError where !error.isInvalidKey {
                summary.failures.append("page \(page): \(error)")
                break
            }
            summary.pages += 1
            var photos = Self.unique(result.photos)
            if case .album = options.selection { photos = photos.filter { Self.matches($0, options) } }
            try await importPage(photos, owner: (result.owner, result.ownerName), &summary)
            progress("page \(page) of \(min(options.pages, result.pages)): \(summary.new) new, \(summary.updated) updated")
            if page >= result.pages { break }
            page += 1
        }
        summary.requests = client.requests.value
        return summary
    }

    /// The listing method and its parameters for a selection.
    func listingMethod(_ options: Options) async throws -> (method: String, parameters: [(String, String)]) {
        var filters: [(String, String)] = []
        if !options.tags.isEmpty { filters += [("tags", options.tags.joined(separator: ",")), ("tag_mode", "all")] }
        if !options.licenses.isEmpty { filters.append(("license", options.licenses.joined(separator: ","))) }
        switch options.selection {
        case .recent:
            return ("flickr.photos.search", [("has_geo", "1"), ("sort", "date-posted-desc")] + filters)
        case .user(let name):
            let id = name.contains("@N") ? name
                : try await client.call("flickr.people.findByUsername", [("username", name)], as: FlickrUser.self).id
            return ("flickr.photos.search", [("user_id", id), ("sort", "date-posted-desc")] + filters)
        case .album(let id):
            return ("flickr.photosets.getPhotos", [("photoset_id", id), ("privacy_filter", "1")])
        }
    }

    /// A photoset's listing cannot filter: its photos are filtered here.
    package static func matches(_ photo: FlickrPhoto, _ options: Options) -> Bool {
        let tags = Set(photo.tags.split(separator: " ").map { $0.lowercased() })
        return (options.licenses.isEmpty || photo.license.map(options.licenses.contains) == true)
            && options.tags.allSatisfy { tags.contains($0.lowercased()) }
    }

    /// The same photo twice on one page (Flickr's pages shift while new photos arrive) once.
    static func unique(_ photos: [FlickrPhoto]) -> [FlickrPhoto] {
        var seen = Set<String>()
        return photos.filter { seen.insert($0.id).inserted }
    }

    /// One page: its unknown places looked up, then new and changed photos in one transaction.
    func importPage(_ photos: [FlickrPhoto], owner: (id: String?, name: String?), _ summary: inout Summary) async throws {
        let placeIDs = Set(photos.compactMap(\.placeID))
        var places = try database.flickrPlaces(placeIDs)
        let learned = try await lookUp(placeIDs.subtracting(places.keys).subtracting(summary.unknownPlaces), &summary)
        for place in learned { places[place.placeId] = place }

        let sources = photos.map { PhotoSource.flickr(id: $0.id) }
        let known = try database.knownPhotos(for: sources)
        var batch = ImportBatch(flickrPlaces: learned)
        for photo in photos {
            guard var imported = FlickrPhotoImport.photoImport(photo, owner: owner, place: photo.placeID.flatMap { places[$0] }, now: now)
            else {
                summary.failures.append("photo \(photo.id): Flickr gives no image size for it")
                continue
            }
            let old = known[.flickr(id: photo.id)]
            if let old {
                imported.photo.identifier = old.identifier
                if old.fingerprint == imported.fingerprint {
                    summary.unchanged += 1
                    continue
                }
                summary.updated += 1
            } else {
                summary.new += 1
            }
            batch.upserts.append(imported)
        }
        try database.apply(batch)
    }

    /// flickr.places.getInfo for each id, a few at once. A place that cannot be learned now is
    /// reported; its photos wait for a later import.
    func lookUp(_ ids: Set<String>, _ summary: inout Summary) async throws -> [FlickrPlace] {
        guard !ids.isEmpty else { return [] }
        let client = client
        let results = await boundedMap(ids.sorted(), width: Self.lookupsInFlight) { id -> Result<FlickrPlace, FlickrError> in
            do {
                let info = try await client.call("flickr.places.getInfo", [("place_id", id)], as: FlickrPlaceInfo.self)
                guard let place = FlickrPhotoImport.place(info) else {
                    return .failure(FlickrError(method: "flickr.places.getInfo", kind: .unexpected("place \(id) has no name")))
                }
                return .success(place)
            } catch let error as FlickrError {
                return .failure(error)
            } catch {
                return .failure(FlickrError(method: "flickr.places.getInfo", kind: .unexpected("\(error)")))
            }
        }
        var places: [FlickrPlace] = []
        for (id, result) in zip(ids.sorted(), results) {
            switch result {
            case .success(let place):
                places.append(place)
                summary.placesLookedUp += 1
            case .failure(let error):
                if error.isInvalidKey { throw error }
                summary.failures.append("place \(id): \(error)")
                summary.unknownPlaces.insert(id)
            }
        }
        return places
    }

    /// Places whose lookup failed in an earlier import: tried again first.
    func retryPendingPlaces(_ summary: inout Summary) async throws {
        let pending = try database.pendingFlickrPlaceIds()
        let known = try database.flickrPlaces(pending)
        let learned = try await lookUp(pending.subtracting(known.keys), &summary)
        let places = Array(known.values) + learned
        if !places.isEmpty { try database.apply(ImportBatch(flickrPlaces: places)) }
    }
}
