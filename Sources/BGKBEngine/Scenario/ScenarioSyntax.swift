/// The parser's intermediate form of an expression, before names get their meaning
/// (`DispatchQueue.global().async { }` is a path of three components, one with a closure).
/// Only the cases that hold an expression are boxed: a path, a literal or a closure is stored
/// in place, so most expressions allocate nothing of their own.
enum Syntax: Sendable, Hashable {
    case path([Component], Scenario.Place)
    case number(Double, unit: String?, Scenario.Place)
    case string(String, Scenario.Place)
    case hex(String, Scenario.Place)
    case closure(Int32, Scenario.Place)
    indirect case binary(String, Syntax, Syntax, Scenario.Place)
    indirect case not(Syntax, Scenario.Place)

    struct Component: Sendable, Hashable {
        /// Empty for an implicit member's base (`.invalid`).
        var name: String
        var arguments: [Argument]?
        var unwrapped = false
        /// `name?.` or `name?()`: optional chaining (nil does nothing).
        var chained = false
        var place: Scenario.Place
    }

    struct Argument: Sendable, Hashable {
        var label: String?
        var value: Syntax
    }

    var place: Scenario.Place {
        switch self {
        case let .path(_, p), let .number(_, _, p), let .string(_, p), let .hex(_, p), let .closure(_, p),
             let .binary(_, _, _, p), let .not(_, p):
            return p
        }
    }
}
