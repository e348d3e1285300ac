; JavaScript-only node types (the TypeScript grammars name these differently).
(field_definition property: (property_identifier) @name) @definition.property
(formal_parameters (identifier) @name @definition.parameter)
(formal_parameters (assignment_pattern left: (identifier) @name @definition.parameter))
(formal_parameters (rest_pattern (identifier) @name @definition.parameter))
