import FolioModel
extension SiteBuilder {
    /// The card of a page that lists photos (a place, a region, a person, an album): its title,
    /// what its subheading says, and its cover (its newest photo, or an album's chosen cover).
    func socialCard(listing page: PageFrame, cover: GalleryPhoto?) -> SocialCard {
        // The cover's photo unpacked once (`GalleryPhoto.photo`).
        let shown = cover.map { (item: $0, photo: $0.photo) }
        return SocialCard(type: "website", title: page.title, description: page.subheading ?? siteDescription,
                          url: address?.absolute(page.path), image: shown.flatMap { images[$0.photo]?.screen },
                          imageAlt: shown.map { PhotoText.alt($0.item, of: $0.photo, language) }, address: address)
    }

    /// The site's description: its own, else the language's words for a photo gallery.
    var siteDescription: String { settings.description ?? language.say(.siteDescription) }

    /// The card of a photo's page: the photo itself, at its screen size. `photo` is `item`'s,
    /// unpacked by the page.
    func socialCard(photo page: PageFrame, _ item: GalleryPhoto, _ photo: Photo, images: PhotoImages?) -> SocialCard {
        let (subtitle, alt) = (PhotoText.subtitle(photo), PhotoText.alt(item, of: photo, language))
        return SocialCard(type: "article", title: page.title, description: subtitle.isEmpty ? alt : subtitle,
                          url: address?.absolute(page.path), image: images?.screen, imageAlt: alt, address: address)
    }
}
