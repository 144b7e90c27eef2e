package testregistry

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/cicheck/cicheck/finding"
)

// Discover lists the test files under the roots with Python glob semantics
// (recursive, dot-names skipped, directory symlinks followed, within the
// bounds discover describes), sorted by code point.
func Discover(fsys fs.FS, cfg Config) ([]string, error) {
	found, _, err := discover(fsys, cfg)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(found))
	for i, f := range found {
		out[i] = f.path
	}
	return out, nil
}

// foundFile is a discovered test file and its type as its directory
// listed it (regular, or a symlink to resolve before reading).
type foundFile struct {
	path string
	typ  fs.FileMode
}

// maxDepth bounds how deep below its root a directory is listed.
const maxDepth = 40

// maxLinkedEntries bounds the directory entries listed through symlinks
// in one discovery (a directory counts as one more): each symlink and
// each target is followed once, but symlinks to nested directories would
// list the inner ones again for each. A variable for the tests.
var maxLinkedEntries = 200000

// discover is Discover with each file's listed type, and findings for the
// symlinks it does not follow. Discovery has two phases:
//
//  1. the roots' real trees, no symlink followed, a worker per processor
//     (listing is most of what discovery costs, and nothing else of a
//     scan runs yet);
//  2. the directory symlinks met, in path order, one at a time (they are
//     rare): a symlink leading outside the repository is not followed
//     (a finding says so); one inside is followed at most once in the
//     whole discovery, and so is each directory it leads to (a second
//     symlink to it adds nothing), so a loop ends after one turn; and at
//     most maxLinkedEntries entries are listed through symlinks in all.
//
// Python's glob follows every symlink, out of the repository and round
// a loop until the path is too long; these bounds are cicheck's.
func discover(fsys fs.FS, cfg Config) ([]foundFile, []finding.Finding, error) {
	w := &walker{fsys: fsys, glob: cfg.FileGlob, rootErr: make([]error, len(cfg.Roots))}
	w.cond = sync.NewCond(&w.mu)
	var fnd []finding.Finding
	var links []walkDir
	for i, root := range cfg.Roots {
		root = strings.TrimSuffix(path.Clean(root), "/")
		st, err := fs.Lstat(fsys, root)
		if err != nil {
			continue
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			links = append(links, walkDir{dir: root, root: i})
			continue
		}
		// Listed by its resolved path: a directory above it may be a
		// symlink, and a listing follows none.
		if real, err := resolve(fsys, root); err == nil && st.IsDir() {
			w.push(walkDir{dir: root, real: real, root: i})
		}
	}
	var wg sync.WaitGroup
	found := make([][]foundFile, runtime.GOMAXPROCS(0))
	linksOf := make([][]walkDir, len(found))
	for i := range found {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil { // a bug: ends the scan, not the process
					w.mu.Lock()
					w.panicked = &InternalError{fmt.Sprintf("listing test directories: %v", r)}
					w.mu.Unlock()
					w.done() // the other workers may be waiting on this listing
				}
			}()
			for d, ok := w.pop(); ok; d, ok = w.pop() {
				found[i], linksOf[i] = w.list(d, found[i], linksOf[i])
				w.done()
			}
		}()
	}
	wg.Wait()
	if w.panicked != nil {
		return nil, nil, w.panicked
	}
	if err := cmp.Or(w.rootErr...); err != nil {
		return nil, nil, err // the first root's in configuration order, as a walk one root at a time
	}
	var out []foundFile
	for i, f := range found {
		out = append(out, f...)
		links = append(links, linksOf[i]...)
	}
	out, fnd = w.followLinks(links, out, fnd)
	slices.SortFunc(out, func(a, b foundFile) int { return strings.Compare(a.path, b.path) })
	out = slices.CompactFunc(out, func(a, b foundFile) bool { return a.path == b.path })
	if len(cfg.Exclude) > 0 {
		out = slices.DeleteFunc(out, func(f foundFile) bool { return excluded(cfg.Exclude, f.path) })
	}
	out = slices.DeleteFunc(out, func(f foundFile) bool {
		if !f.typ.IsDir() {
			return false
		}
		fnd = append(fnd, newFinding(RuleUnreadable, f.path, 1, 1, fmt.Sprintf(
			"%s is a directory whose name matches %s: the collector's glob lists it as a test file and open() fails with IsADirectoryError", f.path, cfg.FileGlob)))
		return true
	})
	return out, fnd, nil
}

// walkDir is a directory waiting to be listed (or a symlink waiting to be
// followed; real is then empty): its depth below its root and the root's
// index in the configuration.
type walkDir struct {
	dir, real   string // as collected, and with no symlink on the way (the one listed)
	depth, root int
}

// walker is the shared state of discover's workers: the directories not
// yet listed, and how many are being listed (no worker stops while one is,
// as it may find more).
type walker struct {
	fsys     fs.FS
	glob     string
	mu       sync.Mutex
	cond     *sync.Cond
	todo     []walkDir
	busy     int
	rootErr  []error
	panicked error
}

func (w *walker) push(d walkDir) {
	w.mu.Lock()
	w.todo = append(w.todo, d)
	w.mu.Unlock()
	w.cond.Signal()
}

// pop takes a directory to list, waiting while another worker may still
// find some; false when none is left and none is being listed.
func (w *walker) pop() (walkDir, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(w.todo) == 0 {
		if w.busy == 0 {
			return walkDir{}, false
		}
		w.cond.Wait()
	}
	d := w.todo[len(w.todo)-1]
	w.todo = w.todo[:len(w.todo)-1]
	w.busy++
	return d, true
}

// done ends the listing of a popped directory.
func (w *walker) done() {
	w.mu.Lock()
	w.busy--
	last := w.busy == 0 && len(w.todo) == 0
	w.mu.Unlock()
	if last {
		w.cond.Broadcast() // the waiting workers stop
	}
}

// list appends d's matching files to out and its symlinks to links, and
// queues its subdirectories.
func (w *walker) list(d walkDir, out []foundFile, links []walkDir) ([]foundFile, []walkDir) {
	out, links, _ = w.listWith(d, out, links, w.push)
	return out, links
}

// listWith is list with subdirectories passed to sub, and the number of
// entries listed.
func (w *walker) listWith(d walkDir, out []foundFile, links []walkDir, sub func(walkDir)) ([]foundFile, []walkDir, int) {
	entries, err := fs.ReadDir(w.fsys, d.real)
	if err != nil {
		if d.depth == 0 && !errors.Is(err, fs.ErrNotExist) {
			w.mu.Lock()
			w.rootErr[d.root] = err
			w.mu.Unlock()
		}
		return out, links, 0 // unreadable subdirectories are skipped, as glob does
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		p := d.dir + "/" + name
		typ := e.Type()
		switch {
		case typ&fs.ModeSymlink != 0:
			links = append(links, walkDir{dir: p, depth: d.depth + 1, root: d.root})
		case typ.IsDir():
			if ok, _ := path.Match(w.glob, name); ok {
				// Python's glob lists it as a test file; opening it fails.
				out = append(out, foundFile{p, fs.ModeDir})
			}
			if d.depth < maxDepth {
				sub(walkDir{dir: p, real: joinPath(d.real, name), depth: d.depth + 1, root: d.root})
			}
		default:
			if ok, _ := path.Match(w.glob, name); ok {
				out = append(out, foundFile{p, typ})
			}
		}
	}
	return out, links, len(entries)
}

// followLinks is discover's second phase over the symlinks the first met.
func (w *walker) followLinks(links []walkDir, out []foundFile, fnd []finding.Finding) ([]foundFile, []finding.Finding) {
	followed := map[string]bool{} // each symlink's own location, resolved
	expanded := map[string]bool{} // each directory symlinks led to
	dirs := map[string]bool{}     // directories known not to be symlinks
	listed := 0
	stopped := false
	for len(links) > 0 {
		slices.SortFunc(links, func(a, b walkDir) int { return strings.Compare(a.dir, b.dir) })
		var next []walkDir
		for _, l := range links {
			target, err := resolveIn(w.fsys, l.dir, dirs)
			if errors.Is(err, errOutside) {
				if ok, _ := path.Match(w.glob, path.Base(l.dir)); ok && l.depth > 0 {
					out = append(out, foundFile{l.dir, fs.ModeSymlink}) // reading it reports it
				} else {
					fnd = append(fnd, asWarning(newFinding(RuleUnreadable, l.dir, 1, 1, l.dir+" is a symlink leading outside the repository; not followed")))
				}
				continue
			}
			if err != nil {
				continue // dangling, or a loop of symlinks: glob skips it too
			}
			st, err := fs.Stat(w.fsys, target)
			if err != nil {
				continue
			}
			if !st.IsDir() {
				if ok, _ := path.Match(w.glob, path.Base(l.dir)); ok && l.depth > 0 {
					out = append(out, foundFile{l.dir, fs.ModeSymlink})
				}
				continue
			}
			parent, err := resolveIn(w.fsys, path.Dir(l.dir), dirs)
			if err != nil {
				continue
			}
			if self := path.Join(parent, path.Base(l.dir)); followed[self] || expanded[target] {
				continue // met again inside its own target, or through another symlink
			} else {
				followed[self], expanded[target] = true, true
			}
			// The symlink's target tree, listed under the symlink's path;
			// the symlinks inside it wait for the next round.
			l.real = target
			queue := []walkDir{l}
			for len(queue) > 0 && !stopped {
				d := queue[len(queue)-1]
				queue = queue[:len(queue)-1]
				if listed > maxLinkedEntries {
					stopped = true
					fnd = append(fnd, asWarning(newFinding(RuleUnreadable, l.dir, 1, 1,
						fmt.Sprintf("%s: stopped following directory symlinks after %d entries listed through them; the rest is not collected", l.dir, maxLinkedEntries))))
					break
				}
				var n int
				out, next, n = w.listWith(d, out, next, func(s walkDir) { queue = append(queue, s) })
				listed += 1 + n
			}
		}
		links = next
		if stopped {
			break
		}
	}
	return out, fnd
}

// asWarning is f downgraded to a warning: a symlink not followed loses
// files the reference would collect, but reads nothing it should not.
func asWarning(f finding.Finding) finding.Finding {
	f.Severity = finding.Warning
	return f
}

// joinPath is dir/name for a clean slash path dir ("." is the root).
func joinPath(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}

// excluded reports a path ending in "/" + one of the Exclude entries.
func excluded(exclude []string, p string) bool {
	for _, e := range exclude {
		if len(p) > len(e) && strings.HasSuffix(p, e) && p[len(p)-len(e)-1] == '/' {
			return true
		}
	}
	return false
}
