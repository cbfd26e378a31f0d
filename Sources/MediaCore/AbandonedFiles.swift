import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Files that runs killed by SIGKILL left in a shared folder (`$TMPDIR`): named `PREFIX` + the process id + `-` … +
/// `SUFFIX`, so that the next run can tell whose they are.
public enum AbandonedFiles {
    /// Removes the files in `directory` named `prefix` + PID + `-` … + `suffix` whose process is gone (`kill(pid, 0)`
    /// says ESRCH). A live process's, this one's included, is never touched, nor a directory named so (`unlink`).
    public static func remove(in directory: String, prefix: String, suffix: String) {
        let own = getpid()
        let folder = directory.hasSuffix("/") ? directory : directory + "/"
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        where entry.hasPrefix(prefix) && entry.hasSuffix(suffix) {
            let rest = entry.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), rest[..<dash].allSatisfy({ $0.isASCII && $0.isNumber }),
                  let pid = Int32(rest[..<dash]), pid > 0, pid != own, kill(pid, 0) != 0, errno == ESRCH else { continue }
            _ = unlink(folder + entry)
        }
    }
}
