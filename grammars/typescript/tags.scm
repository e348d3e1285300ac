; TypeScript declarations and type positions (TypeScript and TSX grammars).
(abstract_class_declaration name: (_) @name) @definition.class
(interface_declaration name: (_) @name) @definition.interface
(type_alias_declaration name: (_) @name) @definition.type
(enum_declaration name: (_) @name) @definition.enum
(enum_body [(property_identifier) (string)] @name @definition.enum_member)
(enum_body (enum_assignment name: (_) @name) @definition.enum_member)
(internal_module name: (identifier) @name) @definition.namespace
(function_signature name: (identifier) @name) @definition.function
(public_field_definition name: [(property_identifier) (private_property_identifier) (string)] @name) @definition.property
(method_signature name: (_) @name) @definition.method
(abstract_method_signature name: (_) @name) @definition.method
(property_signature name: (_) @name) @definition.property
(interface_body (property_signature name: (_) @name) @definition.property)
(required_parameter (accessibility_modifier) pattern: (identifier) @name) @definition.property_parameter
(optional_parameter (accessibility_modifier) pattern: (identifier) @name) @definition.property_parameter
(type_parameter name: (type_identifier) @name @definition.type_parameter)

(internal_module) @scope.function
[(interface_declaration) (type_alias_declaration) (function_signature) (method_signature)] @scope

(required_parameter pattern: (identifier) @name @definition.parameter)
(optional_parameter pattern: (identifier) @name @definition.parameter)
(required_parameter pattern: (rest_pattern (identifier) @name @definition.parameter))

; `for (const x of xs)`: x is an element of xs (`xs: T[]`, `Array<T>`)
(for_in_statement left: (identifier) @name operator: "of" right: (_) @declared.element)

; what calling a function gives: its declared return type (not the type of the name itself)
(function_declaration name: (identifier) @name return_type: (type_annotation) @declared.result)
(function_signature name: (identifier) @name return_type: (type_annotation) @declared.result)
(method_definition name: (_) @name return_type: (type_annotation) @declared.result)
(method_signature name: (_) @name return_type: (type_annotation) @declared.result)
(abstract_method_signature name: (_) @name return_type: (type_annotation) @declared.result)
(variable_declarator name: (identifier) @name value: (arrow_function return_type: (type_annotation) @declared.result))
(variable_declarator name: (identifier) @name value: (function_expression return_type: (type_annotation) @declared.result))

(type_identifier) @reference
(nested_type_identifier module: (_) @member.object name: (type_identifier) @reference.member) @member.access

; the name of an ambient module declaration is a string, not a reference
(ambient_declaration (module name: (_) @ignore))
(import_require_clause (identifier) @import.namespace source: (string (string_fragment) @import.source))

; `class A extends B`: members A does not declare are looked up in B
(class_declaration (class_heritage (extends_clause value: (identifier) @class.extends))) @class.derived
(abstract_class_declaration (class_heritage (extends_clause value: (identifier) @class.extends))) @class.derived

; `const p: Provider = { now() {} }`: the literal's members implement the declared type's (find_references relates them)
(variable_declarator type: (type_annotation (type_identifier) @class.extends) value: (object)) @class.derived
(variable_declarator type: (type_annotation (generic_type name: (type_identifier) @class.extends)) value: (object)) @class.derived
; … and `const self = {} as T`, whose methods a body assigns later (yargs' factories: symbols.ts expandoHolder)
(variable_declarator value: (as_expression (object) [(type_identifier) @class.extends (generic_type name: (type_identifier) @class.extends)])) @class.derived

; interfaces inherit members from what they extend
(interface_declaration (extends_type_clause (type_identifier) @class.extends)) @class.derived
(interface_declaration (extends_type_clause (generic_type name: (type_identifier) @class.extends))) @class.derived
; a class is related to the interfaces it implements (members cascade in find_references)
(class_declaration (class_heritage (implements_clause (type_identifier) @class.extends))) @class.derived
(class_declaration (class_heritage (implements_clause (generic_type name: (type_identifier) @class.extends)))) @class.derived
(abstract_class_declaration (class_heritage (implements_clause (type_identifier) @class.extends))) @class.derived
(abstract_class_declaration (class_heritage (implements_clause (generic_type name: (type_identifier) @class.extends)))) @class.derived
