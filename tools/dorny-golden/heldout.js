#!/usr/bin/env node
// A held-out differential for cicheck's paths-filter simulation, written
// apart from generate.js so the two do not share blind spots: its cases are
// real filter texts (every dorny/paths-filter step found under the given
// directories) put through random edits, filter text from a random YAML
// grammar (any indentation, tabs, flow and block styles, anchors, aliases,
// merges, tags, block and quoted scalars, explicit keys, directives), and
// YAML-ish noise; changed files are random name-status diffs drawn from the
// text's own words and from a random path grammar. The verdicts come from
// the same oracle (oracle.js: dorny's own filter.ts per release).
//
//   node heldout.js REPO SEED OUT.jsonl [CASES] [DIR...]
//   cd ../../pathsfilter && DORNY_GOLDEN=$PWD/../OUT.jsonl go test -run TestDornyGolden .
//
// A case where a release does not return (picomatch 2.3.1 loops forever on
// some patterns) is recorded as {"hang": true}: dorny's step never ends.
'use strict';

const fs = require('fs');
const path = require('path');
const vm = require('vm');
const {VERSIONS, deps, gitDirOf, loadRelease, run} = require('./oracle');

const [repo, seedArg, outFile, casesArg, ...dirArgs] = process.argv.slice(2);
if (!repo || !seedArg || !outFile) throw new Error('usage: node heldout.js REPO SEED OUT.jsonl [CASES] [DIR...]');
const CASES = Number(casesArg || 4000);
const DIRS = dirArgs.length ? dirArgs : ['/work/shared/corpus', '/work/realworld', path.join(__dirname, '..', '..', 'fixtures')];

// mulberry32: a different generator from generate.js's LCG.
let state = Number(seedArg) >>> 0;
const rand = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const int = n => Math.floor(rand() * n);
const chance = p => rand() < p;
const one = a => a[int(a.length)];
const weighted = pairs => {
  let r = rand() * pairs.reduce((s, [w]) => s + w, 0);
  for (const [w, v] of pairs) if ((r -= w) < 0) return v;
  return pairs[pairs.length - 1][1];
};

// ---- real filter texts ----
function walk(dir, out) {
  let ents;
  try {
    ents = fs.readdirSync(dir, {withFileTypes: true});
  } catch (e) {
    return out;
  }
  for (const e of ents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== '.git') walk(p, out);
    } else if (/\.ya?ml$/.test(e.name)) {
      out.push(p);
    }
  }
  return out;
}

function realFilters() {
  const yaml = deps['js-yaml@4.1.0'];
  const texts = new Set();
  for (const file of DIRS.flatMap(d => walk(d, []))) {
    const text = fs.readFileSync(file, 'utf8');
    if (!text.includes('dorny/paths-filter')) continue;
    let doc;
    try {
      doc = yaml.load(text);
    } catch (e) {
      continue;
    }
    for (const job of Object.values((doc && doc.jobs) || {})) {
      for (const st of (job && job.steps) || []) {
        const w = st && typeof st.uses === 'string' && st.uses.startsWith('dorny/paths-filter@') && st.with;
        if (w && typeof w.filters === 'string' && !w.filters.includes('${{') && w.filters.includes('\n')) texts.add(w.filters);
      }
    }
  }
  return [...texts].sort();
}

// ---- random words ----
const SEGS = ['src', 'lib', 'docs', 'test', 'tests', '.github', 'workflows', 'csrc', 'kernels', 'cuda', 'a', 'b', 'x',
  '.hidden', 'node_modules', 'build', 'with space', 'ünï', 'a.b', '[x]', '(y)', '{z}', '@scope', 'a+b', 'v1.2', '-dash', '_u',
  '#hash', '%p', '!bang', 'back\\slash', '$d', 'q?', 'st*r'];
const EXTS = ['', '.py', '.cu', '.md', '.yml', '.yaml', '.txt', '.js', '.ts', '.toml', '.lock', '.cpp', '.h', '.json', '.MD', '.d.ts', '.'];
const FILES = ['README', 'LICENSE', 'setup', 'Cargo', 'index', 'main', '__init__', 'CMakeLists', '.env', '.gitignore', 'a', 'x', 'Makefile'];
const STATUS = [[8, 'modified'], [4, 'added'], [3, 'deleted'], [2, 'renamed'], [1, 'copied'], [1, 'unmerged'], [2, 'undefined']];

function randomPath() {
  const segs = [];
  for (let i = 0, n = int(5); i < n; i++) segs.push(one(SEGS));
  segs.push(one(FILES) + one(EXTS));
  return segs.join('/');
}

const GLOB_ATOMS = ['*', '**', '?', '[abc]', '[!a]', '[^x]', '[a-z]', '[[:alpha:]]', '{a,b}', '{1..3}', '@(a|b)', '!(x)', '+(y)',
  '*(z)', '?(q)', '\\*', '\\?', '\\[', '.', '..', '~', '$', '^', '(', ')', '|', '+', '\\', '\\\\', ' '];
function randomGlob() {
  const parts = [];
  for (let i = 0, n = 1 + int(4); i < n; i++) {
    parts.push(weighted([[5, one(SEGS)], [4, one(GLOB_ATOMS)], [2, one(GLOB_ATOMS) + '.' + one(['py', 'md', 'cu', 'js'])], [2, one(FILES) + one(EXTS)]]));
  }
  let g = parts.join(weighted([[6, '/'], [1, ''], [1, '//']]));
  if (chance(0.2)) g = '!'.repeat(1 + int(2)) + g;
  if (chance(0.05)) g = './' + g;
  if (chance(0.05)) g += '/';
  return g;
}

// Paths a glob might match: its wildcards filled in, or left as text.
function pathFromGlob(g) {
  let s = g.replace(/^!+/, '').replace(/^\.\//, '');
  if (chance(0.15)) return s; // the glob text itself (picomatch's equality shortcut)
  s = s.replace(/\{([^{}]*)\}/g, (_, a) => one(a.split(/,|\.\./)));
  s = s.replace(/[@!+*?]\(([^()]*)\)/g, (_, a) => (chance(0.7) ? one(a.split('|')) : ''));
  s = s.replace(/\[!?\^?([^\]]*)\]/g, (_, a) => (a[0] && chance(0.7) ? a[0] : 'Q'));
  s = s.replace(/\*\*/g, () => one(['', 'a', 'a/b', '.x/y', 'deep/er/path']));
  s = s.replace(/\*/g, () => one(['', 'f', 'file.md', '.dot', 'a.b.c']));
  s = s.replace(/\?/g, () => one(['q', '.', '/']));
  s = s.replace(/\/+/g, '/').replace(/^\//, '');
  return s || 'README.md';
}

// ---- scalars and quoting ----
const SCALARS = ['~', 'null', 'Null', 'true', 'False', 'yes', 'no', 'on', 'off', 'y', 'n', '0', '-0', '12', '012', '0o12', '0x1A', '0b101',
  '1_000', '1:20', '-1:30:00', '1.5', '.5', '1e2', '1E-2', '.inf', '-.Inf', '.nan', '2002-12-14', '2001-12-14t21:59:43.10-05:00',
  '2001-12-14 21:59:43.10 -5', '<<', '=', '- x', '? y', ': z', '#c', 'a #b', 'a#b', 'a: b', '%x', '@x', '`x', '|', '>', '-', '',
  'added', 'modified|added', 'ADDED', ' added ', 'removed', 'a,b', '[x]', '{y}', '"q"', "'s'", '\\', '\\n', 'ü', '\u2028', '😀'];

function quote(s, style) {
  switch (style) {
    case 'single':
      return `'${s.replace(/'/g, "''")}'`;
    case 'double':
      return JSON.stringify(s).replace(/\\u([0-9a-f]{4})/g, (m, h) => (chance(0.5) ? m : `\\x${h.slice(2)}`));
    default:
      return s;
  }
}

function scalar(text) {
  const style = weighted([[5, 'plain'], [3, 'single'], [3, 'double'], [1, 'raw']]);
  if (style === 'raw') return text; // whatever it does to the YAML
  if (style === 'plain' && /^[\s\-?:,[\]{}#&*!|>'"%@`]|[:#]\s|\s$|^$/.test(text)) return quote(text, 'single');
  return quote(text, style);
}

// ---- a random YAML grammar ----
function indentUnit() {
  return weighted([[8, '  '], [3, '    '], [2, ' '], [2, '\t'], [1, ' \t'], [1, '\t '], [1, '   ']]);
}

function props(anchors) {
  let p = '';
  if (chance(0.08)) {
    const a = `n${int(6)}`;
    anchors.push(a);
    p += `&${a} `;
  }
  if (chance(0.06)) {
    p += one(['!!str', '!!seq', '!!map', '!!int', '!!null', '!!binary', '!!set', '!!omap', '!!pairs', '!', '!x', '!<tag:yaml.org,2002:str>', '!!merge', '!!timestamp', '!!float', '!!bool', '!!js/regexp']) + ' ';
  }
  return p;
}

function flowNode(depth, anchors) {
  if (anchors.length && chance(0.1)) return `*${one(anchors)}`;
  if (depth > 2 || chance(0.6)) return props(anchors) + (chance(0.7) ? scalar(randomGlob()) : scalar(one(SCALARS)));
  const n = int(4);
  const items = [];
  if (chance(0.5)) {
    for (let i = 0; i < n; i++) items.push(flowNode(depth + 1, anchors));
    return `${props(anchors)}[${items.join(one([', ', ',', ' , ', ',\n  ']))}${chance(0.1) ? ',' : ''}]`;
  }
  for (let i = 0; i < n; i++) items.push(`${chance(0.1) ? '? ' : ''}${scalar(one(STATUS_WORDS))}${chance(0.9) ? ': ' + flowNode(depth + 1, anchors) : ''}`);
  return `${props(anchors)}{${items.join(', ')}}`;
}

const STATUS_WORDS = ['added', 'modified', 'deleted', 'renamed', 'copied', 'unmerged', 'added|modified', 'Added|Deleted', 'added | renamed |',
  'removed', 'changed', 'src', 'docs', '0', '1.0', 'true', '~', '<<', 'x y', 'ci/cd'];

// blockNode writes a node whose parent sits at indent ind; key says it is
// a mapping value (text follows "key:"), else a sequence entry.
function blockNode(ind, depth, anchors) {
  const pick = depth > 3 ? weighted([[6, 'scalar'], [2, 'flow']]) : weighted([[5, 'scalar'], [3, 'flow'], [4, 'seq'], [3, 'map'], [1, 'block'], [1, 'alias'], [1, 'multi']]);
  const sub = ind + indentUnit();
  switch (pick) {
    case 'scalar':
      return ' ' + props(anchors) + (chance(0.75) ? scalar(randomGlob()) : scalar(one(SCALARS)));
    case 'flow':
      return ' ' + flowNode(0, anchors);
    case 'alias':
      return anchors.length ? ` *${one(anchors)}` : ` ${scalar(randomGlob())}`;
    case 'block': {
      const head = one(['|', '>', '|-', '>+', '|2', '>-1', '|+', '| # c']);
      let s = ` ${props(anchors)}${head}`;
      for (let i = 0, n = 1 + int(3); i < n; i++) s += `\n${sub}${chance(0.2) ? one([' ', '\t', '']) : ''}${randomGlob()}`;
      return s + (chance(0.3) ? '\n' : '');
    }
    case 'multi':
      return ` ${randomGlob()}\n${sub}${randomGlob()}`;
    case 'seq': {
      let s = props(anchors).trimEnd() ? ' ' + props(anchors).trimEnd() : '';
      const dashInd = chance(0.15) ? ind : sub; // an indentless sequence under a key
      for (let i = 0, n = 1 + int(4); i < n; i++) {
        if (chance(0.05)) s += `\n${dashInd}# comment`;
        const item = chance(0.2) ? ` ${scalar(one(STATUS_WORDS))}:${blockNode(dashInd + '  ', depth + 1, anchors)}` : blockNode(dashInd + ' ', depth + 1, anchors);
        s += `\n${dashInd}-${item}`;
      }
      return s;
    }
    default: {
      let s = props(anchors).trimEnd() ? ' ' + props(anchors).trimEnd() : '';
      for (let i = 0, n = 1 + int(3); i < n; i++) {
        const k = chance(0.05) ? `? ${scalar(one(STATUS_WORDS))}\n${sub}:` : `${scalar(one(STATUS_WORDS))}:`;
        s += `\n${sub}${k}${blockNode(sub, depth + 1, anchors)}`;
      }
      if (anchors.length && chance(0.1)) s += `\n${sub}<<: *${one(anchors)}`;
      return s;
    }
  }
}

const NAMES = ['src', 'docs', 'ci', 'cuda', 'rocm', 'python', 'cpp', 'any', 'run_tests', 'workflows', '0', '1', '00', '1e1', '0x10', '1:1',
  'true', 'null', '"q"', "'0'", 'a b', 'x/y', '🙂', 'constructor', '__proto__', 'toString', 'hasOwnProperty', '-', '2020-01-01'];

function grammarText() {
  const anchors = [];
  const lines = [];
  if (chance(0.03)) lines.push(one(['%YAML 1.2', '%YAML 1.1', '%YAML 2.0', '%TAG !e! tag:yaml.org,2002:', '%FOO bar', '%YAML 1.2\n%YAML 1.2']));
  if (chance(0.06)) lines.push(one(['---', '--- # doc', '--- !!map']));
  const base = chance(0.1) ? one([' ', '  ', '\t']) : '';
  for (let i = 0, n = 1 + int(5); i < n; i++) {
    if (chance(0.05)) lines.push(one(['', '# c', '  # c', '\t', '   ']));
    const name = chance(0.05) ? `? ${scalar(one(NAMES))}\n${base}:` : `${scalar(one(NAMES))}${chance(0.05) ? ' ' : ''}:`;
    lines.push(base + name + blockNode(base, 0, anchors));
  }
  if (chance(0.05)) lines.push(one(['<<: {extra: x}', '<<: [{p: a}, {q: b}]', '<<: *n0', '<<: x', '...', '---\nz: y', '- x']));
  let text = lines.join('\n');
  if (chance(0.1)) text = text.replace(/\n/g, '\r\n');
  return text + (chance(0.9) ? '\n' : '');
}

// ---- edits of real filter text ----
const EDITS = [
  t => t.replace(/^( +)/gm, m => (chance(0.3) ? '\t' + m.slice(2) : m)), // some indents become tabs
  t => t.replace(/^( +)/gm, m => m.replace(/  /g, '\t')),
  t => t.replace(/^( +)/gm, m => ' '.repeat(m.length * 2)),
  t => t.replace(/^( +)/gm, m => ' '.repeat(Math.max(1, m.length - 1))),
  t => t.replace(/'([^'\n]*)'/g, (m, s) => (chance(0.5) ? quote(s, one(['plain', 'double'])) : m)),
  t => t.replace(/^(\s*)- (.*)$/m, (m, i, v) => `${i}- &r ${v}`) + (t.includes('&r') ? '' : `extra: *r\n`),
  t => t.replace(/^(\w[^:\n]*):\n((?:\s+- .*\n)+)/m, (m, k, body) => `${k}: [${body.trim().split('\n').map(l => l.trim().slice(2)).join(', ')}]\n`),
  t => t.replace(/^(\w[^:\n]*):/m, (m, k) => `${k}: &base`).replace(/$/, '\nmore:\n  <<: *base\n'),
  t => t + one(['<<: {x: y}\n', '---\n', '...\n', '# end\n', 'dup: x\ndup: y\n', '\n\n', '\t\n', 'k: |\n  a/**\n']),
  t => t.replace(/^(\s*- )(.*)$/gm, (m, d, v) => (chance(0.2) ? `${d}${one(['added|modified', 'deleted', 'renamed'])}: ${v}` : m)),
  t => t.replace(/^(\s*- )(.*)$/gm, (m, d, v) => (chance(0.15) ? `${d}${one(['!!str', '!', '!!binary', '!x', '&a'])} ${v}` : m)),
  t => t.replace(/^(\s*- )'?([^'\n]*)'?$/gm, (m, d, v) => (chance(0.2) ? `${d}'!${v}'` : m)),
  t => t.replace(/^(\w[^:\n]*):/gm, m => (chance(0.3) ? `${one(NAMES)}:` : m)),
  t => t.replace(/\n/g, '\r\n'),
  t => t.replace(/ *$/gm, () => (chance(0.2) ? one([' ', '\t', ' # c', '#c']) : '')),
  t => {
    const i = int(t.length + 1);
    return t.slice(0, i) + one(['\t', ' ', ':', '?', '-', '[', ']', '{', '}', '&', '*', '!', '|', '>', '#', '"', "'", '\n', ',', '%', '@', '\\']) + t.slice(i);
  },
  t => t.slice(0, int(t.length + 1)),
  t => t.replace(/^(\s*)- (.*)$/m, (m, i, v) => `${i}- ${v}\n${i}  ${randomGlob()}`), // a plain scalar runs on
  t => `${one(['%YAML 1.2\n---\n', '--- \n', ' ', '\t', '# head\n', ''])}${t}`
];

function editedReal(texts) {
  let t = one(texts);
  for (let i = 0, n = 1 + int(3); i < n; i++) t = one(EDITS)(t);
  return t;
}

// ---- YAML-ish noise ----
function noise() {
  const alphabet = ['a', 'src', '/', '*', '**', '-', ' ', '  ', '\t', '\n', ':', ': ', '- ', '? ', '[', ']', '{', '}', ',', '&a', '*a',
    '!!str', '!', '#', "'", '"', '|', '>', '\\', '.', '!', '%', '<<', '---', '...', '~', '0', '1.5', '\r\n'];
  let t = one(NAMES) + ':';
  for (let i = 0, n = 3 + int(30); i < n; i++) t += one(alphabet);
  return t + '\n';
}

// Inputs at the edges of main.ts's reading: blank, one line without ':'
// (a file path), separators spelled with tabs.
function edgeInput() {
  return one(['', ' ', '\n', '\t\n', 'filters.yml', ' .github/filters.yaml ', "- 'src/**'", '-\tsrc/**\n', 'src/**', 'a:', ':',
    'a:\t- x\n', 'a:\n-\tx\n', 'a:\n  -\tx\n  -\t[y]\n', 'a: [x]\n...\nb: y\n', 'a:#x\n', 'a: x #c\n', 'a:\n  - [[[[x]]]]\n',
    'a: &l [x]\nb: [*l, [*l, [*l]]]\n', 'a: &m {added: x}\nb: [*m, *m]\n', '? - x\n: y\n', 'a: !!int "1"\n', 'a: !!float .5\n',
    'a: 2001-12-14 21:59:43.10 -5\nb: x\n', "a: ']\\\\\\\\'\nb: x\n", "'a\tb': x\n", 'a:\n  - x\n \t- y\n', 'a: |\n\t\tx\n', 'a: >2\n   x\n']);
}

// ---- cases ----
function changesFor(text) {
  const words = (text.match(/[^\s'",:[\]{}#&*|>]+/g) || []).filter(w => /[/.*?]/.test(w));
  const out = [];
  for (let i = 0, n = weighted([[1, 0], [6, 1 + int(4)], [2, 5 + int(12)]]); i < n; i++) {
    let p = words.length && chance(0.6) ? pathFromGlob(one(words)) : randomPath();
    if (chance(0.05)) p = one(['', ' ', '/', 'a//b', './a', 'a/', '\\', 'a\u2028b', 'x\ny']);
    out.push([weighted(STATUS), p]);
  }
  return out;
}

const QUANTIFIERS = [[6, ''], [3, 'some'], [4, 'every'], [1, 'Every'], [1, ' some\n'], [1, 'all'], [1, 'some-with-excludes'], [1, '\tevery']];

// A release that does not return within the limit is a hang (dorny's step
// never ends); vm's timeout interrupts filter.ts wherever it loops. A case
// takes milliseconds, so a timeout is retried once with a far longer limit
// before it counts: a loaded machine can stall a process for seconds.
const ctx = vm.createContext({run, rel: null, c: null});
const script = new vm.Script('run(rel, c)');
function verdict(rel, c) {
  ctx.rel = rel;
  ctx.c = c;
  for (const timeout of [2000, 8000]) {
    try {
      return script.runInContext(ctx, {timeout});
    } catch (e) {
      if (!(e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')) throw e;
    }
  }
  return {hang: true};
}

const releases = VERSIONS.map(tag => loadRelease(gitDirOf(repo), tag));
const real = realFilters();
if (real.length === 0) throw new Error(`no dorny/paths-filter steps under ${DIRS.join(', ')}`);
const out = [];
const kinds = {};
for (let id = 0; id < CASES; id++) {
  const kind = weighted([[4, 'real'], [5, 'grammar'], [1, 'noise'], [0.4, 'edge']]);
  kinds[kind] = (kinds[kind] || 0) + 1;
  const filters = {real: () => editedReal(real), grammar: grammarText, noise, edge: edgeInput}[kind]();
  const c = {id, filters, q: weighted(QUANTIFIERS), changes: changesFor(filters)};
  c.out = {};
  for (const rel of releases) c.out[rel.tag] = verdict(rel, c);
  out.push(JSON.stringify(c));
}
fs.writeFileSync(outFile, out.join('\n') + '\n');
console.log(`${CASES} cases (${JSON.stringify(kinds)}; ${real.length} real filter texts) x ${VERSIONS.length} releases -> ${outFile}`);
