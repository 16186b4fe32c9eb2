import FolioModel
/// Flickr's licence ids, as a photo's page names them and links to their terms: Flickr's terms
/// ask that a photo shown elsewhere carry its licence, its owner's name and a link to its page.
enum FlickrLicence {
    static let known: [String: (name: Name, url: String?)] = [
        "0": (.phrase(.licenceAllRightsReserved), nil),
        "1": (.proper("CC BY-NC-SA 2.0"), "https://creativecommons.org/licenses/by-nc-sa/2.0/"),
        "2": (.proper("CC BY-NC 2.0"), "https://creativecommons.org/licenses/by-nc/2.0/"),
        "3": (.proper("CC BY-NC-ND 2.0"), "https://creativecommons.org/licenses/by-nc-nd/2.0/"),
        "4": (.proper("CC BY 2.0"), "https://creativecommons.org/licenses/by/2.0/"),
        "5": (.proper("CC BY-SA 2.0"), "https://creativecommons.org/licenses/by-sa/2.0/"),
        "6": (.proper("CC BY-ND 2.0"), "https://creativecommons.org/licenses/by-nd/2.0/"),
        "7": (.phrase(.licenceNoKnownRestrictions), "https://www.flickr.com/commons/usage/"),
        "8": (.phrase(.licenceUSGovernment), "https://www.usa.gov/government-works"),
        "9": (.phrase(.licencePublicDomain), "https://creativecommons.org/publicdomain/zero/1.0/"),
        "10": (.phrase(.licencePublicDomainMark), "https://creativecommons.org/publicdomain/mark/1.0/"),
        "11": (.proper("CC BY 4.0"), "https://creativecommons.org/licenses/by/4.0/"),
        "12": (.proper("CC BY-SA 4.0"), "https://creativecommons.org/licenses/by-sa/4.0/"),
        "13": (.proper("CC BY-ND 4.0"), "https://creativecommons.org/licenses/by-nd/4.0/"),
        "14": (.proper("CC BY-NC 4.0"), "https://creativecommons.org/licenses/by-nc/4.0/"),
        "15": (.proper("CC BY-NC-SA 4.0"), "https://creativecommons.org/licenses/by-nc-sa/4.0/"),
        "16": (.proper("CC BY-NC-ND 4.0"), "https://creativecommons.org/licenses/by-nc-nd/4.0/"),
    ]

    /// The facts a Flickr photo's page adds: its licence, and where it is on Flickr.
    /// A licence's name: Creative Commons' own, the same in every language, or a phrase.
    enum Name: Sendable {
        case proper(String)
        case phrase(Phrase)
    }

    static func facts(_ remote: RemotePhoto, _ language: SiteLanguage) -> [Fact] {
        var facts: [Fact] = []
        if let id = remote.license {
            let licence = known[id]
            let name: String
            switch licence?.name {
            case .proper(let text)?: name = text
            case .phrase(let phrase)?: name = language.say(phrase)
            case nil: name = language.say(.licenceFlickr, ["id": id])
            }
            facts.append(Fact(kind: .licence, label: language.say(.factLicence), value: name, href: licence?.url, external: licence?.url != nil))
        }
        facts.append(Fact(kind: .source, label: language.say(.factSource), value: "Flickr", href: remote.pageURL, external: true))
        return facts
    }
}
