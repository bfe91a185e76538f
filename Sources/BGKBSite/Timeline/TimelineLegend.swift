import Foundation

/// The marks a timeline can draw, each with its swatch in the legend: a chart's legend lists only
/// the ones it draws (`TimelineSVG.Layout.legend`), App row colours included.
enum LegendItem: String, CaseIterable, Sendable {
    case foreground, background, suspended, terminated, other
    case task, leaked, expiry, step, log, crashed, killed, undecided, axisBreak, fold

    /// The App row's states, in the order a run meets them.
    static let appStates: [LegendItem] = [.foreground, .background, .suspended, .terminated, .other]

    /// An App row state's class on its segments (`TimelineSVG.stateClass`), its `rawValue` as a
    /// literal, which the page writes as markup (`other` for an item that is not a state).
    var stateClass: StaticString {
        switch self {
        case .foreground: return "foreground"
        case .background: return "background"
        case .suspended: return "suspended"
        case .terminated: return "terminated"
        default: return "other"
        }
    }

    /// What the legend says next to the swatch, as markup: the page writes it as it is, so its
    /// one apostrophe is written escaped, as the text it was escaped to.
    var label: StaticString {
        switch self {
        case .foreground: return "app in the foreground"
        case .background: return "app in the background"
        case .suspended: return "app suspended"
        case .terminated: return "app not running"
        case .other: return "app launching"
        case .task: return "background task, begun to ended"
        case .leaked: return "task never ended (leaked)"
        case .expiry: return "system expires the task: expiry handler called"
        case .step: return "a line of the app&#39;s code runs"
        case .log: return "iOS logs a warning"
        case .crashed: return "the app crashes"
        case .killed: return "the system kills the app"
        case .undecided: return "the simulator stops the run at its own limit (undecided)"
        case .axisBreak: return "axis break: events at one instant, spread apart in the order they happened"
        case .fold: return "repeated turns folded: the first is drawn, the rest counted"
        }
    }

    /// The swatch's classes, `sw` and `sw-` with the item's `rawValue`, as markup.
    var swatchClass: StaticString {
        switch self {
        case .foreground: return "sw sw-foreground"
        case .background: return "sw sw-background"
        case .suspended: return "sw sw-suspended"
        case .terminated: return "sw sw-terminated"
        case .other: return "sw sw-other"
        case .task: return "sw sw-task"
        case .leaked: return "sw sw-leaked"
        case .expiry: return "sw sw-expiry"
        case .step: return "sw sw-step"
        case .log: return "sw sw-log"
        case .crashed: return "sw sw-crashed"
        case .killed: return "sw sw-killed"
        case .undecided: return "sw sw-undecided"
        case .axisBreak: return "sw sw-axisBreak"
        case .fold: return "sw sw-fold"
        }
    }
}

/// The timeline's colours, light and dark: the stylesheet's custom properties are written from
/// this table, and a test holds every mark to a contrast of at least 3:1 against the row it sits
/// on, in both themes.
enum TimelinePalette {
    struct Theme: Sendable {
        /// What marks sit on: a lane's row, and the page around the chart.
        var row: String, surface: String
        var grid: String, label: String
        var foreground: String, background: String, suspended: String, other: String
        var task: String, leak: String, expiry: String, end: String, step: String, log: String
        /// The text written on an App row segment.
        var stateText: String

        /// The marks that must stand out from `row` (the name is for a failing test's message).
        var marks: [(name: String, colour: String)] {
            [("grid", grid), ("label", label), ("foreground", foreground), ("background", background),
             ("suspended", suspended), ("other", other), ("task", task), ("leak", leak), ("expiry", expiry),
             ("end", end), ("step", step), ("log", log)]
        }

        /// The CSS custom properties, as the stylesheet declares them.
        var css: String {
            "--tl-row: \(row); --tl-grid: \(grid); --tl-label: \(label); --tl-fg: \(foreground); --tl-bg: \(background); "
                + "--tl-susp: \(suspended); --tl-other: \(other); --tl-task: \(task); --tl-leak: \(leak); "
                + "--tl-expiry: \(expiry); --tl-end: \(end); --tl-step: \(step); --tl-log: \(log); --tl-state-text: \(stateText);"
        }
    }

    static let light = Theme(row: "#f3f3f7", surface: "#ffffff", grid: "#8a8a96", label: "#3b3b45",
                             foreground: "#2a7047", background: "#2f5fbd", suspended: "#62626d", other: "#7a5f12",
                             task: "#6a40c4", leak: "#b93a08", expiry: "#8a4a00", end: "#c01818", step: "#3b3b45",
                             log: "#a8326e", stateText: "#ffffff")
    static let dark = Theme(row: "#1f1f26", surface: "#1b1b21", grid: "#777784", label: "#c4c4cf",
                            foreground: "#4fae78", background: "#6b93e6", suspended: "#8c8c9a", other: "#b8962e",
                            task: "#a68af2", leak: "#f07a3c", expiry: "#f5b342", end: "#ff6b6b", step: "#c4c4cf",
                            log: "#f28cc2", stateText: "#101014")

    /// WCAG's contrast ratio of two `#rrggbb` colours (1 to 21); nil for a colour it cannot read.
    static func contrast(_ first: String, _ second: String) -> Double? {
        guard let a = luminance(first), let b = luminance(second) else { return nil }
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    static func luminance(_ hex: String) -> Double? {
        let digits = Array(hex.utf8.dropFirst())
        guard hex.hasPrefix("#"), digits.count == 6, let value = Int(String(decoding: digits, as: UTF8.self), radix: 16) else { return nil }
        func channel(_ shift: Int) -> Double {
            let c = Double((value >> shift) & 0xFF) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0)
    }
}
