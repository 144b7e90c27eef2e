#!/usr/bin/env node
// Generates the picomatch conformance files checked in under
// pathsfilter/testdata/ from the real picomatch@2.3.1 (pinned in
// package.json / package-lock.json), with the options dorny/paths-filter
// uses: {dot: true}. The Go tests read the output and never need Node.
//
//   cd tools/picomatch-golden && npm ci && node generate.js
//
// Outputs (JSON lines, one array per line, deterministic order):
//   picomatch-golden.jsonl  [pattern, path, expected]
//   picomatch-regex.jsonl   [pattern, regex source from makeRe]
'use strict';

const fs = require('fs');
const path = require('path');
const picomatch = require('picomatch');

const version = require('picomatch/package.json').version;
if (version !== '2.3.1') {
  throw new Error(`picomatch ${version} installed; run npm ci (2.3.1 is pinned)`);
}
if (path.sep !== '/') throw new Error('generate on a posix host: picomatch switches to win32 rules otherwise');

const OPTS = { dot: true };
const outDir = path.join(__dirname, '..', '..', 'pathsfilter', 'testdata');

// Spec §7 conformance rows, the doublestar-difference classes (§6), and the
// patterns real workflows use.
const patterns = [
  // §7 rows
  '**', 'src/**', 'src/**/*', 'a/**/b', '**/*.js', '**.js', '**.d.ts', '**.{js,ts}', 'src/**.js',
  'a**/b', '*.md', 'a/*', '.github/**', '**/.*/**', '{a}', '{1..3}.txt', '{a/**,b}', '{src,lib}/**',
  '@(a|b).js', '!(a).js', '(a|b).js', '!(**/*.tsx|**/*.less)', '!(src)/**', '@(a/**|b)',
  '!(amplify/**|data/**|deploy/**)**', '!(deploy/**|data/**|amplify/**)**', '[!a].txt', '[^a].txt',
  '[[:digit:]].txt', 'file[1].txt', '?.txt', '*.jsx?', './src/*.js', 'src/', 'README.md', '!src/**',
  '!!src/**', '!', '!(a)', '\\!a', 'a+b.txt', 'a(b).txt', '**/node_modules/**',
  // globstar shapes
  '**/*', '**/*.*', '**/.*', '*/*', '*.*', '.*', '*', '**/**', '**/**/**', '***', 'a/**/**/b',
  'a/**/', '**/', '/**', 'a/***', 'x**', '**x', 'a/**.md', '*/**', '**/a/**', '**/a', 'a/**/*.md',
  'a/**/b/**/c', '**/b/**', '**/*/', 'src/**/*.{ts,tsx}', 'src/**/', 'src/**/**', 'src/*/*.js',
  '**.{md,txt}', '**.md', '**.d.ts.map', '**/**.js', '.*/**', '**/.github/**', '**/.env*',
  // braces
  '{a,b}', '{a,b}/**', '{,a}b', 'a{,.md}', '{a,{b,c}}', '{a,b{c,d}}/*.js', '{1..10}.txt', '{a..c}',
  '{c..a}', '{1..3}{a..b}', '{a..}', '{..a}', 'x{1..3', '{a,b', 'a,b', '{}', '{a}/b', '{src}/**',
  '{docs/**,*.md}', '{**/*.md,docs/**}', '{a/**,b}/c', '{!a,b}', 'v{1.0,2.0}', '{0..9}{0..9}',
  '{01..03}', '{a.b,c}', '{.github,docs}/**', '{*.md,LICENSE}',
  // extglobs
  '+(a|b).js', '*(a|b).js', '?(a|b).js', '@(a)', '!(*.md)', 'src/**/!(*.md)', '!(docs|frontend)/**',
  '!(docs)**', '!(*.d).ts', '**/!(*-dbg).@(js)', '!(*.d).{ts,tsx}', 'a/!(b)/c', '!(a/b)', '!(a|b)',
  '+(a)', '*(a)', '?(a)', '@(a|b|c)/**', '!(@(a|b))', '!(!(a))', '@(!(a))', 'a@(b', '@(a', '!(a',
  '(a', 'a)', '(a|b)', '(a)(b)', '(?:a)', '(?=a)a', '(?!b)*', '(?<=a)b', 'a|b', 'a|b/**', '|',
  '*(*)', '+(*.js)', '**/+(a|b)/**', '!(node_modules)/**/*.js', 'src/!(vendor)/**', '!(.github)/**',
  '@(src|lib)/**/*.@(js|ts)', '?(.)env', '*(.)env', 'file.!(js)', 'file.@(js|ts)', '*.!(md|txt)',
  // classes
  '[abc].txt', '[a-c].txt', '[a-].txt', '[-a].txt', '[^abc].txt', '[!abc].txt', '[[:alpha:]]*',
  '[[:alnum:]].md', '[[:upper:]]*.md', '[[:lower:]]*', '[[:space:]]', '[[:punct:]]', '[[:word:]]*',
  '[[:xdigit:]][[:xdigit:]]', '[[:digit:][:alpha:]]', '[a[:digit:]]', '[[:foo:]]', '[]]', '[]a]',
  '[a]', '[a', 'a]', '[z-a]', '[a-z]/**', 'v[0-9].*', '[.]env', '[/]', 'a[/]b', '[\\]]', '[a\\-z]',
  '[[]', '[^/]', 'src/[^_]*.go', '*.[ch]', '*.[ch]pp', '[A-Z]*.md', '[0-9][0-9]-*.md',
  // escapes and literals
  'a\\*b', '\\{a,b\\}', 'a\\/b', 'a\\.b', '\\*', '\\**', 'a\\', '\\\\a', '\\\\\\a', 'a\\\\\\\\b',
  '\\d', '\\w*', '\\s', 'a\\+b', '\\(a\\)', '\\[a\\]', 'a\\?', 'a$b', 'a^b', '$', '^a', 'a#b',
  'a~b', 'a%b', 'a b', 'a&b', 'a=b', 'a;b', 'a:b', 'a\'b', '"a*"', '"a"*', 'a"b', 'a@b', '@a',
  '+a', 'a+', 'a++', '?', '??', '???.md', 'a?b', '*?', '?*', '.?', '?.', 'é*', 'ü/**', '日本/*.md',
  '~/**', '#*', '@scope/**', 'a,b,c',
  // dots and slashes
  '.', '..', './', './a', '././a', './/a', 'a/./b', 'a/../b', '../a', '.env', '.env*', '*.env',
  '.*rc', '*rc', '.git*', '.github/workflows/*.yml', '.github/workflows/*.y?(a)ml', '/a', '/**',
  'a//b', 'a/', 'a/b/', 'a/*/', '*/', '!./a', '!.', '!.*', '!*.md', '!**/*.md', '!!!a', '!!', '!!a',
  '!(', '!)', '!a!b', 'a!', '!?', '!*',
  // realistic CI filters
  'src/**/*.ts', 'src/**/*.{ts,tsx,js,jsx}', 'docs/**', 'docs/**/*.md', '**/*.md', '*.md',
  '.github/workflows/ci.yml', '.github/workflows/**', '.github/**/*.yml', 'package.json',
  'package-lock.json', '**/package.json', 'Cargo.toml', 'Cargo.lock', '**/Cargo.toml',
  'crates/**', 'crates/*/src/**', 'src/lib/mlx-cpp/**', 'src/lib/mlx-cpp/patches-rocm/**',
  'src/lib/mlx-cpp/patches-cuda/**', 'src/lib/mlx-cpp/!(patches|patches-rocm)/**',
  'src/lib/mlx-cpp/@(patches|patches-cuda|turbo)/**', 'webui/**', 'webui/**/!(*.md)',
  'kernels/**', 'csrc/**', '**/*.cu', '**/*.{cu,cuh}', '**/*.hip', 'tests/**/*.py', '**/*.py',
  'requirements*.txt', '**/requirements*.txt', 'pyproject.toml', 'setup.{py,cfg}', 'Dockerfile*',
  '**/Dockerfile', 'docker/**', 'scripts/*.sh', 'Makefile', 'go.{mod,sum}', '**/*.go',
  '!**/*_test.go', 'cmd/**/*.go', 'internal/**', 'mobile/**', '!mobile/**/*.md', '!mobile/.config/**',
  '.github/workflows/test_mobile.yml', 'frontend/**', '!frontend/**', '!docs/**', 'LICENSE*',
  'CHANGELOG.md', '*.{yml,yaml}', '**/*.y?(a)ml', 'infra/**/*.tf', 'charts/**', 'helm/**/values*.yaml',
];

// Paths: what git prints, plus the shapes picomatch treats specially.
const paths = [
  'a\\b', 'a b', 'sr\\c/a+b.txt', 'src/c/a+b.txt', '\x01', 'src/\x01.js', '\x00', '\x008', '8', '9x',
  '\x01x', '\xff', '\x27', ' ', 'aa', 'abab', 'src/x', 'x src', 'c/d', '\\', 'b',
  'a', 'b', 'c', 'ab', 'a.js', 'b.js', '.js', 'a.md', '.md', 'README.md', 'readme.md', 'README',
  'LICENSE', 'src', 'src/a.js', 'src/a.ts', 'src/x/a.js', 'src/x/y/b.tsx', 'src/ui.tsx', 'root.tsx',
  'src/a.d.ts', 'types/a.d.ts', 'lib/x.ts', 'docs', 'docs/a', 'docs/a.md', 'docs/x/y.md',
  'docs/installation.md', '.github', '.github/workflows/ci.yml', '.github/workflows/release.yaml',
  '.github/dependabot.yml', '.env', '.env.local', 'x/.env', 'a/.env', 'a/b', 'a/c/d', 'a/x/y/b',
  'a/b/c', 'node_modules', 'node_modules/x/index.js', 'pkg/node_modules/y', 'a.txt', 'b.txt',
  '1.txt', '2.txt', '10.txt', '0.txt', '!a', '{a}', '{a,b}', 'file[1].txt', 'file1.txt', '[a]',
  'a(b).txt', 'ab.txt', 'a+b.txt', 'aab.txt', 'a*b', 'axb', 'a b', 'page.jsx', 'page.jsxx', 'page.js',
  'amplify/backend/function/jest.config.ts', 'data/x', 'deploy/y.ts', 'src/lib/mlx-cpp/patches/m.metal',
  'src/lib/mlx-cpp/patches-rocm/k.hip', 'src/lib/mlx-cpp/patches-cuda/k.cu', 'src/lib/mlx-cpp/turbo/t.cpp',
  'src/lib/mlx-cpp/CMakeLists.txt', 'webui/src/App.tsx', 'webui/README.md', 'kernels/a.cu',
  'csrc/b.cuh', 'mobile/app.ts', 'mobile/docs/x.md', 'mobile/.config/a', 'web/src/foo.tsx',
  'Cargo.toml', 'crates/core/Cargo.toml', 'crates/core/src/lib.rs', 'package.json',
  'packages/app/package.json', 'tests/unit/test_a.py', 'requirements-dev.txt', 'go.mod', 'go.sum',
  'cmd/cicheck/main.go', 'cmd/cicheck/main_test.go', 'Dockerfile', 'Dockerfile.gpu', 'docker/Dockerfile',
  'setup.py', 'infra/prod/main.tf', 'helm/app/values-prod.yaml', 'charts/x/Chart.yaml',
  'a/b/', 'src/', 'docs/', '/a', '/.txt', '/src/a.js', './src/a.js', './a', 'a//b', 'a/./b', 'a/../b',
  '.', '..', '../a', 'a/.', 'a/..', '.a', '..a', '.a/b', 'a/.b/c', 'é.md', 'ü/x', '日本/a.md',
  '😀.md', 'x/😀', 'a\nb', 'a\\b', 'a$b', 'a^b', 'a|b', '~/x', '#x', '@scope/pkg/a.js', 'v1.0',
  'v2.0', 'v1.x', 'ab.md', 'x.env', 'env', 'file.js', 'file.ts', 'file.md', 'file.', '0', '01', '1a',
  'ba', 'b/c', 'bc', 'c/x', 'a/b/c/d/e', 'aa', 'a.b', 'a/b.c/d', '-', ']', '[', 'Z', 'z', '_',
];

// A deterministic generator of awkward patterns: every glob metacharacter
// in short random combinations, to exercise the parser's corner cases.
let seed = 20261129;
const rand = n => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};
const pieces = ['a', 'b', '/', '*', '**', '?', '.', '!', '(', ')', '|', '[', ']', '{', '}', ',', '..',
  '@(', '!(', '+(', '*(', '?(', '\\', '^', '$', '-', '+', '[!', '[^', '[[:digit:]]', 'x', '.md', 'src/',
  // a backslash before a letter or digit stays in the regex source, where
  // Annex B gives it meaning: \b \B boundaries, \c controls, octal escapes
  'a\\b', 'a\\bb', '\\bsrc/**', 'x\\Bsrc', '\\B', 'sr\\c/a+b.txt', '\\cA', '\\ca*', '[\\c1]', '[\\c_]*',
  'src/\\1.js', '\\0', '\\01x', '\\08', '\\8', '\\9*', '\\377', '\\400', '\\47', '[\\1]', '[\\8]',
  '@(a)\\1', '@(a)\\2', '+(a|b)\\1*', '**/\\b*', '\\b**', '!sr\\c/a+b.txt'];
const randomPatterns = [];
const seen = new Set(patterns);
while (randomPatterns.length < 400) {
  let p = '';
  const len = 1 + rand(7);
  for (let i = 0; i < len; i++) p += pieces[rand(pieces.length)];
  if (seen.has(p)) continue;
  seen.add(p);
  randomPatterns.push(p);
}
const randomPathChars = ['a', 'b', 'x', '/', '.', 'md', 'src', '!', '(', ')', '{', '}', '[', ']', '1', '-', '|', ','];
const randomPath = () => {
  let s = '';
  const len = 1 + rand(6);
  for (let i = 0; i < len; i++) s += randomPathChars[rand(randomPathChars.length)];
  return s;
};

const golden = [];
const regexes = [];
const add = (p, list) => {
  let isMatch;
  try {
    isMatch = picomatch(p, OPTS);
  } catch (e) {
    regexes.push([p, 'THROWS: ' + e.message]);
    return;
  }
  regexes.push([p, picomatch.makeRe(p, OPTS).source]);
  for (const s of list) golden.push([p, s, isMatch(s)]);
};
for (const p of patterns) add(p, paths);
for (const p of randomPatterns) {
  // The pattern itself, variants of it, and random strings.
  const list = [p, p.replace(/[*?]/g, 'a'), p.replace(/[!()@+|]/g, ''), p.replace(/[{}]/g, '')];
  for (let i = 0; i < 12; i++) list.push(randomPath());
  add(p, [...new Set(list.filter(s => s !== ''))]);
}

const write = (name, rows) => {
  fs.writeFileSync(path.join(outDir, name), rows.map(r => JSON.stringify(r)).join('\n') + '\n');
};
fs.mkdirSync(outDir, { recursive: true });
write('picomatch-golden.jsonl', golden);
write('picomatch-regex.jsonl', regexes);
console.log(`picomatch ${version}: ${patterns.length + randomPatterns.length} patterns, ${golden.length} cases`);
