/// Values the process keeps until it ends and never destroys.
///
/// A command's loaded Content is its largest value, and it lives to the end anyway: destroying
/// it (every rule's strings and arrays released one by one) took about 30 ms of a 10,000-rule
/// build on one core, after the site was already written, with nothing else to run beside it.
/// The operating system takes the whole heap back at exit at once, so the process skips that
/// work, as compilers skip freeing their syntax trees before they exit.
enum KeptUntilExit {
    private final class Holder<Value> {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// Holds one more reference to `value`'s storage for the rest of the process, so releasing
    /// the caller's copy never frees it.
    static func keep<Value>(_ value: Value) {
        _ = Unmanaged.passRetained(Holder(value))
    }
}
