; Go. Capture vocabulary: grammars/README.md. The files of a package share its top-level scope
; (languages.json: packageScope "directory"); names a file does not declare resolve at link time.

(package_clause (package_identifier) @package)

; ---------- scopes ----------
[(function_declaration) (method_declaration) (func_literal)] @scope.function
[(block) (for_statement) (if_statement) (expression_switch_statement) (type_switch_statement)
 (select_statement) (expression_case) (type_case) (default_case) (communication_case)] @scope
; `type G[T any] ...` : the type parameter belongs to the declaration
(type_spec) @scope

; ---------- definitions ----------
(function_declaration name: (identifier) @name) @definition.function
; a method belongs to its receiver's type, which may be declared in another file of the package
(method_declaration
  receiver: (parameter_list (parameter_declaration type: [(type_identifier) @member.of
                                                          (pointer_type (type_identifier) @member.of)
                                                          (generic_type type: (type_identifier) @member.of)
                                                          (pointer_type (generic_type type: (type_identifier) @member.of))]))
  name: (field_identifier) @name) @definition.method

(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type

(field_declaration name: (field_identifier) @name) @definition.property
; an embedded field is named by its type (`r.Config` with `struct { Config }`)
(field_declaration !name type: [(type_identifier) @name (pointer_type (type_identifier) @name)
                                (qualified_type name: (type_identifier) @name) (pointer_type (qualified_type name: (type_identifier) @name))
                                (generic_type type: (type_identifier) @name)] @declared.type) @definition.property.embedded
(interface_type (method_elem name: (field_identifier) @name) @definition.method)

(const_spec name: (identifier) @name) @definition.constant
(var_spec name: (identifier) @name) @definition.variable
(short_var_declaration left: (expression_list (identifier) @name)) @definition.variable
(range_clause left: (expression_list (identifier) @name) ":=") @definition.variable
(receive_statement left: (expression_list (identifier) @name) ":=") @definition.variable
(type_switch_statement alias: (expression_list (identifier) @name @definition.variable))

(parameter_declaration name: (identifier) @name) @definition.parameter
(variadic_parameter_declaration name: (identifier) @name) @definition.parameter
(type_parameter_declaration name: (identifier) @name @definition.type_parameter)
; `func (g G[T]) ...` declares T for the method
(method_declaration receiver: (parameter_list (parameter_declaration type: [
  (generic_type type_arguments: (type_arguments (type_elem (type_identifier) @name @definition.type_parameter)))
  (pointer_type (generic_type type_arguments: (type_arguments (type_elem (type_identifier) @name @definition.type_parameter))))])))

; ---------- declared types (members of x resolve through them) ----------
(parameter_declaration name: (identifier) @name type: (_) @declared.type)
(variadic_parameter_declaration name: (identifier) @name type: (_) @declared.type)
(var_spec name: (identifier) @name type: (_) @declared.type)
(field_declaration name: (field_identifier) @name type: (_) @declared.type)
; x := T{}, x := &T{}, x := NewT() (the function's result type), x := y, x := y.f (their types), x := y.(T)
(short_var_declaration left: (expression_list . (identifier) @name)
  right: (expression_list . [(composite_literal) (unary_expression operand: (composite_literal)) (call_expression)
                             (identifier) (selector_expression) (type_assertion_expression)] @declared.type))
(var_spec name: (identifier) @name
  value: (expression_list . [(composite_literal) (unary_expression operand: (composite_literal)) (call_expression)
                             (identifier) (selector_expression) (type_assertion_expression)] @declared.type))
; `for _, x := range xs`: x is an element of xs (a slice, an array, a map's value)
(range_clause left: (expression_list . (_) . (identifier) @name) ":=" right: (_) @declared.element)
(function_declaration name: (identifier) @name result: (_) @declared.type)
(method_declaration name: (field_identifier) @name result: (_) @declared.type)
(method_elem name: (field_identifier) @name result: (_) @declared.type)

; ---------- embedding: promoted fields and methods ----------
(type_spec type: (struct_type (field_declaration_list (field_declaration !name type: [
  (type_identifier) @class.extends (pointer_type (type_identifier) @class.extends)
  (qualified_type) @class.extends (pointer_type (qualified_type) @class.extends)
  (generic_type type: (type_identifier) @class.extends)])))) @class.derived
(type_spec type: (interface_type (type_elem [(type_identifier) @class.extends (qualified_type) @class.extends]))) @class.derived

; ---------- references ----------
(identifier) @reference
(type_identifier) @reference
(package_identifier) @reference
(selector_expression operand: (_) @member.object field: (field_identifier) @reference.member) @member.access
(qualified_type package: (_) @member.object name: (type_identifier) @reference.member) @member.access
; the keys of a struct literal are the struct's fields, also in literals whose type is elided
; (`[]T{{X: 1}}`, `map[K]*T{"k": {X: 1}}`); the first pattern that captures a key wins
(composite_literal type: [(type_identifier) (qualified_type) (generic_type)] @member.object
  body: (literal_value (keyed_element key: (literal_element (identifier) @reference.member))))
(composite_literal type: [(slice_type element: (_) @member.object) (array_type element: (_) @member.object)]
  body: (literal_value (literal_element (literal_value (keyed_element key: (literal_element (identifier) @reference.member))))))
(composite_literal type: (map_type value: (_) @member.object)
  body: (literal_value (keyed_element value: (literal_element (literal_value (keyed_element key: (literal_element (identifier) @reference.member)))))))
; deeper, the element type is not followed: a field of some struct (a guess)
(literal_value (literal_element (literal_value (keyed_element key: (literal_element (identifier) @reference.member))) @member.object))

; ---------- not references ----------
((identifier) @ignore (#eq? @ignore "_"))
[(package_clause) (import_declaration)] @ignore

; ---------- imports ----------
(import_spec name: (package_identifier) @import.namespace path: (interpreted_string_literal (interpreted_string_literal_content) @import.source))
(import_spec name: (dot) @import.wildcard path: (interpreted_string_literal (interpreted_string_literal_content) @import.source))
(import_spec name: (blank_identifier) path: (interpreted_string_literal (interpreted_string_literal_content) @import.source))
(import_spec !name path: (interpreted_string_literal (interpreted_string_literal_content) @import.source @import.package))

; ---------- exports: capitalised top-level names ----------
((function_declaration name: (identifier) @_n) @export.declaration (#match? @_n "^[A-Z]"))
((type_spec name: (type_identifier) @_n) @export.declaration (#match? @_n "^[A-Z]"))
((type_alias name: (type_identifier) @_n) @export.declaration (#match? @_n "^[A-Z]"))
((const_spec name: (identifier) @_n) @export.declaration (#match? @_n "^[A-Z]"))
((var_spec name: (identifier) @_n) @export.declaration (#match? @_n "^[A-Z]"))
; a capitalised method or field is visible outside the package too; it adds no name to the package
((method_declaration name: (field_identifier) @export.member) (#match? @export.member "^[A-Z]"))
((method_elem name: (field_identifier) @export.member) (#match? @export.member "^[A-Z]"))
((field_declaration name: (field_identifier) @export.member) (#match? @export.member "^[A-Z]"))
