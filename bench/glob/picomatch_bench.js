#!/usr/bin/env node
// Times the real picomatch@2.3.1 ({dot: true}, as dorny/paths-filter calls
// it) on the corpus written by `go run ./bench/glob/gen`, and prints the
// same figures as BenchmarkPicomatchCorpus: ns/match and the match count.
// picomatch comes from tools/picomatch-golden (npm ci there first).
'use strict';
const fs = require('fs');
const path = require('path');
const picomatch = require(path.join(__dirname, '..', '..', 'tools', 'picomatch-golden', 'node_modules', 'picomatch'));

const { patterns, paths } = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const ms = patterns.map(p => picomatch(p, { dot: true }));
const pass = () => {
  let matches = 0;
  for (const p of paths) for (const m of ms) if (m(p)) matches++;
  return matches;
};
pass(); // warm up the JIT, as Go's benchmark warms up with b.N=1
const runs = Number(process.env.RUNS || 1);
const t0 = process.hrtime.bigint();
let matches = 0;
for (let i = 0; i < runs; i++) matches = pass();
const ns = Number(process.hrtime.bigint() - t0);
console.log(JSON.stringify({ nsPerMatch: ns / (runs * paths.length * ms.length), matches }));
