import Mustache

// Templates read page values by name. swift-mustache finds names through Mirror unless a value
// answers them itself, and Mirror made rendering ten thousand pages take twenty seconds; these
// answer directly. A test checks that every stored property is answered, so a field added to a
// type and forgotten here fails the tests instead of rendering empty.

/// A value that answers templates' names itself; `templateKeys` lists the names it answers.
protocol TemplateValue: MustacheParent {
    static var templateKeys: Set<String> { get }
}

extension Page: TemplateValue {
    static let templateKeys: Set<String> = [
        "path", "template", "section", "title", "heading", "subheading", "descriptionHTML", "crumbs", "rows", "rowsTitle", "rowSections",
        "letters", "photoSections", "photo", "favoritesSwitch", "stats", "emptyMessage", "placeSlug", "social", "origin",
        "noindex", "lock", "sealed",
    ]

    public func child(named name: String) -> Any? {
        switch name {
        case "path": return path
        case "template": return template
        case "section": return section.rawValue
        case "title": return title
        case "heading": return heading
        case "subheading": return subheading
        case "descriptionHTML": return descriptionHTML
        case "crumbs": return crumbs
        case "rows": return rows
        case "rowsTitle": return rowsTitle
        case "rowSections": return rowSections
        case "letters": return letters
        case "photoSections": return photoSections
        case "photo": return photo
        case "favoritesSwitch": return favoritesSwitch
        case "stats": return stats
        case "emptyMessage": return emptyMessage
        case "placeSlug": return placeSlug
        case "social": return social
        case "origin": return origin
        case "noindex": return noindex
        case "lock": return lock
        case "sealed": return sealed
        default: return nil
        }
    }
}

extension SealedPage: TemplateValue {
    static let templateKeys: Set<String> = ["payload", "salt", "iterations"]

    public func child(named name: String) -> Any? {
        switch name {
        case "payload": return payload
        case "salt": return salt
        case "iterations": return iterations
        default: return nil
        }
    }
}

extension SocialCard: TemplateValue {
    static let templateKeys: Set<String> = [
        "type", "title", "description", "url", "image", "imageAlt", "imageWidth", "imageHeight", "twitterCard",
    ]

    public func child(named name: String) -> Any? {
        switch name {
        case "type": return type
        case "title": return title
        case "description": return description
        case "url": return url
        case "image": return image
        case "imageAlt": return imageAlt
        case "imageWidth": return imageWidth
        case "imageHeight": return imageHeight
        case "twitterCard": return twitterCard
        default: return nil
        }
    }
}

extension ImageRef: TemplateValue {
    static let templateKeys: Set<String> = ["src", "width", "height", "candidates", "picture", "external", "animation"]

    public func child(named name: String) -> Any? {
        switch name {
        case "animation": return animation
        case "src": return src
        case "width": return width
        case "height": return height
        case "candidates": return candidates
        case "picture": return picture
        case "external": return external
        default: return nil
        }
    }
}

extension PictureSource: TemplateValue {
    static let templateKeys: Set<String> = ["type", "candidates"]

    public func child(named name: String) -> Any? {
        switch name {
        case "type": return type
        case "candidates": return candidates
        default: return nil
        }
    }
}

extension ImageCandidate: TemplateValue {
    static let templateKeys: Set<String> = ["src", "width", "last", "external"]

    public func child(named name: String) -> Any? {
        switch name {
        case "src": return src
        case "width": return width
        case "last": return last
        case "external": return external
        default: return nil
        }
    }
}

extension TilePyramid: TemplateValue {
    static let templateKeys: Set<String> = ["width", "height", "tileSize", "overlap", "format", "minLevel", "maxLevel", "tilesBase", "descriptor"]

    public func child(named name: String) -> Any? {
        switch name {
        case "width": return width
        case "height": return height
        case "tileSize": return tileSize
        case "overlap": return overlap
        case "format": return format
        case "minLevel": return minLevel
        case "maxLevel": return maxLevel
        case "tilesBase": return tilesBase
        case "descriptor": return descriptor
        default: return nil
        }
    }
}

extension PhotoCard: TemplateValue {
    static let templateKeys: Set<String> = [
        "href", "title", "subtitle", "alt", "thumb", "favorite", "identifier", "shape", "shapeSizes", "eager", "leading",
    ]

    public func child(named name: String) -> Any? {
        switch name {
        case "href": return href
        case "title": return title
        case "subtitle": return subtitle
        case "alt": return alt
        case "thumb": return thumb
        case "favorite": return favorite
        case "identifier": return identifier
        case "shape": return shape
        case "shapeSizes": return shapeSizes
        case "eager": return eager
        case "leading": return leading
        default: return nil
        }
    }
}

extension ListRow: TemplateValue {
    static let templateKeys: Set<String> = ["href", "title", "subtitle", "thumb", "alt"]

    public func child(named name: String) -> Any? {
        switch name {
        case "href": return href
        case "title": return title
        case "subtitle": return subtitle
        case "thumb": return thumb
        case "alt": return alt
        default: return nil
        }
    }
}

extension RowSection: TemplateValue {
    static let templateKeys: Set<String> = ["id", "title", "rows"]

    public func child(named name: String) -> Any? {
        switch name {
        case "id": return id
        case "title": return title
        case "rows": return rows
        default: return nil
        }
    }
}

extension PhotoSection: TemplateValue {
    static let templateKeys: Set<String> = ["title", "photos", "keepsShapes"]

    public func child(named name: String) -> Any? {
        switch name {
        case "title": return title
        case "photos": return photos
        case "keepsShapes": return keepsShapes
        default: return nil
        }
    }
}

extension IndexLetter: TemplateValue {
    static let templateKeys: Set<String> = ["letter", "id", "present"]

    public func child(named name: String) -> Any? {
        switch name {
        case "letter": return letter
        case "id": return id
        case "present": return present
        default: return nil
        }
    }
}

extension NavItem: TemplateValue {
    static let templateKeys: Set<String> = ["title", "href", "current"]

    public func child(named name: String) -> Any? {
        switch name {
        case "title": return title
        case "href": return href
        case "current": return current
        default: return nil
        }
    }
}

extension Crumb: TemplateValue {
    static let templateKeys: Set<String> = ["title", "href"]

    public func child(named name: String) -> Any? {
        switch name {
        case "title": return title
        case "href": return href
        default: return nil
        }
    }
}

extension StatLink: TemplateValue {
    static let templateKeys: Set<String> = ["label", "count", "href", "name", "note"]

    public func child(named key: String) -> Any? {
        switch key {
        case "label": return label
        case "count": return count
        case "href": return href
        case "name": return name
        case "note": return note
        default: return nil
        }
    }
}

extension Fact: TemplateValue {
    static let templateKeys: Set<String> = ["label", "value", "href", "external"]

    public func child(named name: String) -> Any? {
        switch name {
        case "label": return label
        case "value": return value
        case "href": return href
        case "external": return external
        default: return nil
        }
    }
}

extension PhotoDetail: TemplateValue {
    static let templateKeys: Set<String> = [
        "identifier", "title", "description", "descriptionHTML", "alt", "image", "thumb", "originalWidth", "originalHeight",
        "fillSizes", "zoom", "facts", "tags", "favorite", "previous", "next", "nextImage", "nextSizes",
    ]

    public func child(named name: String) -> Any? {
        switch name {
        case "identifier": return identifier
        case "title": return title
        case "description": return description
        case "descriptionHTML": return descriptionHTML
        case "alt": return alt
        case "image": return image
        case "thumb": return thumb
        case "originalWidth": return originalWidth
        case "originalHeight": return originalHeight
        case "fillSizes": return fillSizes
        case "zoom": return zoom
        case "facts": return facts
        case "tags": return tags
        case "favorite": return favorite
        case "previous": return previous
        case "next": return next
        case "nextImage": return nextImage
        case "nextSizes": return nextSizes
        default: return nil
        }
    }
}

extension FavoritesSwitch: TemplateValue {
    static let templateKeys: Set<String> = ["onlyFavorites", "onlyHref", "allHref"]

    public func child(named name: String) -> Any? {
        switch name {
        case "onlyFavorites": return onlyFavorites
        case "onlyHref": return onlyHref
        case "allHref": return allHref
        default: return nil
        }
    }
}

extension SiteSettings: TemplateValue {
    /// Templates see the site's words; rendition settings are the pipeline's business.
    static let templateKeys: Set<String> = ["title", "description", "baseURL", "language"]

    public func child(named name: String) -> Any? {
        switch name {
        case "title": return title
        case "description": return description
        case "baseURL": return baseURL
        case "language": return language
        default: return nil
        }
    }
}

extension PageRenderer.View: TemplateValue {
    static let templateKeys: Set<String> = [
        "page", "site", "root", "nav", "generator", "documentTitle", "hasCrumbs", "hasLetters", "hasTags", "hasFeed",
    ]

    func child(named name: String) -> Any? {
        switch name {
        case "page": return page
        case "site": return site
        case "root": return root
        case "nav": return nav
        case "generator": return generator
        case "documentTitle": return documentTitle
        case "hasCrumbs": return hasCrumbs
        case "hasLetters": return hasLetters
        case "hasTags": return hasTags
        case "hasFeed": return hasFeed
        default: return nil
        }
    }
}
