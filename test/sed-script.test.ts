/**
 * The write guard's reading of sed scripts (src/hooks/sed-script.ts) against GNU sed itself: what
 * GNU sed would run or write must never be read as harmless, and what it takes as harmless must not
 * be refused. GNU sed's --sandbox refuses e/r/w commands while compiling, so it tells which scripts
 * have them without running anything (empty input).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { sedCommands, sedEffects } from '../src/hooks/sed-script.js';

const gnu = (script: string): 'ok' | 'effects' | 'error' => {
  const r = spawnSync('sed', ['--sandbox', '-n', '-e', script], { input: '', encoding: 'utf8' });
  return r.status === 0 ? 'ok' : /sandbox/.test(r.stderr) ? 'effects' : 'error';
};
const mine = (script: string): 'ok' | 'effects' | 'error' => {
  const e = sedEffects(script);
  return e === undefined ? 'error' : e.runs || e.writes.length > 0 || e.reads.length > 0 ? 'effects' : 'ok';
};
const hasGnuSed = spawnSync('sed', ['--sandbox', '-n', 'p'], { input: '' }).status === 0;

describe('sed scripts', () => {
  it('finds what runs and what is written (red team adv53)', () => {
    expect(sedEffects('/s/e echo x')).toMatchObject({ runs: true }); // an address /s/, then the e command
    expect(sedEffects('\\cxce echo x')).toMatchObject({ runs: true }); // a letter as an address's delimiter
    expect(sedEffects('\\cxcw /tmp/o')).toMatchObject({ writes: ['/tmp/o'] });
    expect(sedEffects('s/x/y\\\n/ge')).toMatchObject({ runs: true }); // a backslash-newline in the replacement
    expect(sedEffects('s/x/y\\\n/gw /tmp/o')).toMatchObject({ writes: ['/tmp/o'] });
    expect(sedEffects(':. e ls')).toMatchObject({ runs: true }); // a label ends at a blank
    expect(sedEffects('s/a/b/p w /tmp/o')).toMatchObject({ writes: ['/tmp/o'] });
    expect(sedEffects('1{\ne ls\n}')).toMatchObject({ runs: true });
    expect(sedEffects('v 4.2 e ls')).toMatchObject({ runs: true }); // a version ends at a blank (red team adv54)
    expect(sedEffects(':x\ra e ls')).toMatchObject({ runs: true }); // a CR is part of a label, not its end (red team adv56)
    expect(sedEffects('b x\va w /tmp/o')).toMatchObject({ writes: ['/tmp/o'] });
    // a file name goes to the line's end, trailing blanks and all: `w /tmp/L ` writes through a link named `L ` (red team adv57)
    expect(sedEffects('w /tmp/L ')).toMatchObject({ writes: ['/tmp/L '] });
    expect(sedEffects('s/a/b/w \t/tmp/L\t\n')).toMatchObject({ writes: ['/tmp/L\t'] });
    expect(sedEffects('1r  /etc/x ')).toMatchObject({ reads: ['/etc/x '] });
    // a delimiter outside ASCII is read by bytes or by characters depending on the locale: unreadable (adv54)
    expect(sedEffects('1s\u00c3.*\u00e9;echo x\u00c3e#\u00c3')).toBeUndefined();
    expect(sedEffects('s/旧/新/g')).toEqual({ runs: false, writes: [], reads: [] });
    expect(sedEffects('s/a/b/w /dev/stdout')).toEqual({ runs: false, writes: [], reads: [] });
  });
  it('reads the command line as GNU getopt does, and as POSIXLY_CORRECT makes it (red team adv54)', () => {
    const [permuted, posix] = sedCommands(['-nl', '5p', 'e ls', 'f']);
    expect(permuted).toMatchObject({ scripts: ['e ls'], files: ['f'] });
    expect(sedCommands(['-iep', 'S', 'f'])[0]).toMatchObject({ scripts: ['S'], files: ['f'], inPlace: true, suffix: 'ep' });
    expect(sedCommands(['--e=S', 'f'])[0]).toMatchObject({ scripts: ['S'], files: ['f'] });
    expect(sedCommands(['--i', 'S', 'f'])[0]).toMatchObject({ inPlace: true, scripts: ['S'] });
    expect(sedCommands(['S1', 'f', '-e', 'p'])[0]).toMatchObject({ scripts: ['p'], files: ['S1', 'f'] });
    expect(sedCommands(['S1', 'f', '-e', 'p'])[1]).toMatchObject({ scripts: ['S1'], files: ['f', '-e', 'p'] });
    expect(posix).toMatchObject({ scripts: ['e ls'] });
  });
  it('reads honest scripts as harmless', () => {
    for (const s of ['/set -e /p', '/ e /p', '/grep -w /p', '/ -W /p', '/http:\\/\\/www\\./p', 's/[/]/x/', ':a;N;$!ba;s/\\n/ /g', '1i\\\nhello\\\ne ls', 's/ e / E /', '/x/{p;q}'])
      expect(sedEffects(s), s).toEqual({ runs: false, writes: [], reads: [] });
  });
  it.skipIf(!hasGnuSed)('agrees with GNU sed on random scripts: nothing it runs or writes is missed, nothing it takes as harmless is refused', () => {
    const alphabet = ['s', '/', '\\', '[', ']', 'e', 'w', 'W', 'p', ';', '{', '}', '!', '1', '$', ',', ':', 'b', 'a', '\n', ' ', 'x', 'I', 'M', 'g', '#', 'y', '|', '^', '.', '=', '+', '~', 'c', 'i', 'q', 'r', '\r', '\f', '\v', '\t'];
    let seed = 53;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const missed: string[] = [];
    const refused: string[] = [];
    for (let k = 0; k < 600; k++) {
      let script = '';
      for (let i = 1 + Math.floor(rnd() * 14); i > 0; i--) script += alphabet[Math.floor(rnd() * alphabet.length)];
      const [g, m] = [gnu(script), mine(script)];
      if (g === 'effects' && m === 'ok') missed.push(script);
      if (g === 'ok' && m !== 'ok') refused.push(script);
    }
    expect(missed).toEqual([]);
    expect(refused).toEqual([]);
  });
});
