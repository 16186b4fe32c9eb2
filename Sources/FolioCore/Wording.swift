/// Small pieces of English shared by every message and page.
public enum Wording {
    /// "1 photo", "3 photos", "2 people" (with the plural given).
    public static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) \(n == 1 ? singular : (plural ?? singular + "s"))"
    }
}
