; Java. Capture vocabulary: grammars/README.md. Classes of one package see each other without
; imports (languages.json: packageScope "declared"); members are in scope in their class body.

(package_declaration [(identifier) (scoped_identifier)] @package)

; ---------- scopes ----------
(program) @scope.function
[(method_declaration) (constructor_declaration) (compact_constructor_declaration) (lambda_expression)] @scope.function
[(class_body) (interface_body) (enum_body) (annotation_type_body) (block) (constructor_body)
 (for_statement) (enhanced_for_statement) (catch_clause) (try_with_resources_statement)
 (switch_block_statement_group) (switch_rule)] @scope
; type parameters belong to their declaration
[(class_declaration) (interface_declaration) (record_declaration)] @scope

; ---------- definitions ----------
(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.record
(enum_constant name: (identifier) @name) @definition.enum_member

(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(annotation_type_element_declaration name: (identifier) @name) @definition.method
(field_declaration declarator: (variable_declarator name: (identifier) @name) @definition.property)
(constant_declaration declarator: (variable_declarator name: (identifier) @name) @definition.property)
; record components are fields of the record
(record_declaration parameters: (formal_parameters (formal_parameter name: (identifier) @name) @definition.property))

(local_variable_declaration declarator: (variable_declarator name: (identifier) @name) @definition.variable)
(enhanced_for_statement name: (identifier) @name @definition.variable)
(resource name: (identifier) @name @definition.variable)
(instanceof_expression name: (identifier) @name @definition.variable)
(record_pattern_component (identifier) @name @definition.variable)

(method_declaration parameters: (formal_parameters (formal_parameter name: (identifier) @name @definition.parameter)))
(method_declaration parameters: (formal_parameters (spread_parameter (variable_declarator name: (identifier) @name @definition.parameter.variadic))))
(constructor_declaration parameters: (formal_parameters (formal_parameter name: (identifier) @name @definition.parameter)))
(constructor_declaration parameters: (formal_parameters (spread_parameter (variable_declarator name: (identifier) @name @definition.parameter.variadic))))
(lambda_expression parameters: (formal_parameters (formal_parameter name: (identifier) @name @definition.parameter)))
(lambda_expression parameters: (formal_parameters (spread_parameter (variable_declarator name: (identifier) @name @definition.parameter.variadic))))
(lambda_expression parameters: (identifier) @name @definition.parameter)
(lambda_expression parameters: (inferred_parameters (identifier) @name @definition.parameter))
(catch_formal_parameter name: (identifier) @name @definition.parameter)
(type_parameter (type_identifier) @name @definition.type_parameter)

; ---------- declared types (members of x resolve through them) ----------
(field_declaration type: (_) @declared.type declarator: (variable_declarator name: (identifier) @name))
(constant_declaration type: (_) @declared.type declarator: (variable_declarator name: (identifier) @name))
((local_variable_declaration type: (_) @declared.type declarator: (variable_declarator name: (identifier) @name))
  (#not-eq? @declared.type "var"))
(variable_declarator name: (identifier) @name value: (object_creation_expression) @declared.type)
(formal_parameter type: (_) @declared.type name: (identifier) @name)
(spread_parameter (_) @declared.type (variable_declarator name: (identifier) @name))
(catch_formal_parameter (catch_type . (_) @declared.type .) name: (identifier) @name)
(enhanced_for_statement type: (_) @declared.type name: (identifier) @name (#not-eq? @declared.type "var"))
(resource type: (_) @declared.type name: (identifier) @name (#not-eq? @declared.type "var"))
(instanceof_expression right: (_) @declared.type name: (identifier) @name)
; a method's declared type is what it returns: x.m().n() looks n up there
(method_declaration type: (_) @declared.type name: (identifier) @name)

; ---------- inheritance ----------
(_ superclass: (superclass [(type_identifier) (scoped_type_identifier) (generic_type)] @class.extends)) @class.derived
(_ interfaces: (super_interfaces (type_list [(type_identifier) (scoped_type_identifier) (generic_type)] @class.extends))) @class.derived
(interface_declaration (extends_interfaces (type_list [(type_identifier) (scoped_type_identifier) (generic_type)] @class.extends))) @class.derived

; ---------- references ----------
(identifier) @reference
(type_identifier) @reference
(field_access object: (_) @member.object field: (identifier) @reference.member) @member.access
(method_invocation object: (_) @member.object name: (identifier) @reference.member) @member.access
(method_reference . (_) @member.object . (identifier) @reference.member .) @member.access
(scoped_type_identifier . (_) @member.object . (type_identifier) @reference.member .) @member.access
; the classes on an import's path (`import static a.B.C.m;`: B and C; package names resolve to nothing)
(import_declaration (scoped_identifier scope: (scoped_identifier scope: (_) @member.object name: (identifier) @reference.member)))
(import_declaration (scoped_identifier scope: (scoped_identifier scope: (scoped_identifier scope: (_) @member.object name: (identifier) @reference.member))))
(import_declaration (scoped_identifier scope: (scoped_identifier scope: (scoped_identifier scope: (scoped_identifier scope: (_) @member.object name: (identifier) @reference.member)))))
(import_declaration (scoped_identifier scope: (_) @member.object name: (identifier) @reference.member) (asterisk))
; `case RED:` on an enum value names a constant of the switched value's type; on an int, a
; constant in scope: when the switched value's type is unknown, the name in scope is taken
(switch_expression condition: (parenthesized_expression (_) @member.object)
  body: (switch_block [(switch_block_statement_group (switch_label (identifier) @reference.member @member.in_scope))
                       (switch_rule (switch_label (identifier) @reference.member @member.in_scope))]))

; ---------- not references ----------
[(package_declaration) (module_declaration)] @ignore
((type_identifier) @ignore (#eq? @ignore "var"))
(labeled_statement (identifier) @ignore)
(break_statement (identifier) @ignore)
(continue_statement (identifier) @ignore)
; annotation arguments name the annotation's elements
(element_value_pair key: (identifier) @ignore)

; ---------- imports ----------
; `import a.b.C;` and `import static a.b.C.m;`: the last name from the rest of the path
(import_declaration (scoped_identifier scope: (_) @import.source name: (identifier) @import.name) .)
; `import a.b.*;` and `import static a.b.C.*;`
(import_declaration [(identifier) (scoped_identifier)] @import.source (asterisk) @import.wildcard)

; ---------- exports: public top-level types ----------
(program [(class_declaration (modifiers "public")) (interface_declaration (modifiers "public"))
          (enum_declaration (modifiers "public")) (record_declaration (modifiers "public"))
          (annotation_type_declaration (modifiers "public"))] @export.declaration)
