/** A word's stem for comparing words of a request, a value, a hypothesis (queryframe.ts, actions.ts). */

/** A word's stem, enough to tell handler from handcuffs and match deleted with delete. */
export function stem(word: string): string {
  let w = word.toLowerCase();
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
