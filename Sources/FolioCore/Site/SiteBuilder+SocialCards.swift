extension SiteBuilder {
    /// The card of a page that lists photos (a place, a region, a person, an album): its title,
    /// what its subheading says, and its cover (its newest photo, or an album's chosen cover).
    func socialCard(listing page: PageFrame, cover: GalleryPhoto?) -> SocialCard {
        return SocialCard(type: "website", title: page.title, description: page.subheading ?? settings.description,
                          url: address?.absolute(page.path), image: cover.flatMap { images[$0.photo]?.screen },
                          imageAlt: cover.map(PhotoText.alt), address: address)
    }

    /// The card of a photo's page: the photo itself, at its screen size.
    func socialCard(photo page: PageFrame, _ item: GalleryPhoto) -> SocialCard {
        let subtitle = PhotoText.subtitle(item.photo)
        let description = subtitle.isEmpty ? PhotoText.alt(item) : subtitle
        return SocialCard(type: "article", title: page.title, description: description, url: address?.absolute(page.path),
                          image: images[item.photo]?.screen, imageAlt: PhotoText.alt(item), address: address)
    }
}
