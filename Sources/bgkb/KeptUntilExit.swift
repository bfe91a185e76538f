/// Values the process keeps until it ends and never destroys.
///
/// A command's loaded Content is its largest value, and it lives to the end anyway: destroying
/// it would release every rule's strings and arrays one by one after the site is written.
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
