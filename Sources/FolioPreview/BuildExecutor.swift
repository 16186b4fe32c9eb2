import Foundation

/// Threads of the preview's own for its builds: on Swift's shared pool, a build's photo work
/// would hold the very threads the server answers requests on. On threads of their own, the
/// system shares the cores between the two, and the preview stays responsive while it rebuilds.
final class BuildExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var next = 0
    private var stopping = false

    init(threads: Int) {
        for index in 0..<max(1, threads) {
            let thread = Thread { [self] in work() }
            thread.name = "folio-build-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while next == jobs.count && !stopping { condition.wait() }
            guard next < jobs.count else {
                condition.unlock()
                return
            }
            let job = jobs[next]
            next += 1
            // Emptied: start over, so the queue does not only grow.
            if next == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                next = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// Lets the threads end once the jobs already queued have run. Call it when no build runs:
    /// a job queued after they have gone would never run.
    func shutdown() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }
}
