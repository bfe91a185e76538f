import Foundation
import SwiftSyntax

/// What the lowering needs to know about one type of the scanned file (a class, struct, actor or
/// enum with its extensions in the same file), or about the file's top level.
struct TypeModel {
    /// What a stored property holds, as far as the scan can tell.
    enum PropertyKind: Equatable {
        case identifier(optional: Bool)
        case bool(initial: Bool)
        case int(initial: Int)
        case lock
        case queue(concurrent: Bool)
        /// A `DispatchSemaphore` made with `value`, or a `DispatchGroup`: modelled where the scan
        /// checks an expiring activity's block (elsewhere a wait is work of unknown length).
        case semaphore(initial: Int)
        case group
        /// A stored closure (`var completion: (() -> Void)?`), such as a saved completion handler.
        case closure
        /// An object of a named type (`let state = RenderState()`, `let cache: TileCache`): when the
        /// type is declared in the same file, its methods are lowered where they are called.
        case object(type: String)
        case other
    }

    struct Property {
        var name: String
        var kind: PropertyKind
        var node: VariableDeclSyntax
    }

    var name: String
    /// Conforms to SwiftUI's `App`: its `init` runs before launch finishes.
    var isApp = false
    /// `@MainActor` on the type: its methods run on main.
    var isMainActor = false
    var properties: [String: Property] = [:]
    /// Property names in declaration order, so generated scenarios are deterministic.
    var propertyOrder: [String] = []
    var functions: [String: [FunctionDeclSyntax]] = [:]
    var functionOrder: [FunctionDeclSyntax] = []
    var initializers: [InitializerDeclSyntax] = []
    /// `deinit`: where an object that holds a task for its lifetime (begun in `init`) ends it.
    var deinitializers: [DeinitializerDeclSyntax] = []
    /// Closures SwiftUI runs once a view is on screen (`.onAppear { }`, `.task { }`), found in
    /// computed properties such as `body`: they run after launch has finished.
    var appearanceClosures: [ClosureExprSyntax] = []

    /// True when the property holds an optional closure of no arguments and no result (`var
    /// completion: (() -> Void)?`), as a saved background-session completion handler is.
    func holdsHandler(_ name: String) -> Bool {
        guard let property = properties[name], property.kind == .closure else { return false }
        let type = property.node.bindings.first { $0.pattern.trimmedDescription == name }?.typeAnnotation?.type.trimmedDescription ?? ""
        return ["(()->Void)?", "(()->())?"].contains(type.filter { !$0.isWhitespace })
    }

    mutating func add(_ property: Property) {
        if properties[property.name] == nil { propertyOrder.append(property.name) }
        properties[property.name] = property
    }

    mutating func add(_ function: FunctionDeclSyntax) {
        functions[function.name.text, default: []].append(function)
        functionOrder.append(function)
    }

    /// The function a call `name(labels…)` means: by base name, then, when there are overloads,
    /// by argument labels and count (`trailingClosures` more parameters than labels).
    func function(named name: String, labels: [String?], trailingClosures: Int = 0) -> FunctionDeclSyntax? {
        guard let candidates = functions[name] else { return nil }
        if candidates.count == 1 { return candidates[0] }
        return candidates.first { function in
            let parameters = function.signature.parameterClause.parameters.map { $0.firstName.text == "_" ? nil : $0.firstName.text }
            return parameters.count == labels.count + trailingClosures && Array(parameters.prefix(labels.count)) == labels
        }
    }
}

/// Collects the types of one parsed file.
final class TypeCollector: SyntaxVisitor {
    private(set) var types: [TypeModel] = []
    private var index: [String: Int] = [:]
    private var stack: [String] = []

    init() {
        super.init(viewMode: .sourceAccurate)
        open("<top level>", inherits: [], attributes: nil)
        stack = ["<top level>"]
    }

    static func collect(_ file: SourceFileSyntax) -> [TypeModel] {
        let collector = TypeCollector()
        collector.walk(file)
        return collector.types.filter { !$0.functionOrder.isEmpty || !$0.initializers.isEmpty || !$0.deinitializers.isEmpty }
    }

    private func open(_ name: String, inherits: [String], attributes: AttributeListSyntax?) {
        if index[name] == nil {
            index[name] = types.count
            types.append(TypeModel(name: name))
        }
        guard let position = index[name] else { return }
        if inherits.contains("App") { types[position].isApp = true }
        // UIKit's delegates and controllers and SwiftUI's App and View are main-actor types.
        let mainActorTypes: Set<String> = ["UIApplicationDelegate", "UIResponder", "UIViewController", "UIWindowSceneDelegate",
                                           "UISceneDelegate", "App", "View", "UITableViewController", "UICollectionViewController"]
        if attributes?.description.contains("@MainActor") == true || inherits.contains(where: mainActorTypes.contains) {
            types[position].isMainActor = true
        }
    }

    private func inherited(_ clause: InheritanceClauseSyntax?) -> [String] {
        clause?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
    }

    private func enter(_ name: String, _ clause: InheritanceClauseSyntax?, _ attributes: AttributeListSyntax?) -> SyntaxVisitorContinueKind {
        open(name, inherits: inherited(clause), attributes: attributes)
        stack.append(name)
        return .visitChildren
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text, node.inheritanceClause, node.attributes) }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text, node.inheritanceClause, node.attributes) }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text, node.inheritanceClause, node.attributes) }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text, node.inheritanceClause, node.attributes) }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(node.extendedType.trimmedDescription, node.inheritanceClause, node.attributes)
    }
    override func visitPost(_ node: ClassDeclSyntax) { stack.removeLast() }
    override func visitPost(_ node: StructDeclSyntax) { stack.removeLast() }
    override func visitPost(_ node: ActorDeclSyntax) { stack.removeLast() }
    override func visitPost(_ node: EnumDeclSyntax) { stack.removeLast() }
    override func visitPost(_ node: ExtensionDeclSyntax) { stack.removeLast() }

    private var current: Int? { stack.last.flatMap { index[$0] } }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        if let current { types[current].add(node) }
        return .skipChildren
    }

    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        if let current { types[current].initializers.append(node) }
        return .skipChildren
    }

    override func visit(_ node: DeinitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        if let current { types[current].deinitializers.append(node) }
        return .skipChildren
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        guard let current else { return .skipChildren }
        let isLet = node.bindingSpecifier.tokenKind == .keyword(.let)
        for binding in node.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
            // A computed property is not storage; its view modifiers may run code after launch.
            if let accessors = binding.accessorBlock, !accessors.description.contains("didSet"), !accessors.description.contains("willSet") {
                let finder = AppearanceFinder(viewMode: .sourceAccurate)
                finder.walk(accessors)
                types[current].appearanceClosures.append(contentsOf: finder.closures)
                continue
            }
            let kind = Self.kind(type: binding.typeAnnotation?.type.trimmedDescription, initial: binding.initializer?.value, isLet: isLet)
            types[current].add(TypeModel.Property(name: name, kind: kind, node: node))
        }
        return .skipChildren
    }

    /// What a property holds, from its type annotation and initial value.
    static func kind(type: String?, initial: ExprSyntax?, isLet: Bool) -> TypeModel.PropertyKind {
        let value = initial?.trimmedDescription ?? ""
        let type = type ?? ""
        if type.contains("UIBackgroundTaskIdentifier") || value.hasPrefix("UIBackgroundTaskIdentifier") || value == "UIBackgroundTaskInvalid" {
            return .identifier(optional: type.hasSuffix("?") || type.hasPrefix("Optional<") || value == "nil" && !type.hasSuffix("!"))
        }
        if value.hasPrefix("NSLock(") || value.hasPrefix("NSRecursiveLock(") || type == "NSLock" || type == "NSRecursiveLock"
            || value.hasPrefix("OSAllocatedUnfairLock(") {
            return .lock
        }
        if value.hasPrefix("DispatchQueue(") {
            return .queue(concurrent: value.contains(".concurrent"))
        }
        // An OperationQueue runs what `addOperation` is given at once, on a thread of its own:
        // serial when it allows one operation at a time.
        if value.hasPrefix("OperationQueue(") || type == "OperationQueue" || value.contains("OperationQueue()") && value.hasPrefix("{") {
            return .queue(concurrent: !value.contains("maxConcurrentOperationCount = 1"))
        }
        if value.hasPrefix("DispatchSemaphore(") || type == "DispatchSemaphore" {
            return .semaphore(initial: Int(String(value.drop { !$0.isNumber }.prefix { $0.isNumber })) ?? 0)
        }
        if value.hasPrefix("DispatchGroup(") || type == "DispatchGroup" { return .group }
        if type.contains("->") { return .closure }
        if !isLet, type == "Bool" || value == "true" || value == "false" {
            return .bool(initial: value == "true")
        }
        if !isLet, type == "Int" || Int(value) != nil, let number = Int(value.isEmpty ? "0" : value) {
            return .int(initial: number)
        }
        let named = type.trimmingCharacters(in: CharacterSet(charactersIn: "?!"))
        if named.first?.isUppercase == true, named.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) { return .object(type: named) }
        if let call = initial?.as(FunctionCallExprSyntax.self), let made = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
           made.first?.isUppercase == true {
            return .object(type: made)
        }
        return .other
    }
}

/// `.onAppear { }` and `.task { }` closures.
final class AppearanceFinder: SyntaxVisitor {
    var closures: [ClosureExprSyntax] = []
    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let member = node.calledExpression.as(MemberAccessExprSyntax.self), ["onAppear", "task"].contains(member.declName.baseName.text),
           let closure = node.trailingClosure ?? node.arguments.last?.expression.as(ClosureExprSyntax.self) {
            closures.append(closure)
        }
        return .visitChildren
    }
}
