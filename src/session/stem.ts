/** A word's stem for comparing words of a request, a value, a hypothesis (queryframe.ts, actions.ts). */

/** A word's stem, enough to tell handler from handcuffs and match deleted with delete. */
export function stem(word: string): string {
  let w = word.toLowerCase();
  const irregular = IRREGULAR.get(w);
  if (irregular) return irregular;
  for (const suffix of ['ations', 'ation', 'ings', 'ing', 'ers', 'er', 'ies', 'es', 's', 'ed', 'ly', 'e']) {
    // a double s is the word's own (pass, class, access): passed and pass meet at "pass"
    if (suffix === 's' && w.endsWith('ss')) break;
    if (w.length - suffix.length >= 3 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length) + (suffix === 'ies' ? 'y' : '');
      break;
    }
  }
  return w;
}

/**
 * Irregular forms of verbs a request says of code, as the stem of their plain form: "the body is not
 * sent" negates what "does not send the body" does.
 */
const IRREGULAR = new Map(Object.entries({
  sent: 'send', built: 'build', thrown: 'throw', threw: 'throw', written: 'writ', wrote: 'writ', got: 'get', gotten: 'get',
  made: 'mak', found: 'find', kept: 'keep', left: 'leav', ran: 'run', began: 'begin', begun: 'begin', bound: 'bind', held: 'hold',
  lost: 'los', taken: 'tak', took: 'tak', given: 'giv', gave: 'giv', shown: 'show', done: 'do', did: 'do', does: 'do', seen: 'see', saw: 'see',
  went: 'go', gone: 'go', chosen: 'choos', chose: 'choos', broken: 'break', broke: 'break', hidden: 'hid', hid: 'hid', fed: 'feed',
  caught: 'catch', brought: 'bring', bought: 'buy', told: 'tell', sold: 'sell', spent: 'spend', understood: 'understand', meant: 'mean',
}));

/** Two stems name one word: equal, one a long prefix of the other (databas/database), or a near form (expir/expiry) — never handl/handlebar. */
export const stemsMatch = (a: string, b: string): boolean => {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return long.startsWith(short) && (short.length >= 6 || (short.length >= 5 && long.length - short.length <= 2));
};
