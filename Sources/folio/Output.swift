import FolioCore
import Foundation

/// A line for the user on standard output.
func say(_ line: String) {
    settle(Console.write(line + "\n", to: .output))
}

/// A line for the user on standard error: problems, progress, the build's steps.
func tell(_ line: String) {
    settle(Console.write(line + "\n", to: .error))
}

/// What a failed write of Folio's own output means. A reader gone (`folio build | head -1`) ends
/// the command as command-line tools end, by SIGPIPE (status 141 in a shell): what is left to say
/// has no one to read it. Any other failure (a full disk under `2> build.log`) loses the line
/// and nothing else: the work goes on and the exit status still tells how it went.
private func settle(_ outcome: Console.Outcome) {
    guard outcome == .readerGone else { return }
    signal(SIGPIPE, SIG_DFL)
    raise(SIGPIPE)
}
