; JavaScript-only node types (the TypeScript grammars name these differently).
(field_definition property: [(property_identifier) (private_property_identifier)] @name) @definition.property
(formal_parameters (identifier) @name @definition.parameter)
(formal_parameters (assignment_pattern left: (identifier) @name @definition.parameter))
(formal_parameters (rest_pattern (identifier) @name @definition.parameter))

; `class A extends B`: members A does not declare are looked up in B
(class_declaration (class_heritage (identifier) @class.extends)) @class.derived
