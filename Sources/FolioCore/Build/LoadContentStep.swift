/// Finds every catalog and image under `content/`.
struct LoadContentStep: BuildStep {
    let name = "load content"

    func run(_ context: BuildContext) async throws {
        context.inventory = try ContentLoader(contentRoot: context.paths.content).load()
        context.issues += context.inventory.issues
    }
}
