#!/usr/bin/env node
// Runs dorny/paths-filter's own matching loop (src/filter.ts at v4.0.2,
// quantifier `some`) with the real picomatch@2.3.1 ({dot: true}) on the
// corpus written by `go run ./bench/pathsfilter/gen`, and prints the same
// figures as BenchmarkFilters: ns per (file, filter) check and the number
// of memberships. picomatch comes from tools/picomatch-golden (npm ci).
'use strict';
const fs = require('fs');
const path = require('path');
const picomatch = require(path.join(__dirname, '..', '..', 'tools', 'picomatch-golden', 'node_modules', 'picomatch'));

const { filters, files } = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const MatchOptions = { dot: true };
// As Filter.parseFilterItemYaml builds rules: a string is one rule with no
// status; a status key's list is ONE matcher built from picomatch(list).
const rules = {};
for (const f of filters) {
  rules[f.name] = f.rules.map(r => ({
    status: r.status === null ? undefined : r.status,
    isMatch: picomatch(r.list ? r.patterns : r.patterns[0], MatchOptions),
  }));
}
// Filter.isMatch with predicate-quantifier some.
const isMatch = (file, patterns) =>
  patterns.some(rule => (rule.status === undefined || rule.status.includes(file.status)) && rule.isMatch(file.filename));
// Filter.match.
const match = () => {
  let members = 0;
  for (const key of Object.keys(rules)) members += files.filter(file => isMatch(file, rules[key])).length;
  return members;
};
match(); // warm up the JIT
const runs = Number(process.env.RUNS || 1);
const t0 = process.hrtime.bigint();
let members = 0;
for (let i = 0; i < runs; i++) members = match();
const ns = Number(process.hrtime.bigint() - t0);
console.log(JSON.stringify({ nsPerCheck: ns / (runs * files.length * filters.length), members }));
