import FolioCore
import Foundation
import GRDB

extension DiskFailure {
    /// SQLite's word that the disk failed under the model (full, read-only, an I/O error, the
    /// file gone), as a disk failure of its file; nil for any other error. SQLite rolls the
    /// failed transaction back: the model is as it was.
    package init?(_ error: DatabaseError, model: String) {
        switch error.resultCode {
        case .SQLITE_FULL: self.init(ENOSPC, model)
        case .SQLITE_READONLY: self.init(EROFS, model)
        case .SQLITE_IOERR: self.init(EIO, model)
        case .SQLITE_CANTOPEN: self.init(ENOENT, model)
        default: return nil
        }
    }
}
