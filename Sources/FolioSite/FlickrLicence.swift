import FolioModel
/// Flickr's licence ids, as a photo's page names them and links to their terms: Flickr's terms
/// ask that a photo shown elsewhere carry its licence, its owner's name and a link to its page.
enum FlickrLicence {
    static let known: [String: (name: String, url: String?)] = [
        "0": ("All rights reserved", nil),
        "1": ("CC BY-NC-SA 2.0", "https://creativecommons.org/licenses/by-nc-sa/2.0/"),
        "2": ("CC BY-NC 2.0", "https://creativecommons.org/licenses/by-nc/2.0/"),
        "3": ("CC BY-NC-ND 2.0", "https://creativecommons.org/licenses/by-nc-nd/2.0/"),
        "4": ("CC BY 2.0", "https://creativecommons.org/licenses/by/2.0/"),
        "5": ("CC BY-SA 2.0", "https://creativecommons.org/licenses/by-sa/2.0/"),
        "6": ("CC BY-ND 2.0", "https://creativecommons.org/licenses/by-nd/2.0/"),
        "7": ("No known copyright restrictions", "https://www.flickr.com/commons/usage/"),
        "8": ("United States Government Work", "https://www.usa.gov/government-works"),
        "9": ("Public domain (CC0 1.0)", "https://creativecommons.org/publicdomain/zero/1.0/"),
        "10": ("Public Domain Mark 1.0", "https://creativecommons.org/publicdomain/mark/1.0/"),
        "11": ("CC BY 4.0", "https://creativecommons.org/licenses/by/4.0/"),
        "12": ("CC BY-SA 4.0", "https://creativecommons.org/licenses/by-sa/4.0/"),
        "13": ("CC BY-ND 4.0", "https://creativecommons.org/licenses/by-nd/4.0/"),
        "14": ("CC BY-NC 4.0", "https://creativecommons.org/licenses/by-nc/4.0/"),
        "15": ("CC BY-NC-SA 4.0", "https://creativecommons.org/licenses/by-nc-sa/4.0/"),
        "16": ("CC BY-NC-ND 4.0", "https://creativecommons.org/licenses/by-nc-nd/4.0/"),
    ]

    /// The facts a Flickr photo's page adds: its licence, and where it is on Flickr.
    static func facts(_ remote: RemotePhoto) -> [Fact] {
        var facts: [Fact] = []
        if let id = remote.license {
            let licence = known[id] ?? ("Flickr licence \(id)", nil)
            facts.append(Fact(label: "Licence", value: licence.name, href: licence.url, external: licence.url != nil))
        }
        facts.append(Fact(label: "Source", value: "Flickr", href: remote.pageURL, external: true))
        return facts
    }
}
