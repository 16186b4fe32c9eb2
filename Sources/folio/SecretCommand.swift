import ArgumentParser
import FolioModel

struct SecretCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secret",
        abstract: "Prints the site's secret, which unlisted and protected albums' addresses come from.",
        discussion: """
            The addresses of unlisted and password-protected albums (public/unlisted/<token>/) and \
            the protected pages' salts are derived from a secret the model (folio.sqlite) keeps, \
            made on first need (now, if no build made it yet). A new model makes a new one, and every \
            such address changes with it: keep it where you keep passwords, and give it back to a \
            build whose model is new (a CI's, from a fresh clone) in the environment:

              FOLIO_SITE_SECRET=<the 64 digits> folio build
              FOLIO_SITE_SECRET_FILE=/run/secrets/folio-site folio build

            A secret given so is used instead of the model's, which it leaves as it is. With one \
            given, this prints that one: the secret a build would use here and now.
            """
    )

    @OptionGroup var siteOptions: SiteOptions

    func run() throws {
        do {
            print(try SiteSecret.inEffect(for: siteOptions.paths).hex)
        } catch {
            throw fail(error)
        }
    }
}
