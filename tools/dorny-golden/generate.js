#!/usr/bin/env node
// Differential oracle for cicheck's paths-filter simulation: runs
// dorny/paths-filter's OWN src/filter.ts, transpiled from each release tag,
// with the js-yaml and picomatch versions that tag's package-lock.json pins,
// on generated cases, and writes pathsfilter/testdata/dorny-golden.jsonl,
// which `go test ./pathsfilter` replays without Node.
//
//   cd tools/dorny-golden && npm ci
//   node generate.js /path/to/dorny/paths-filter   # a clone or a bare git dir
//
// Inputs are read as main.ts reads them: @actions/core's getInput trims
// every value; an empty `filters` fails the step ("Input required"); a
// trimmed value with no newline and no ':' is a file path (isPathInput); a
// predicate-quantifier other than some/every fails the step on releases
// that have the input. main.ts itself imports the GitHub client, so those
// few lines are restated here and checked against the tag's main.ts text.
//
// Output: one JSON object per line, deterministic:
//   {"id", "filters", "q", "changes": [[status, path]...], "out": {version: verdict}}
// verdict: {"path": p} | {"error": message} | {"match": [[filter, [files...]]...]}
'use strict';

const fs = require('fs');
const path = require('path');
const {VERSIONS, deps, gitDirOf, loadRelease, run} = require('./oracle');

const CASES = 3020;

// node generate.js REPO [SEED OUTFILE]: the checked-in golden uses the
// default seed; another seed gives a held-out set for a one-off measure.
const repo = process.argv[2];
if (!repo) throw new Error('usage: node generate.js <dorny/paths-filter clone or git dir> [seed out.jsonl]');
// node generate.js REPO --real LIST OUT: held-out cases from real workflows
// instead (LIST names workflow files, one per line): each dorny step's own
// filters and quantifier, with changed files synthesised from its patterns.
const REAL = process.argv[3] === '--real' ? process.argv[4] : null;
const SEED = REAL ? 7 : Number(process.argv[3] || 20261201);
const outFile = (REAL ? process.argv[5] : process.argv[4]) || path.join(__dirname, '..', '..', 'pathsfilter', 'testdata', 'dorny-golden.jsonl');
const gitDir = gitDirOf(repo);

// ---- case generator (deterministic LCG) ----
let seed = SEED;
const rnd = n => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return (seed >>> 8) % n; // the low bits of an LCG cycle quickly
};
const pick = a => a[rnd(a.length)];

const PATTERNS = [
  'src/**', 'src/**/*.js', '**/*.md', '*.md', 'docs/**', '.github/**', '**/.*', '.*', '**', '*',
  'src/*.{js,ts}', '{src,lib}/**', '{a,b}/x.md', '@(a|b)/y.md', '!(docs)/**', 'src/!(*.md)',
  '+(a|b).js', '?.js', 'src/?.js', '[ab].txt', '[!a].txt', 'file[1].txt', 'a+b.txt', 'a(b).txt',
  'README.md', 'LICENSE', 'src/', './src/*.js', 'x/**/y', '**/test/**', '**.md', '**/*.{md,txt}',
  'sr\\c/a+b.txt', 'a\\b.txt', '\\*.md', 'src/\\1.js', '{1..3}.txt', '{a..c}.txt', 'a/**/', '**/'
];
const NEG = p => '!' + p;
const PATHS = [
  'src/a.js', 'src/x/y.js', 'src/b.ts', 'src/README.md', 'docs/index.md', 'docs/a/b.md', 'README.md',
  '.github/workflows/ci.yml', '.env', 'a/x.md', 'b/y.md', '{a,b}/x.md', '@(a|b)/y.md', 'a.js', 'b.js',
  'ab.js', 'x.js', 'a.txt', 'b.txt', 'file1.txt', 'file[1].txt', 'a+b.txt', 'aab.txt', 'a(b).txt',
  'ab.txt', 'LICENSE', 'lib/z.js', 'x/y', 'x/a/y', 'test/t.py', 'pkg/test/t.py', '1.txt', 'b.txt',
  'src/a.md', 'sr\\c/a+b.txt', 'src/c/a+b.txt', 'srcc/a+b.txt', 'a\\b.txt', '*.md', 'src/1.js', 'src/.hidden'
];
const STATUSES = ['added', 'copied', 'deleted', 'modified', 'renamed', 'unmerged', 'undefined'];
const STATUS_KEYS = ['added', 'modified', 'deleted', 'added|modified', 'Added | Modified', 'removed',
  'added|', 'renamed|copied', 'unmerged'];
// Filter names in every YAML scalar form whose js-yaml reading differs from
// its text (numbers, booleans, nulls, timestamps, quoted, sexagesimal).
const NAMES = ['src', 'docs', 'ci', 'backend', '0', '1', '10', '010', '1e3', '1.0', '.5', '0o17', '0x1F',
  '+1', '-1', '1_000', '1:30', 'true', 'True', 'yes', 'on', 'null', '~', 'Null', '.inf', '.NaN',
  '2001-12-14', '"quoted"', "'single'", '"1e3"', 'a b', 'a-b', '4294967295', '4294967294', '007', '0b11'];

const q = s => pick([`'${s.replace(/'/g, "''")}'`, JSON.stringify(s), /^[\w.\/-]/.test(s) && !s.includes(': ') && !s.includes(' #') ? s : `'${s.replace(/'/g, "''")}'`]);

function patternItem() {
  const p = pick(PATTERNS);
  return rnd(5) === 0 ? NEG(p) : p;
}

function flowList(n) {
  const xs = [];
  for (let i = 0; i < n; i++) xs.push(q(patternItem()));
  return `[${xs.join(', ')}]`;
}

// One filter's value lines (indented by ind), possibly using anchors.
function value(ind, anchors) {
  const sp = ' '.repeat(ind);
  switch (rnd(9)) {
    case 0: return ` ${q(patternItem())}`;
    case 1: return ` ${flowList(1 + rnd(3))}`;
    case 2: {
      let s = '';
      for (let i = 0, n = 1 + rnd(3); i < n; i++) s += `\n${sp}- ${q(patternItem())}`;
      return s;
    }
    case 3: {
      let s = '';
      for (let i = 0, n = 1 + rnd(2); i < n; i++) {
        const inner = rnd(2) ? q(patternItem()) : flowList(1 + rnd(2));
        s += `\n${sp}- ${pick(STATUS_KEYS)}: ${inner}`;
      }
      if (rnd(2)) s += `\n${sp}- ${q(patternItem())}`;
      return s;
    }
    case 4: {
      if (anchors.length === 0) return ` ${q(patternItem())}`;
      const a = pick(anchors);
      switch (rnd(3)) {
        case 0: return ` *${a}`;
        case 1: return `\n${sp}- *${a}\n${sp}- ${q(patternItem())}`;
        default: return `\n${sp}- ${pick(STATUS_KEYS)}: [*${a}, ${q(patternItem())}]`;
      }
    }
    case 5: return ` ${pick(['2001-12-14', '12', '1.5', 'true', 'null', '~', '!!str 12', '!foo x', '!!binary aGk=', '{}', '[]', '[[a, b]]', '{added: 1}', "''",
      '!!binary ""', '!!binary a', '!!set {x: null}', '!!set {x: y}', '!!pairs [a: b]', '!!omap [a: b]', '2001-12-14 10:00:00', '!!int 12', '[src/?.js,\n    x]', '!!js/regexp /a/', '!!js/undefined ""'])}`;
    case 6: return `\n${sp}- [${q(patternItem())}, [${q(patternItem())}]]`;
    case 7: return ` {${pick(STATUS_KEYS)}: ${q(patternItem())}}`;
    default: return `\n${sp}- ${q(patternItem())}`;
  }
}

function filtersText() {
  const lines = [];
  const anchors = [];
  if (rnd(25) === 0) lines.push(pick(['%YAML 1.2', '%YAML 1.1', '%TAG ! tag:x,2000:']), '---');
  if (rnd(20) === 0) lines.push('---');
  const n = 1 + rnd(4);
  const used = new Set();
  for (let i = 0; i < n; i++) {
    let name = pick(NAMES);
    // Keep some collisions (10 and 010 are one key in js-yaml 4), not many.
    if (used.has(name) && rnd(4) !== 0) name = `f${i}`;
    used.add(name);
    if (rnd(30) === 0) name = `? [${pick(NAMES)}, ${pick(NAMES)}]\n`;
    if (rnd(6) === 0 && !name.startsWith('?')) {
      const a = `a${i}`;
      anchors.push(a);
      lines.push(`${name}: &${a} ${flowList(1 + rnd(2))}`);
      continue;
    }
    if (name.startsWith('?')) {
      lines.push(`${name}: ${q(patternItem())}`);
      continue;
    }
    lines.push(`${name}:${value(2, anchors)}`);
  }
  if (rnd(12) === 0) {
    lines.push(rnd(2) && anchors.length ? `<<: *${pick(anchors)}` : pick(['<<: {m: x}', '<<: [{m: x}, {n: y}]', '<<: [[a], [b]]']));
  }
  if (rnd(20) === 0) lines.push('---', `z: ${q(patternItem())}`);
  if (rnd(15) === 0) lines.push(`# comment`);
  let text = lines.join('\n') + '\n';
  switch (rnd(30)) {
    case 0: text = `  ${text}`; break; // leading blanks
    case 1: text = `- ${q(patternItem())}\n`; break; // one line, no ':' → a path
    case 2: text = `${pick(['.github/filters.yml', 'filters.yaml', ' f.yml '])}`; break;
    case 3: text = `\t${text}`; break;
    case 4: text = text.replace(/\n {2}/g, '\n\t'); break; // tabs as indentation
    case 5: text = `src:\n\t- ${q(patternItem())}\n${pick(['\t- ', 'docs:\n\t- ', '  - ', 'docs: ', '\t  - '])}${q(patternItem())}\n`; break;
    case 6: text = `${pick(['', '  '])}\tsrc: ${q(patternItem())}\n${pick(['', '  ', '\t'])}docs: ${q(patternItem())}\n`; break;
  }
  return text;
}

function changes() {
  const out = [];
  for (let i = 0, n = 1 + rnd(5); i < n; i++) out.push([pick(STATUSES), pick(PATHS)]);
  return out;
}

const QUANTS = ['', '', '', '', 'some', 'every', 'every', 'every', ' every', 'every ', '', 'some', 'EVERY', 'some-with-excludes'];

// realCases reads every dorny/paths-filter step of the listed workflows.
function realCases() {
  const yaml = deps['js-yaml@4.1.0'];
  const steps = [];
  for (const file of fs.readFileSync(REAL, 'utf8').split('\n').filter(Boolean).sort()) {
    let doc;
    try {
      doc = yaml.load(fs.readFileSync(file, 'utf8'));
    } catch (e) {
      continue;
    }
    for (const job of Object.values((doc && doc.jobs) || {})) {
      for (const st of (job && job.steps) || []) {
        if (!st || typeof st.uses !== 'string' || !st.uses.startsWith('dorny/paths-filter@')) continue;
        const w = st.with || {};
        if (typeof w.filters !== 'string' || w.filters.includes('${{')) continue;
        let filters = w.filters;
        const t = filters.trim();
        if (!(t.includes('\n') || t.includes(':'))) {
          // A filter file: its text, read from the checkout beside .github/.
          const root = path.dirname(path.dirname(path.dirname(file)));
          try {
            filters = fs.readFileSync(path.join(root, w['working-directory'] || '', t), 'utf8');
          } catch (e) {
            continue;
          }
        }
        steps.push({filters, q: typeof w['predicate-quantifier'] === 'string' ? w['predicate-quantifier'] : ''});
      }
    }
  }
  // Paths a pattern would match, and near misses, from its own text.
  const fromPattern = p => {
    let s = p.replace(/^!+/, '').replace(/\{([^{}]*)\}/g, (_, a) => a.split(',')[rnd(a.split(',').length)]);
    s = s.replace(/\*\*/g, pick(['a/b', 'x', '.hidden/y'])).replace(/\*/g, pick(['x', 'file.md', ''])).replace(/\?/g, 'q');
    s = s.replace(/[@!+]\(([^()]*)\)/g, (_, a) => a.split('|')[0]).replace(/\[[^\]]*\]/g, 'a').replace(/^\.\//, '');
    return s.replace(/\/+$/, '') || 'README.md';
  };
  const out = [];
  for (const st of steps) {
    const pats = (st.filters.match(/['"]?[^\s'":#]*[*/.][^\s'":#]*['"]?/g) || []).map(x => x.replace(/^['"]|['"]$/g, ''));
    for (let k = 0; k < 20; k++) {
      const ch = [];
      for (let i = 0, n = 1 + rnd(6); i < n; i++) {
        const base = pats.length && rnd(4) ? fromPattern(pick(pats)) : pick(PATHS);
        ch.push([pick(STATUSES), rnd(6) ? base : base + pick(['.bak', '/x', '~'])]);
      }
      out.push({filters: st.filters, q: st.q, changes: ch});
    }
  }
  return out;
}

const releases = VERSIONS.map(tag => loadRelease(gitDir, tag));
const out = [];
const inputs = REAL ? realCases() : null;
const total = REAL ? inputs.length : CASES;
for (let id = 0; id < total; id++) {
  const c = REAL ? {id, ...inputs[id]} : {id, filters: filtersText(), q: pick(QUANTS), changes: changes()};
  c.out = {};
  for (const rel of releases) c.out[rel.tag] = run(rel, c);
  out.push(JSON.stringify(c));
}
fs.writeFileSync(outFile, out.join('\n') + '\n');
const summary = {};
for (const rel of releases) {
  summary[rel.tag] = {yaml: rel.yamlKey, quantifier: rel.hasQuantifier};
}
console.log(`${total} cases x ${VERSIONS.length} releases -> ${path.relative(process.cwd(), outFile)}`);
console.log(JSON.stringify(summary));
