/**
 * How a name is used (read, write, call, new, type, ...), from the nodes around it.
 */
import type { Node } from 'web-tree-sitter';
import type { RefFact } from '../facts.js';
import type { GrammarTables } from '../grammar-tables.js';

/**
 * How a name is used. `parentOf` is the caller's cached `.parent` (each one is a call into wasm);
 * `tables` say which node types are member accesses, calls, assignments, constructions.
 */
export function roleOf(node: Node, parentOf: (n: Node) => Node | null, tables: GrammarTables): RefFact['role'] {
  const parent = parentOf(node);
  if (!parent) return 'read';
  // (`.type` and every other accessor is a call into wasm: each is read once)
  const ptype = parent.type;
  // `new T()` (Java), `T{}` (Go): the type's own name, not the package or class that qualifies it
  const own = tables.qualifiedTypes.get(ptype);
  const qualified = own !== undefined && (own === 'first' ? parent.firstNamedChild : parent.lastNamedChild)?.id === node.id;
  const typeNode = qualified ? parent : node;
  const ctor = qualified ? parentOf(parent) : parent;
  const ctype = qualified ? ctor?.type : ptype;
  const constructed = ctype === undefined ? undefined : tables.constructions.get(ctype); // `new T()`, `T{}`, Rust `T { .. }`
  if (constructed && ctor!.childForFieldName(constructed)?.id === typeNode.id) return 'new';
  if (node.type === 'type_identifier' || ptype === 'nested_type_identifier' || ptype === 'type' || (ptype === 'string' && parentOf(parent)?.type === 'type')) return 'type';
  if (ptype === 'method_invocation' && parent.childForFieldName('name')?.id === node.id) return 'call';
  let expr: Node = node;
  const field = tables.memberAccess.get(ptype);
  if (field && parent.childForFieldName(field)?.id === node.id) expr = parent;
  const up = expr === node ? parent : parentOf(expr);
  if (!up) return 'read';
  const utype = expr === node ? ptype : up.type;
  // a macro's arguments are tokens: `f(` there is still a call
  if (utype === 'token_tree' && expr.nextSibling?.type === 'token_tree' && expr.nextSibling.text.startsWith('(')) return 'call';
  // Go: `a, b = ...` and `x++` are statements over expression lists
  if (utype === 'expression_list' && parentOf(up)?.type === 'assignment_statement' && parentOf(up)?.childForFieldName('left')?.id === up.id) return 'write';
  if (utype === 'inc_statement' || utype === 'dec_statement') return 'write';
  const callee = tables.callees.get(utype);
  if (callee && up.childForFieldName(callee)?.id === expr.id) return 'call';
  if (utype === 'new_expression' && up.childForFieldName('constructor')?.id === expr.id) return 'new';
  const target = tables.assignments.get(utype);
  if (target && up.childForFieldName(target)?.id === expr.id) return 'write';
  if (utype === 'update_expression') return 'write';
  if (utype.startsWith('jsx_')) return 'jsx';
  if (utype === 'export_specifier' || utype === 'export_statement') return 'export';
  if (utype === 'extends_clause' || utype === 'class_heritage') return 'type';
  if (utype === 'argument_list' && parentOf(up)?.type === 'class_definition') return 'type'; // Python `class A(B)`
  return 'read';
}

/** The number of arguments of the call whose callee a name is (`f(a, b)`, `x.f(a, b)`). */
export function argumentCount(node: Node): number | undefined {
  for (let p = node.parent, up = 0; p && up < 2; p = p.parent, up++) {
    const args = p.childForFieldName('arguments');
    if (args) return args.namedChildren.filter((c) => c != null && !c.type.includes('comment')).length;
  }
  return undefined;
}
