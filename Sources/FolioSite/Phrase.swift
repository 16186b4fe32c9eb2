/// The phrases of the theme's catalogues (`Catalogue`) the Swift side says, by key: page titles,
/// counts, facts, alternative text, the feed's words. The templates and the scripts name the rest
/// themselves; a test holds the catalogues to what all three ask for, no phrase missing or unused.
///
/// Words: a *phrase* is one entry of a catalogue (a word, a sentence, a counted phrase's forms);
/// its *key* is how it is asked for; a *catalogue* is one language's phrases; the site's
/// *language* (`SiteLanguage`) is its catalogues resolved, and how it writes numbers and dates.
public enum Phrase: String, CaseIterable, Sendable {
    case sectionAlbums = "section.albums", sectionPlaces = "section.places", sectionRegions = "section.regions"
    case sectionMap = "section.map", sectionPeople = "section.people", sectionFavorites = "section.favorites"
    case sectionRecents = "section.recents", sectionSearch = "section.search"
    case layoutFeed = "layout.feed"
    case siteDescription = "site.description", siteTitle = "site.title"

    case countPhotos = "count.photos", countPlaces = "count.places", countMorePlaces = "count.more-places"
    case countPhotographers = "count.photographers", countAlbums = "count.albums"

    case pagerStatus = "pager.status", pagerTitle = "pager.title", pagerDays = "pager.days"

    case homeYouViewed = "home.you-viewed", homeLatest = "home.latest", homeEmpty = "home.empty"
    case whenWithinHour = "when.within-hour", dateDayTime = "date.day-time"

    case placesLetters = "places.letters", placesOtherLetter = "places.other-letter", placesLetter = "places.letter"
    case placesLetterPage = "places.letter-page", placesEmpty = "places.empty"
    case regionsSubheading = "regions.subheading", regionSubheading = "region.subheading"
    case albumsEmpty = "albums.empty", albumPhotos = "album.photos", albumAllAlbums = "album.all-albums"

    case favoritesSubheading = "favorites.subheading", favoritesAllPlaces = "favorites.all-places"
    case favoritesEmpty = "favorites.empty", favoritesInPlace = "favorites.in-place", favoritesAllIn = "favorites.all-in"
    case recentsAdded = "recents.added", recentsEmpty = "recents.empty"

    case searchSubheading = "search.subheading", searchNoscript = "search.noscript"

    case mapSubheading = "map.subheading", mapWorld = "map.world", mapRegion = "map.region", mapLocator = "map.locator"
    case mapMore = "map.more", mapMarker = "map.marker", mapCluster = "map.cluster"

    case photoUntitled = "photo.untitled", photoAlt = "photo.alt", photoAltBy = "photo.alt-by", photoAltIn = "photo.alt-in"
    case photoAltByIn = "photo.alt-by-in", photoPosition = "photo.position", photoCount = "photo.count",
         photoInList = "photo.in-list"
    case personUnknown = "person.unknown"

    case factPhotographer = "fact.photographer", factAlbum = "fact.album", factPlace = "fact.place", factRegion = "fact.region"
    case factTaken = "fact.taken", factAdded = "fact.added", factCamera = "fact.camera", factExposure = "fact.exposure"
    case factLens = "fact.lens", factPictured = "fact.pictured"
    case factSize = "fact.size", factSizeValue = "fact.size-value", factDuration = "fact.duration", factLive = "fact.live"
    case factLiveValue = "fact.live-value", factOriginal = "fact.original", factOriginalRAW = "fact.original-raw", factLicence = "fact.licence", factSource = "fact.source"
    case licenceAllRightsReserved = "licence.all-rights-reserved", licenceNoKnownRestrictions = "licence.no-known-restrictions"
    case licenceUSGovernment = "licence.us-government", licencePublicDomain = "licence.public-domain"
    case licencePublicDomainMark = "licence.public-domain-mark", licenceFlickr = "licence.flickr"

    case lockedTitle = "locked.title"
    case feedBy = "feed.by", feedByIn = "feed.by-in"
}
