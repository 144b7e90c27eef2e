#!/usr/bin/env python3
"""Accelerator recognition, measured against hand-written truth.

    python3 bench/realworld/accel.py CICHECK ROOT [--truth DIR] [--dump FILE] [--compare FILE] [-v]

ROOT holds one directory per repository (<owner>__<name>/.github/...).
For every workflow directly in .github/workflows, `cicheck graph --format
json` gives each job's class; with --truth, DIR/<owner>__<name>.tsv gives
the truth written by hand before cicheck ran (file, job, truth, fleet,
why; truth is accel, cpu or unknown). The report: per fleet, recall (accel
jobs cicheck calls accelerator); over all jobs, false claims (cpu jobs
cicheck calls accelerator), accelerator jobs called GitHub-hosted, and the
truth's unknown jobs cicheck calls something else than unknown.

--dump writes repo, file, job, class, kind, reason for every job;
--compare FILE (an earlier --dump) lists the jobs that were accelerator
there and are not now (recognition lost).
"""
import collections
import csv
import json
import os
import subprocess
import sys


def classify(cicheck, repo):
    wf = os.path.join(repo, ".github", "workflows")
    files = sorted(f for f in os.listdir(wf) if f.endswith((".yml", ".yaml")))
    out = {}
    if not files:
        return out
    p = subprocess.run([cicheck, "graph", "--format", "json"] + [os.path.join(".github", "workflows", f) for f in files],
                       cwd=repo, capture_output=True, text=True)
    try:
        g = json.loads(p.stdout)
    except json.JSONDecodeError:
        return out
    for w in g.get("workflows", []):
        name = os.path.basename(w["file"])
        for j in w.get("jobs", []):
            c = j.get("class") or {}
            out[(name, j["id"].lower())] = (c.get("class", ""), c.get("kind", ""), c.get("reason", ""))
    return out


def main():
    args = sys.argv[1:]
    verbose = "-v" in args
    args = [a for a in args if a != "-v"]
    opt = {}
    for k in ("--truth", "--dump", "--compare"):
        if k in args:
            i = args.index(k)
            opt[k] = args[i + 1]
            del args[i:i + 2]
    cicheck, root = os.path.abspath(args[0]), args[1]
    repos = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d, ".github", "workflows")))
    got = {}
    for r in repos:
        for (f, j), v in classify(cicheck, os.path.join(root, r)).items():
            got[(r, f, j)] = v
    if "--dump" in opt:
        with open(opt["--dump"], "w") as fh:
            for (r, f, j), (c, k, why) in sorted(got.items()):
                fh.write("\t".join([r, f, j, c, k, why]) + "\n")
    if "--compare" in opt:
        lost = []
        with open(opt["--compare"]) as fh:
            for line in fh:
                r, f, j, c, k, why = line.rstrip("\n").split("\t")
                if c == "accelerator" and got.get((r, f, j), ("",))[0] != "accelerator":
                    lost.append((r, f, j, why, got.get((r, f, j))))
        print(f"recognition lost against {opt['--compare']}: {len(lost)}")
        for x in lost:
            print("  lost:", *x)
    if "--truth" not in opt:
        return
    fleets = collections.defaultdict(lambda: [0, 0])  # fleet -> [recognised, total]
    false_claims, cpu_jobs, hosted, unk_total, unk_claimed, missing = [], 0, [], 0, [], 0
    misses = []
    for r in repos:
        path = os.path.join(opt["--truth"], r + ".tsv")
        if not os.path.exists(path):
            continue
        with open(path) as fh:
            rows = [row for row in csv.reader(fh, delimiter="\t") if row and row[0] != "file"]
        for row in rows:
            if len(row) < 4:
                continue
            f, j, truth, fleet = row[0], row[1].lower(), row[2].strip(), row[3].strip()
            c = got.get((r, f, j))
            if c is None:
                missing += 1
                continue
            cls = c[0]
            if truth == "accel":
                fleets[fleet][1] += 1
                if cls == "accelerator":
                    fleets[fleet][0] += 1
                else:
                    misses.append((r, f, j, fleet, cls, c[2]))
                if cls == "github-hosted":
                    hosted.append((r, f, j))
            elif truth == "cpu":
                cpu_jobs += 1
                if cls == "accelerator":
                    false_claims.append((r, f, j, c[1], c[2]))
            elif truth == "unknown":
                unk_total += 1
                if cls == "accelerator":
                    unk_claimed.append((r, f, j, c[2]))
    rec = sum(v[0] for v in fleets.values())
    tot = sum(v[1] for v in fleets.values())
    print(f"accelerator jobs recognised: {rec}/{tot} = {rec / max(tot, 1):.1%}")
    print(f"false accelerator claims: {len(false_claims)}/{cpu_jobs} cpu jobs = {len(false_claims) / max(cpu_jobs, 1):.1%}")
    print(f"precision (accelerator claims that are accelerator jobs): {rec}/{rec + len(false_claims)} = {rec / max(rec + len(false_claims), 1):.1%}")
    print(f"accelerator jobs called GitHub-hosted: {len(hosted)}")
    print(f"truth-unknown jobs called accelerator: {len(unk_claimed)}/{unk_total}")
    if missing:
        print(f"truth rows with no such job in cicheck's graph: {missing}")
    print("per fleet (recognised/total):")
    for fl, (a, b) in sorted(fleets.items()):
        print(f"  {fl}: {a}/{b} = {a / max(b, 1):.0%}")
    if verbose:
        for x in misses:
            print("  miss:", *x)
        for x in false_claims:
            print("  false claim:", *x)
        for x in hosted:
            print("  hosted:", *x)


if __name__ == "__main__":
    main()
