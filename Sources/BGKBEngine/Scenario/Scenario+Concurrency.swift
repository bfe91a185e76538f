/// The statements and values of Dispatch's timers, semaphores and groups, Swift concurrency,
/// background URLSession and continued processing: the Swift apps actually contain.
/// `ScenarioParser+Concurrency.swift` reads them; the `Machine+Dispatch`, `Machine+URLSession`
/// and `Machine+ContinuedProcessing` files run them.

/// An expression that makes an object.
enum ObjectExpression: Sendable, Hashable {
    /// `DispatchSemaphore(value: n)`.
    case semaphore(value: Int)
    /// `DispatchGroup()`.
    case group
    /// `URLSession(configuration: .background(withIdentifier: "id"), ...)`.
    case backgroundSession(identifier: Int32)
    /// `BGContinuedProcessingTaskRequest(identifier:title:subtitle:)`.
    case continuedRequest(identifier: Int32)
}

/// A global whose first value is an object, made when the process launches (as the app
/// delegate's stored properties are).
struct ObjectGlobal: Sendable, Hashable {
    var global: Int32
    var object: ObjectExpression
}

enum ConcurrencyStatement: Sendable, Hashable {
    /// `queue.asyncAfter(deadline: .now() + 5) { }`: a timer runs `timer` (wait, then dispatch)
    /// on a thread of its own.
    case startTimer(block: Int32)
    /// `sem.signal()`, `sem.wait()`, `sem.wait(timeout: .now() + 5)`.
    case signal(Expression)
    case wait(Expression, timeout: Double?)
    /// `group.enter()`, `group.leave()`, `group.notify(queue:) { }`, `group.wait()`.
    case enter(Expression)
    case leave(Expression)
    case notify(Expression, queue: QueueRef, block: Int32)
    case waitGroup(Expression, timeout: Double?)
    /// `while condition { }`.
    case whileLoop(Condition, block: Int32)
    /// `try await Task.sleep(for: .seconds(5))`: on the main actor the task lets go of the main
    /// thread and `resume` (a timer block) queues the rest of it back on main; elsewhere the
    /// task's own thread sleeps.
    case sleep(Double, resume: Int32)
    /// In a resume block: queue the suspended task (the block's parameter) back on main.
    case resumeTask
    /// `session.downloadTask(with: url).resume()`, `session.uploadTask(with:fromFile:).resume()`.
    case startTransfer(Expression, optional: Bool)
    /// `session.uploadTask(with: request, from: data).resume()`: fails if the app is no longer
    /// running when it ends (background sessions carry on only uploads from a file).
    case uploadFromData(Expression, optional: Bool)
    /// `completionHandler()`, `savedHandler?()`: a stored closure called.
    case callHandler(Expression, optional: Bool)
    /// `request.strategy = .fail` / `.queue`.
    case setStrategy(VariableRef, fail: Bool)
    /// `task.progress.completedUnitCount = n` (or `totalUnitCount`).
    case reportProgress(Expression, completed: Bool)
    /// A call with no effect on the model (`task.updateTitle(...)`): shown in the trace.
    case noEffect
}
