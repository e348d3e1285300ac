; Rust. Capture vocabulary: grammars/README.md.
; Items are visible in their whole block; `let` and pattern bindings only after their declaration
; (languages.json `localsAfterDeclaration`), which is what makes `let x = x + 1` shadowing work.

; ---------- scopes ----------
(source_file) @scope.function
[(function_item) (closure_expression)] @scope.function
; an inline module holds its own items (`mod m { ... }`)
(mod_item body: (_)) @scope.function
[(block) (match_arm) (for_expression) (if_expression) (while_expression) (impl_item) (trait_item)
 (struct_item) (enum_item) (union_item) (type_item) (function_signature_item)] @scope

; ---------- definitions ----------
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(enum_variant name: (identifier) @name) @definition.enum_member
(trait_item name: (type_identifier) @name) @definition.trait
(mod_item name: (identifier) @name) @definition.module
(macro_definition name: (identifier) @name) @definition.macro
(type_item name: (type_identifier) @name) @definition.type
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.variable
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function

; members: fields, the items of a trait, and those of an `impl T` / `impl Trait for T` block, which
; belong to T wherever T is declared (`@member.of`) (the plain patterns above capture them too; the
; member definition wins)
(field_declaration name: (field_identifier) @name) @definition.property
(trait_item body: (declaration_list [(function_item name: (identifier) @name) (function_signature_item name: (identifier) @name)] @definition.method))
(trait_item body: (declaration_list (const_item name: (identifier) @name) @definition.constant.member))
(trait_item body: (declaration_list (associated_type name: (type_identifier) @name) @definition.type.member))
(impl_item type: [(type_identifier) @member.of (generic_type type: (type_identifier) @member.of)]
  body: (declaration_list (function_item name: (identifier) @name) @definition.method))
(impl_item type: [(type_identifier) @member.of (generic_type type: (type_identifier) @member.of)]
  body: (declaration_list (const_item name: (identifier) @name) @definition.constant.member))
(impl_item type: [(type_identifier) @member.of (generic_type type: (type_identifier) @member.of)]
  body: (declaration_list (type_item name: (type_identifier) @name) @definition.type.member))

; `impl Trait for T`: T gains Trait as a base (trait methods and their implementations are related)
(impl_item trait: [(type_identifier) @class.extends (generic_type type: (type_identifier) @class.extends)]
  type: [(type_identifier) @class.implementer (generic_type type: (type_identifier) @class.implementer)])

; the receiver: `self` is the type the method belongs to
(self_parameter (self) @name) @definition.self
; what calling a function gives (`fn new() -> Self`): members of a call's result
(function_item name: (identifier) @name return_type: (_) @declared.type)
(function_signature_item name: (identifier) @name return_type: (_) @declared.type)

(type_parameter name: (type_identifier) @name @definition.type_parameter)
(lifetime_parameter (lifetime) @ignore)

; parameters and pattern bindings (a name in a pattern binds unless it is capitalised: `None`,
; `MAX` and unit variants are references to constants)
(let_declaration pattern: (identifier) @name) @definition.variable
(parameter pattern: (identifier) @name @definition.parameter)
(closure_parameters (identifier) @name @definition.parameter)
((for_expression pattern: (identifier) @name @definition.variable) (#match? @name "^[a-z_]"))
((let_condition pattern: (identifier) @name @definition.variable) (#match? @name "^[a-z_]"))
((match_pattern . (identifier) @name @definition.variable) (#match? @name "^[a-z_]"))
((tuple_pattern (identifier) @name @definition.variable) (#match? @name "^[a-z_]"))
((tuple_struct_pattern type: (_) (identifier) @name @definition.variable) (#match? @name "^[a-z_]"))
((slice_pattern (identifier) @name @definition.variable) (#match? @name "^[a-z_]"))
((or_pattern (identifier) @name @definition.variable) (#match? @name "^[a-z_]"))
((captured_pattern . (identifier) @name @definition.variable) (#match? @name "^[a-z_]"))
(ref_pattern (identifier) @name @definition.variable)
(mut_pattern (identifier) @name @definition.variable)
(reference_pattern (identifier) @name @definition.variable)
(field_pattern pattern: (identifier) @name @definition.variable)
(field_pattern name: (shorthand_field_identifier) @name @definition.variable)

; ---------- references ----------
(identifier) @reference
(type_identifier) @reference
(self) @reference
(field_expression value: (_) @member.object field: (field_identifier) @reference.member) @member.access
(scoped_identifier path: (_) @member.object name: (identifier) @reference.member) @member.access
(scoped_type_identifier path: (_) @member.object name: (type_identifier) @reference.member) @member.access
(struct_expression name: (_) @member.object
  body: (field_initializer_list (field_initializer field: (field_identifier) @reference.member)))
(struct_expression name: (_) @member.object
  body: (field_initializer_list (shorthand_field_initializer (identifier) @reference.member)))
(struct_pattern type: (_) @member.object (field_pattern name: (field_identifier) @reference.member))
; `crate::a::f()`, `super::f()`, `self::m::f()`: the path starts at a module
(scoped_identifier path: [(crate) (self) (super)] @reference.module name: (identifier))
(scoped_type_identifier path: [(crate) (self) (super)] @reference.module)
(scoped_identifier path: (scoped_identifier path: (super) name: (super)) @reference.module)
; a path that starts with a name nothing in the file declares: a crate (`serde::Serialize`, `std::fs`)
(scoped_identifier path: (identifier) @reference.module)
(scoped_type_identifier path: (identifier) @reference.module)
; macros have a namespace of their own: `format!` is not the function `format`
(macro_invocation macro: (identifier) @reference.macro)
; `Self` is the type of the enclosing impl or trait
((type_identifier) @receiver.self (#eq? @receiver.self "Self"))
((identifier) @receiver.self (#eq? @receiver.self "Self"))
; macro arguments are token trees: `a.b` and `T::f` inside them are member accesses
(token_tree (_) @member.object . ["." "::"] . (identifier) @reference.member)
(token_tree [(identifier) (crate) (self) (super)] @reference.module . "::")

; `cfg_feature! { mod m; pub use m::T; struct S; }`: items in a macro at the top level are parsed
; again as items (the tokens themselves are then not read as references)
(source_file (macro_invocation (token_tree) @macro.items))

; ---------- not references ----------
[(attribute_item) (inner_attribute_item) (use_declaration) (extern_crate_declaration)] @ignore
(macro_definition (macro_rule) @ignore)
(label (identifier) @ignore)
(lifetime (identifier) @ignore)

; ---------- inheritance ----------
(trait_item bounds: (trait_bounds (type_identifier) @class.extends)) @class.derived
(trait_item bounds: (trait_bounds (generic_type type: (type_identifier) @class.extends))) @class.derived

; ---------- imports ----------
; `mod foo;` declares the module in foo.rs or foo/mod.rs (the resolver finds it)
(mod_item !body name: (identifier) @import.namespace @import.source)
; `use a::b::C;`, `use a::b::C as D;`, `use a::b::*;`
(use_declaration argument: (scoped_identifier path: (_) @import.source name: (identifier) @import.name))
(use_declaration argument: (use_as_clause
  path: (scoped_identifier path: (_) @import.source name: (identifier) @import.name) alias: (identifier) @import.alias))
(use_declaration argument: (use_wildcard (_) @import.source) @import.wildcard)
; `use a::{B, c::D as E, self, f::*}`: a group's path prefixes the sources inside it, at any depth
(scoped_use_list path: (_) @import.prefix) @import.group
(use_list (identifier) @import.name)
(use_list (scoped_identifier path: (_) @import.source name: (identifier) @import.name))
(use_list (use_as_clause path: (identifier) @import.name alias: (identifier) @import.alias))
(use_list (use_as_clause
  path: (scoped_identifier path: (_) @import.source name: (identifier) @import.name) alias: (identifier) @import.alias))
(use_list (self) @import.self)
(use_list (use_wildcard (_) @import.source) @import.wildcard)

; ---------- exports ----------
; every top-level item and `use` is visible to the crate (languages.json `exportsTopLevel`);
; `pub` ones are marked exported
(source_file (_ (visibility_modifier)) @export.declaration)
