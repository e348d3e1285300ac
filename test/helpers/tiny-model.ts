/**
 * Writes a tiny sentence-embedding model that loads through exactly the same code path as
 * multilingual-e5-small: a BERT-type config.json, an XLM-R style Unigram tokenizer.json with
 * Metaspace pre-tokenisation and <s> … </s> template, tokenizer_config.json, and onnx/model.onnx
 * with the inputs a BERT feature-extraction export has (input_ids, attention_mask,
 * token_type_ids → last_hidden_state).
 *
 * The ONNX protobuf is encoded by hand (a few message types, field numbers from onnx.proto).
 * The graph: last_hidden_state = (E[input_ids] + T[token_type_ids]) * attention_mask[..., None].
 * Token vectors come from a seeded PRNG, except that the words of each SYNONYM group share one
 * vector, so that 'ログイン' and 'login' embed close together and tests can check known answers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { prng } from '../../bench/lib/util.js';

// ---- protobuf wire format -------------------------------------------------------------------------
function varint(n: number | bigint): number[] {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) byte |= 0x80;
    out.push(byte);
  } while (v !== 0n);
  return out;
}
type Field = Uint8Array;
const key = (field: number, wire: number) => varint((field << 3) | wire);
const vInt = (field: number, n: number | bigint): Field => Uint8Array.from([...key(field, 0), ...varint(n)]);
const bytes = (field: number, data: Uint8Array): Field => concat([Uint8Array.from([...key(field, 2), ...varint(data.length)]), data]);
const str = (field: number, s: string): Field => bytes(field, new TextEncoder().encode(s));
const msg = (field: number, ...parts: Field[]): Field => bytes(field, concat(parts));
function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

// ---- ONNX messages ------------------------------------------------------------------------------
const FLOAT = 1, INT64 = 7;
/** TensorProto: dims=1, data_type=2, name=8, raw_data=9 */
function tensor(name: string, dims: number[], type: number, raw: Uint8Array): Field[] {
  return [...dims.map((d) => vInt(1, d)), vInt(2, type), str(8, name), bytes(9, raw)];
}
/** ValueInfoProto name=1, type=2 → TypeProto.tensor_type=1 → elem_type=1, shape=2 → dim=1 {dim_value=1 | dim_param=2} */
function valueInfo(field: number, name: string, elemType: number, dims: (number | string)[]): Field {
  const shape = dims.map((d) => msg(1, typeof d === 'number' ? vInt(1, d) : str(2, d)));
  return msg(field, str(1, name), msg(2, msg(1, vInt(1, elemType), msg(2, ...shape))));
}
/** NodeProto input=1, output=2, name=3, op_type=4, attribute=5 */
function node(op: string, inputs: string[], outputs: string[], name: string, attrs: Field[] = []): Field {
  return msg(1, ...inputs.map((i) => str(1, i)), ...outputs.map((o) => str(2, o)), str(3, name), str(4, op), ...attrs.map((a) => bytes(5, a)));
}
/** AttributeProto name=1, i=3, type=20 (INT=2) */
const intAttr = (name: string, v: number): Field => concat([str(1, name), vInt(3, v), vInt(20, 2)]);

// ---- vocabulary -----------------------------------------------------------------------------------
/** Words that mean the same thing share one vector. */
export const SYNONYMS: string[][] = [
  ['login', 'signin', 'ログイン', '登录', 'authenticate', 'auth'],
  ['cart', 'カート', '购物车', 'basket'],
  ['total', '合計', '总计', 'sum'],
  ['price', '価格', '价格', 'cost'],
  ['format', '整形', '格式化', 'formatting'],
  ['subscribe', '購読', '订阅', 'subscription'],
  ['retry', '再試行', '重试', 'again'],
  ['delete', '削除', '删除', 'remove'],
  ['config', '設定', '配置', 'settings'],
  ['user', 'ユーザー', '用户', 'account'],
  ['password', 'パスワード', '密码'],
  ['checkout', '決済', '结算', 'pay'],
];
const EXTRA = ['query', 'passage', 'the', 'a', 'of', 'function', 'class', 'method', 'export', 'return', 'const', 'new', 'this', 'service', 'logger', 'log', 'write', 'message', 'tax', 'add', 'items', 'number', 'string'];
const SPECIALS = ['<s>', '<pad>', '</s>', '<unk>'];

export interface TinyModel {
  dir: string;
  dim: number;
  vocab: string[];
}

/** Writes the model into `dir` (created). `dim` is the hidden size. */
export function writeTinyModel(dir: string, dim = 32, seed = 7): TinyModel {
  const rand = prng(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
  const randomVec = () => Array.from({ length: dim }, gauss);

  const words = [...new Set([...SYNONYMS.flat(), ...EXTRA])];
  const letters = [...'abcdefghijklmnopqrstuvwxyz0123456789:.,()_-'];
  // Unigram pieces: specials, ▁word for every word, then single characters (and ▁) as fallback
  const pieces: [string, number][] = [
    ...SPECIALS.map((s) => [s, 0] as [string, number]),
    ['▁', -3],
    ...words.map((w) => [`▁${w}`, -5] as [string, number]),
    ...words.filter((w) => /[^\x00-\x7f]/.test(w)).map((w) => [w, -6] as [string, number]),
    ...letters.map((c) => [c, -9] as [string, number]),
  ];
  const vocab = pieces.map((p) => p[0]);
  const groupVec = SYNONYMS.map(() => randomVec());
  const table = new Float32Array(vocab.length * dim);
  vocab.forEach((piece, i) => {
    if (SPECIALS.includes(piece) || piece === '▁') return; // zero: no meaning of their own
    const word = piece.replace(/^▁/, '');
    const g = SYNONYMS.findIndex((grp) => grp.includes(word));
    const v = g >= 0 ? groupVec[g]!.map((x) => x + 0.05 * gauss()) : randomVec();
    table.set(v, i * dim);
  });
  const typeTable = new Float32Array(2 * dim); // token type vectors: zero (one segment only)

  const graph = [
    node('Gather', ['word_embeddings', 'input_ids'], ['words'], 'gather_words', [intAttr('axis', 0)]),
    node('Gather', ['token_type_embeddings', 'token_type_ids'], ['types'], 'gather_types', [intAttr('axis', 0)]),
    node('Add', ['words', 'types'], ['embedded'], 'add'),
    node('Cast', ['attention_mask'], ['mask_f'], 'cast', [intAttr('to', FLOAT)]),
    node('Unsqueeze', ['mask_f', 'last_axis'], ['mask_3d'], 'unsqueeze'),
    node('Mul', ['embedded', 'mask_3d'], ['last_hidden_state'], 'mask'),
    str(2, 'tiny_bert'),
    msg(5, ...tensor('word_embeddings', [vocab.length, dim], FLOAT, new Uint8Array(table.buffer))),
    msg(5, ...tensor('token_type_embeddings', [2, dim], FLOAT, new Uint8Array(typeTable.buffer))),
    msg(5, ...tensor('last_axis', [1], INT64, new Uint8Array(new BigInt64Array([-1n]).buffer))),
    valueInfo(11, 'input_ids', INT64, ['batch_size', 'sequence_length']),
    valueInfo(11, 'attention_mask', INT64, ['batch_size', 'sequence_length']),
    valueInfo(11, 'token_type_ids', INT64, ['batch_size', 'sequence_length']),
    valueInfo(12, 'last_hidden_state', FLOAT, ['batch_size', 'sequence_length', dim]),
  ];
  // ModelProto: ir_version=1, producer_name=2, graph=7, opset_import=8 {domain=1, version=2}
  const model = concat([vInt(1, 8), str(2, 'code-intel tests'), msg(7, ...graph), msg(8, str(1, ''), vInt(2, 17))]);

  fs.mkdirSync(path.join(dir, 'onnx'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'onnx', 'model.onnx'), model);
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({
    architectures: ['BertModel'], model_type: 'bert', hidden_size: dim, num_attention_heads: 1, num_hidden_layers: 0,
    intermediate_size: dim, vocab_size: vocab.length, max_position_embeddings: 128, type_vocab_size: 2, pad_token_id: 1,
    tokenizer_class: 'XLMRobertaTokenizer',
  }, null, 2));
  fs.writeFileSync(path.join(dir, 'tokenizer_config.json'), JSON.stringify({
    tokenizer_class: 'XLMRobertaTokenizer', model_max_length: 64, bos_token: '<s>', eos_token: '</s>', unk_token: '<unk>',
    pad_token: '<pad>', cls_token: '<s>', sep_token: '</s>', mask_token: '<unk>', do_lower_case: false,
  }, null, 2));
  const special = (id: number) => ({ id, content: SPECIALS[id], single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  fs.writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify({
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map((_, i) => special(i)),
    normalizer: { type: 'Sequence', normalizers: [{ type: 'NFKC' }, { type: 'Lowercase' }] },
    pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } }],
      pair: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } }, { Sequence: { id: 'B', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } }],
      special_tokens: {
        '<s>': { id: '<s>', ids: [0], tokens: ['<s>'] },
        '</s>': { id: '</s>', ids: [2], tokens: ['</s>'] },
      },
    },
    decoder: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    model: { type: 'Unigram', unk_id: 3, vocab: pieces, byte_fallback: false },
  }));
  return { dir, dim, vocab };
}
