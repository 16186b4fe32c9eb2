/// What a publish did (or, with `--dry-run`, would do).
public struct PublishReport: Sendable {
    public var plan: PublishPlan
    public var dryRun: Bool
    public var uploaded = 0
    public var uploadedBytes = 0
    public var deleted = 0
    /// Objects `public/` no longer has that stay, because `--delete` was not given.
    public var kept = 0

    public var line: String {
        let verb = dryRun ? "would upload" : "uploaded"
        let count = dryRun ? plan.uploads.count : uploaded
        let bytes = dryRun ? plan.uploadBytes : uploadedBytes
        var parts = ["\(verb) \(Self.count(count, "file")) (\(Self.size(bytes)))", "\(plan.unchanged) unchanged"]
        if dryRun {
            if !plan.stale.isEmpty { parts.append("\(plan.stale.count) no longer in public/") }
        } else {
            if deleted > 0 { parts.append("deleted \(deleted)") }
            if kept > 0 { parts.append("\(kept) no longer in public/ kept (--delete removes them)") }
        }
        return parts.joined(separator: ", ")
    }

    static func count(_ n: Int, _ word: String) -> String { n == 1 ? "1 \(word)" : "\(n) \(word)s" }

    static func size(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1 << 20 { return "\((bytes + 512) / 1024) KB" }
        return String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
    }
}
