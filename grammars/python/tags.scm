; Python. Capture vocabulary: grammars/README.md.
; Python scopes are functions, lambdas, comprehensions and class bodies; `if`/`for`/`with`/`try`
; blocks are not scopes, and an assignment anywhere in a function makes the name local to all of it.

; ---------- scopes ----------
(module) @scope.function
[(function_definition) (lambda) (list_comprehension) (set_comprehension) (dictionary_comprehension)
 (generator_expression)] @scope.function
; a class body holds the class's names, but the functions inside it do not see them
(class_definition body: (block) @scope.class)
; default values and annotations are evaluated where the function is defined, not inside it
(default_parameter value: (_) @scope.outer)
(typed_default_parameter value: (_) @scope.outer)
(typed_default_parameter type: (_) @scope.outer)
(typed_parameter type: (_) @scope.outer)
(function_definition return_type: (_) @scope.outer)

; ---------- definitions ----------
(class_definition name: (identifier) @name) @definition.class
; methods: functions directly in a class body, decorated or not (the plain `function` pattern
; below captures them too; the member definition wins)
(class_definition body: (block (function_definition name: (identifier) @name) @definition.method))
(class_definition body: (block (decorated_definition definition: (function_definition name: (identifier) @name) @definition.method)))
(function_definition name: (identifier) @name) @definition.function
; class attributes (`x = 1`, `x: int`, dataclass fields)
(class_definition body: (block (expression_statement (assignment left: (identifier) @name) @definition.property)))
; instance attributes: `self.x = v` in a method declares x on the class (the first one does)
(assignment left: (attribute object: (identifier) @member.object attribute: (identifier) @name)) @definition.attribute
(type_alias_statement left: (type (identifier) @name)) @definition.type
; what calling a function gives (`def make() -> Product`): members of a call's result
(function_definition name: (identifier) @name return_type: (type) @declared.type)
; `for x in xs:` with `xs: list[T]`: x is a T
(for_statement left: (identifier) @name right: (_) @declared.element)

; the receiver: the first parameter of a method (`self`, `cls`) is the enclosing class
(class_definition body: (block (function_definition
  parameters: (parameters . [(identifier) @name (typed_parameter . (identifier) @name)] @definition.self))))
(class_definition body: (block (decorated_definition (decorator) @_d
  definition: (function_definition parameters: (parameters . [(identifier) @name (typed_parameter . (identifier) @name)] @definition.self))))
  (#not-match? @_d "staticmethod"))

; parameters
(parameters (identifier) @name @definition.parameter)
(parameters (typed_parameter . (identifier) @name @definition.parameter))
(default_parameter name: (identifier) @name @definition.parameter)
(typed_default_parameter name: (identifier) @name @definition.parameter)
(list_splat_pattern (identifier) @name @definition.parameter)
(dictionary_splat_pattern (identifier) @name @definition.parameter)
(lambda_parameters (identifier) @name @definition.parameter)

; assignments and the other binding forms: the first one in a scope defines the name, later ones
; write to it
(assignment left: (identifier) @name) @definition.variable.assign
(augmented_assignment left: (identifier) @name) @definition.variable.assign
(pattern_list (identifier) @name @definition.variable.assign)
(tuple_pattern (identifier) @name @definition.variable.assign)
(list_pattern (identifier) @name @definition.variable.assign)
(as_pattern_target (tuple (identifier) @name @definition.variable.assign))
(for_statement left: (identifier) @name @definition.variable.assign)
(for_in_clause left: (identifier) @name @definition.variable.assign)
(as_pattern_target (identifier) @name @definition.variable.assign)
(named_expression name: (identifier) @name @definition.variable.assign)
; match/case captures: a lone name binds (a dotted name is a value pattern)
(case_pattern (dotted_name . (identifier) @name .) @definition.variable.assign)
(keyword_pattern (dotted_name . (identifier) @name .) @definition.variable.assign)
(splat_pattern (identifier) @name @definition.variable.assign)
(case_pattern (as_pattern (identifier) @name @definition.variable.assign))

; `global x` / `nonlocal x`: assignments to x in this function bind the module's (the enclosing function's) x
(global_statement (identifier) @binding.global)
(nonlocal_statement (identifier) @binding.nonlocal)

; ---------- references ----------
(identifier) @reference
(attribute object: (_) @member.object attribute: (identifier) @reference.member) @member.access
; a forward reference in an annotation (`-> "Foo"`, `Optional["Foo"]`) names a type
((type (string (string_content) @reference)) (#match? @reference "^[A-Za-z_][A-Za-z0-9_]*$"))
; value patterns in `case` (`Color.RED`)
(dotted_name . (identifier) @member.object . (identifier) @reference.member) @member.access
(dotted_name (identifier) (identifier) (identifier) @ignore)
; `super().m()`: m is looked up in the bases of the enclosing class
((call function: (identifier) @_super) @receiver.super (#eq? @_super "super"))

; ---------- not references ----------
(keyword_argument name: (identifier) @ignore)
(keyword_pattern . (identifier) @ignore)
[(import_statement) (import_from_statement) (future_import_statement)] @ignore

; ---------- inheritance ----------
(class_definition superclasses: (argument_list (identifier) @class.extends)) @class.derived

; ---------- imports ----------
; `import a.b.c` binds a (a.b.c.f() resolves through it); `import a.b as m` binds the module a.b
(import_statement name: (dotted_name . (identifier) @import.namespace @import.source))
(import_statement name: (aliased_import name: (dotted_name) @import.source alias: (identifier) @import.namespace))
(import_from_statement module_name: (_) @import.source name: (dotted_name . (identifier) @import.name .))
(import_from_statement module_name: (_) @import.source
  name: (aliased_import name: (dotted_name . (identifier) @import.name .) alias: (identifier) @import.alias))
(import_from_statement module_name: (_) @import.source (wildcard_import) @import.wildcard)

; ---------- exports ----------
; every top-level name is an export (languages.json `exportsTopLevel`); a literal `__all__` says
; which ones `from m import *` takes
(module (expression_statement (assignment left: (identifier) @_all
  right: [(list (string (string_content) @export.list)) (tuple (string (string_content) @export.list))]))
  (#eq? @_all "__all__"))
(module (expression_statement (augmented_assignment left: (identifier) @_all
  right: [(list (string (string_content) @export.list)) (tuple (string (string_content) @export.list))]))
  (#eq? @_all "__all__"))
