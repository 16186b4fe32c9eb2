/// How Folio talks HTTP: a seam, so tests and other transports can stand in.
public protocol WebClient: Sendable {
    func send(_ request: WebRequest) async throws -> WebResponse
}
