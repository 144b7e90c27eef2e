// The oracle shared by generate.js and heldout.js: dorny/paths-filter's own
// src/filter.ts and src/file.ts, transpiled from a release tag, run with the
// js-yaml and picomatch versions that tag's package-lock.json pins.
'use strict';

const fs = require('fs');
const path = require('path');
const {execFileSync} = require('child_process');
const ts = require('typescript');

const VERSIONS = ['v2.11.1', 'v3.0.1', 'v3.0.2', 'v4.0.2'];

// gitDirOf accepts a clone or a bare git dir.
const gitDirOf = repo => fs.existsSync(path.join(repo, '.git')) ? path.join(repo, '.git') : repo;

const deps = {
  'js-yaml@3.14.0': require('js-yaml-3'),
  'js-yaml@4.1.0': require('js-yaml-4'),
  'picomatch@2.3.1': require('picomatch')
};
for (const [k, mod] of [['js-yaml-3', '3.14.0'], ['js-yaml-4', '4.1.0'], ['picomatch', '2.3.1']]) {
  const v = require(`${k}/package.json`).version;
  if (v !== mod) throw new Error(`${k} is ${v}, want ${mod}: run npm ci`);
}
if (path.sep !== '/') throw new Error('generate on a posix host: picomatch switches to win32 rules otherwise');

function lockVersion(lock, name) {
  if (lock.packages && lock.packages[`node_modules/${name}`]) return lock.packages[`node_modules/${name}`].version;
  return lock.dependencies[name].version;
}

function transpile(src) {
  return ts.transpileModule(src, {
    compilerOptions: {module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2019, esModuleInterop: true}
  }).outputText;
}

function loadRelease(gitDir, tag) {
  const show = (t, file) => execFileSync('git', ['--git-dir', gitDir, 'show', `${t}:${file}`], {encoding: 'utf8'});
  const lock = JSON.parse(show(tag, 'package-lock.json'));
  const yamlKey = `js-yaml@${lockVersion(lock, 'js-yaml')}`;
  const pmKey = `picomatch@${lockVersion(lock, 'picomatch')}`;
  if (!deps[yamlKey] || !deps[pmKey]) throw new Error(`${tag} pins ${yamlKey}, ${pmKey}: add them to package.json`);
  const main = show(tag, 'src/main.ts');
  for (const needle of [
    "const filtersInput = core.getInput('filters', {required: true})",
    'isPathInput(filtersInput) ? getConfigFileContent(filtersInput) : filtersInput',
    "return !(text.includes('\\n') || text.includes(':'))"
  ]) {
    if (!main.includes(needle)) throw new Error(`${tag}: main.ts no longer has ${needle}; update run()`);
  }
  const hasQuantifier = main.includes("core.getInput('predicate-quantifier', {required: false}) || PredicateQuantifier.SOME");
  const modules = {};
  const load = (name, src) => {
    const module = {exports: {}};
    const req = id => {
      if (id === 'js-yaml') return deps[yamlKey];
      if (id === 'picomatch') return deps[pmKey];
      if (id === './file') return modules.file;
      throw new Error(`${tag}: filter.ts requires ${id}`);
    };
    new Function('require', 'module', 'exports', transpile(src))(req, module, module.exports);
    modules[name] = module.exports;
  };
  load('file', show(tag, 'src/file.ts'));
  load('filter', show(tag, 'src/filter.ts'));
  return {tag, hasQuantifier, filter: modules.filter, yamlKey};
}

// run evaluates one case as the release's main.ts would up to the outputs.
function run(rel, c) {
  const filtersInput = c.filters.trim();
  if (filtersInput === '') return {error: 'Input required and not supplied: filters'};
  if (!(filtersInput.includes('\n') || filtersInput.includes(':'))) return {path: filtersInput};
  let config;
  if (rel.hasQuantifier) {
    const q = c.q.trim() || 'some';
    if (!rel.filter.isPredicateQuantifier(q)) return {error: `Input parameter 'predicate-quantifier' is set to invalid value '${q}'`};
    config = {predicateQuantifier: q};
  }
  try {
    const f = new rel.filter.Filter(filtersInput, config);
    const files = c.changes.map(([status, filename]) => ({filename, status: status === 'undefined' ? undefined : status}));
    const r = f.match(files);
    return {match: Object.entries(r).map(([k, v]) => [k, v.map(x => x.filename)])};
  } catch (e) {
    return {error: String(e && e.message).split('\n')[0]};
  }
}

module.exports = {VERSIONS, deps, gitDirOf, loadRelease, run};
