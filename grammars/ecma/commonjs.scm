; CommonJS: what `exports.x = …`, `module.exports = …` and `require('m')` declare, import and
; export. A query of its own, matched only in a file where `exports`, `module` or `require` is a name
; (languages.json `gated`): compiling these 18 patterns cost 113 ms in every process and worker that
; parses TypeScript or JavaScript — as much as all the other patterns together (98 ms) — and
; TypeScript code rarely needs them. Every pattern must test one of those names with `#eq?`, on a
; node the main query captures as a reference (an identifier, a member's property): that is what
; makes skipping it exact (test/languages.test.ts).

; ---------- definitions ----------
; CommonJS named exports: `exports.compileTrust = function (val) {…}` (express's utils held none of
; its nine), `module.exports.x = () => …`, `exports.etag = createETagGenerator(…)`, chained
; `exports.a = exports.b = function () {}` — functions and variables of the module, exported (the
; export patterns below), as TypeScript reads them in JavaScript. Few patterns, and no wider than
; they need: where they are matched, they are compiled once per worker
(expression_statement (assignment_expression
  left: (member_expression object: (identifier) @_exports property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)]) @definition.function
  (#eq? @_exports "exports"))
(expression_statement (assignment_expression
  left: (member_expression object: (member_expression object: (identifier) @_module property: (property_identifier) @_exports) property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)]) @definition.function
  (#eq? @_module "module") (#eq? @_exports "exports"))
(expression_statement (assignment_expression
  left: (member_expression object: (identifier) @_exports property: (property_identifier) @name)
  right: [(call_expression) (new_expression) (object) (array) (string) (number) (template_string) (member_expression) (binary_expression) (ternary_expression) (true) (false) (null) (regex)]) @definition.variable
  (#eq? @_exports "exports"))
(expression_statement (assignment_expression
  left: (member_expression object: (member_expression object: (identifier) @_module property: (property_identifier) @_exports) property: (property_identifier) @name)
  right: [(call_expression) (new_expression) (object) (array) (string) (number) (template_string) (member_expression) (binary_expression) (ternary_expression) (true) (false) (null) (regex)]) @definition.variable
  (#eq? @_module "module") (#eq? @_exports "exports"))
; … chained (the first by the line that names it: a function around another would make it a local)
(expression_statement (assignment_expression
  left: (member_expression object: (identifier) @_exports property: (property_identifier) @name) @definition.function
  right: (assignment_expression
    left: (member_expression object: (identifier) @_same)
    right: [(arrow_function) (function_expression) (generator_function)]))
  (#eq? @_exports "exports") (#eq? @_same "exports"))
(expression_statement (assignment_expression
  left: (member_expression object: (identifier) @_outer)
  right: (assignment_expression
    left: (member_expression object: (identifier) @_exports property: (property_identifier) @name)
    right: [(arrow_function) (function_expression) (generator_function)]) @definition.function)
  (#eq? @_outer "exports") (#eq? @_exports "exports"))

; ---------- imports ----------
; CommonJS: `const m = require('m')`, `const { a, b: c } = require('m')` (var and let too)
(variable_declarator name: (identifier) @import.namespace
  value: (call_expression function: (identifier) @_req arguments: (arguments . (string (string_fragment) @import.source) .))
  (#eq? @_req "require"))
(variable_declarator
  name: (object_pattern [(shorthand_property_identifier_pattern) @import.name
                         (pair_pattern key: (property_identifier) @import.name value: (identifier) @import.alias)])
  value: (call_expression function: (identifier) @_req arguments: (arguments . (string (string_fragment) @import.source) .))
  (#eq? @_req "require"))

; ---------- exports ----------
; CommonJS: what `exports.x = …` and `module.exports.x = …` declare is exported (a chain's inner
; assignment lies inside the outer one)
(expression_statement (assignment_expression
  left: (member_expression object: (identifier) @_exports)) @export.declaration
  (#eq? @_exports "exports"))
(expression_statement (assignment_expression
  left: (member_expression object: (member_expression object: (identifier) @_module property: (property_identifier) @_exports))) @export.declaration
  (#eq? @_module "module") (#eq? @_exports "exports"))
; … and `exports.Command = Command` exports the declaration it names, as x
(expression_statement (assignment_expression
  left: (member_expression object: (identifier) @_exports property: (property_identifier) @export.alias)
  right: (identifier) @export.local)
  (#eq? @_exports "exports"))
(expression_statement (assignment_expression
  left: (member_expression object: (member_expression object: (identifier) @_module property: (property_identifier) @_exports) property: (property_identifier) @export.alias)
  right: (identifier) @export.local)
  (#eq? @_module "module") (#eq? @_exports "exports"))
; CommonJS: `module.exports = { a, b: c }` exports a, and c as b
(assignment_expression
  left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
  right: (object [(shorthand_property_identifier) @export.local
                  (pair key: (property_identifier) @export.alias value: (identifier) @export.local)])
  (#eq? @_module "module") (#eq? @_exports "exports"))
; … and an object of methods assigned there is the module's default, its methods the default's:
; `module.exports = { meta: {…}, create(context) {…} }` (an ESLint rule)
(assignment_expression
  left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
  right: (object (method_definition)) @export.default_value
  (#eq? @_module "module") (#eq? @_exports "exports"))
; … and so is a function, a class or a name assigned there: `module.exports = string => {…}`,
; `module.exports = pLimit` (a module of one function: without it the index held nothing of it, agent trial tr77)
(expression_statement (assignment_expression
  left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
  right: [(arrow_function) (function_expression) (generator_function) (class) (identifier)] @export.default_value
  (#eq? @_module "module") (#eq? @_exports "exports")))
