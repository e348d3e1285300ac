; ECMAScript core: shared by JavaScript, TypeScript and TSX.
; Capture vocabulary is documented in grammars/README.md.

; ---------- scopes ----------
(program) @scope.function
[(function_declaration) (generator_function_declaration) (function_expression)
 (generator_function) (arrow_function) (method_definition)] @scope.function
[(statement_block) (for_statement) (for_in_statement) (catch_clause) (class_body)] @scope
(switch_body) @scope

; ---------- definitions ----------
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (_) @name) @definition.class
(class name: (_) @name) @definition.class_expression
; a named function passed as an argument (`export default defineHandler(function handler() {})`):
; its name is how people know it, though it binds only inside it (agent trials tr86, tr88)
(arguments (function_expression name: (identifier) @name) @definition.function_expression)

; accessors are read and written like properties (`get size()`, `set size(v)`)
(method_definition ["get" "set"] name: [(property_identifier) (private_property_identifier) (string) (number)] @name) @definition.property
(method_definition name: [(property_identifier) (private_property_identifier) (string) (number)] @name) @definition.method
; a member under a key a name holds (`[kRun]() {}`, `[setLevelSym]: setLevel`): named `[kRun]`, as
; `this[kRun]()` reaches it (pino, undici, node's own libraries key their internals by symbols)
(method_definition name: (computed_property_name (identifier)) @name) @definition.method

; const f = () => {} / function () {} is a function; other declarators are variables
(lexical_declaration
  (variable_declarator name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)]) @definition.function)
(lexical_declaration "const"
  (variable_declarator name: (identifier) @name) @definition.constant)
(lexical_declaration
  (variable_declarator name: (identifier) @name) @definition.variable)
(variable_declaration
  (variable_declarator name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)]) @definition.function.var)
(variable_declaration
  (variable_declarator name: (identifier) @name) @definition.variable.var)

; destructuring (declarations and parameters) binds every name in the pattern
(object_pattern (shorthand_property_identifier_pattern) @name @definition.binding)
(object_pattern (pair_pattern value: (identifier) @name @definition.binding))
(object_pattern (object_assignment_pattern left: (shorthand_property_identifier_pattern) @name @definition.binding))
(object_pattern (pair_pattern value: (assignment_pattern left: (identifier) @name @definition.binding)))
(object_pattern (rest_pattern (identifier) @name @definition.binding))
(array_pattern (identifier) @name @definition.binding)
(array_pattern (assignment_pattern left: (identifier) @name @definition.binding))
(array_pattern (rest_pattern (identifier) @name @definition.binding))

; for (const x of xs), catch (e)
(for_in_statement left: (identifier) @name @definition.binding)
(catch_clause parameter: (identifier) @name @definition.binding)

; parameters
(arrow_function parameter: (identifier) @name @definition.parameter)

; object literal members assigned to a declared variable: const api = { get() {} }; a member
; whose value is a function is a method (`{ $dispose: function () {} }`, `{ reset: () => {} }`)
(variable_declarator value: (object (pair key: (property_identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method))
(variable_declarator value: (object (pair key: (property_identifier) @name) @definition.property))
(variable_declarator value: (object (pair key: (computed_property_name (identifier)) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method))
(variable_declarator value: (object (pair key: (computed_property_name (identifier)) @name) @definition.property))
; … and methods of the object a function returns: `return { getItem: async (k) => … }`, `() => ({ clear() {} })`
; (whether they belong to a declared function is decided with their container, symbols.ts); its
; data properties stay keys of an object literal
(return_statement (object (pair key: (property_identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method))
(arrow_function body: (parenthesized_expression (object (pair key: (property_identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method)))
; … and of an object passed to a call: a member of the declaration whose value the call is, or of
; the class or function the call extends (`utils.inherits(AxiosError, Error, { toJSON: function () {} })`,
; symbols.ts), else of nothing
(arguments (object (pair key: (property_identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method))
; … and the members an object's property descriptors define: `Object.defineProperties(limit, {
; clearQueue: { value() {} }, activeCount: { get: () => n } })` gives limit a method (a `value` that is a
; function) or a property (a `get` or `set`), as the compiler reads them (agent trial tr75: p-limit's clearQueue)
(call_expression
  function: (member_expression object: (identifier) @_object property: (property_identifier) @_define)
  arguments: (arguments (object (pair key: (property_identifier) @name
    value: (object [(method_definition name: (property_identifier) @_value)
                    (pair key: (property_identifier) @_value value: [(arrow_function) (function_expression) (generator_function)])])) @definition.method.described))
  (#eq? @_object "Object") (#eq? @_define "defineProperties") (#eq? @_value "value"))
(call_expression
  function: (member_expression object: (identifier) @_object property: (property_identifier) @_define)
  arguments: (arguments (object (pair key: (property_identifier) @name
    value: (object [(method_definition name: (property_identifier) @_accessor) (pair key: (property_identifier) @_accessor)])) @definition.property.described))
  (#eq? @_object "Object") (#eq? @_define "defineProperties") (#match? @_accessor "^(get|set)$"))

; members declared apart, at the top of a module (CommonJS-era code): `Fixer.applyFixes =
; function () {}` is a member of the function or object Fixer, `Foo.prototype.bar = function () {}`
; a method of Foo — as TypeScript reads such assignments in JavaScript
(program (expression_statement (assignment_expression
  left: (member_expression object: (identifier) @member.of property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)]) @definition.method)
  (#not-any-of? @member.of "module" "exports" "window" "global" "globalThis" "self"))
; … also chained: `res.set = res.header = function header() {}` declares both (express's response and
; request objects: set, type, get were missing — agent trial tr112); both span the one function, so
; that a line of its body is evidence for either name (red team adv74)
(program (expression_statement (assignment_expression
  left: (member_expression object: (identifier) @member.of property: (property_identifier) @name)
  right: (assignment_expression
    left: (member_expression object: (identifier) @_same)
    right: [(arrow_function) (function_expression) (generator_function)])) @definition.method
  (#not-any-of? @member.of "module" "exports" "window" "global" "globalThis" "self")
  (#eq? @member.of @_same)))
(program (expression_statement (assignment_expression
  right: (assignment_expression
    left: (member_expression object: (identifier) @member.of property: (property_identifier) @name)
    right: [(arrow_function) (function_expression) (generator_function)]) @definition.method))
  (#not-any-of? @member.of "module" "exports" "window" "global" "globalThis" "self"))
; … and inside a body, a method of the object the same block declares before it: `const self = {} as
; ValidationInstance; self.requiredArguments = function (…) {…}; return self` (the factory style of
; yargs; symbols.ts expandoHolder; any other receiver declares nothing there)
(statement_block (expression_statement (assignment_expression
  left: (member_expression object: (identifier) property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)]) @definition.method.expando))
(program (expression_statement (assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) @member.of property: (property_identifier) @_prototype)
    property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)]) @definition.method)
  (#eq? @_prototype "prototype"))

; ---------- narrowing ----------
; inside `if (x instanceof C) { … }` and after `x instanceof C &&`, x holds a C
(if_statement
  condition: (parenthesized_expression (binary_expression
    left: (identifier) @narrowed.name operator: "instanceof" right: [(identifier) (member_expression)] @narrowed.type))
  consequence: (_) @narrowed.scope)
(binary_expression
  left: (binary_expression left: (identifier) @narrowed.name operator: "instanceof" right: [(identifier) (member_expression)] @narrowed.type)
  operator: "&&"
  right: (_) @narrowed.scope)

; ---------- references ----------
; keys of object literals: members of the type the object is written for, when it is evident
(object (pair key: (property_identifier) @object.key))
(object (shorthand_property_identifier) @object.key)
(object (method_definition name: (property_identifier) @object.key))
(identifier) @reference
(shorthand_property_identifier) @reference
(member_expression object: (_) @member.object property: [(property_identifier) (private_property_identifier)] @reference.member) @member.access
; `x[k]`: the member under the key k holds (the index is also a read of k)
(subscript_expression object: (_) @member.object index: (identifier) @reference.member.computed)

; documentation comments: their `{@link X}` / `@see X` tags are references (role `doc`)
(comment) @doc.comment

; ---------- not references ----------
(statement_identifier) @ignore

; ---------- imports ----------
(import_statement (import_clause (identifier) @import.default) source: (string (string_fragment) @import.source))
(import_statement (import_clause (namespace_import (identifier) @import.namespace)) source: (string (string_fragment) @import.source))
; `_` rather than `(_)`: the JavaScript grammar writes `default` in specifiers as an anonymous node
(import_statement (import_clause (named_imports (import_specifier name: _ @import.name alias: _? @import.alias))) source: (string (string_fragment) @import.source))

; ---------- exports ----------
(export_statement "default" declaration: (_) @export.default_declaration)
(export_statement "default" value: (_) @export.default_value)
(export_statement !source declaration: (_) @export.declaration)
(export_statement !source (export_clause (export_specifier name: (_) @export.local alias: _? @export.alias)))
(export_statement (export_clause (export_specifier name: _ @reexport.name alias: _? @reexport.alias)) source: (string (string_fragment) @reexport.source))
(export_statement (namespace_export (_) @reexport.namespace) source: (string (string_fragment) @reexport.source))
(export_statement "*" . "from" source: (string (string_fragment) @reexport.star))
