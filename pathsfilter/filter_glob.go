package pathsfilter

// globMatcher is the one method the filter model needs from a picomatch
// matcher.
type globMatcher interface{ Match(path string) bool }

// compileGlob compiles one dorny/paths-filter pattern with the faithful
// picomatch 2.3.1 {dot:true} port. A construct it does not model is an
// error, so the filter's result becomes unknown instead of a guess.
func compileGlob(p string) (globMatcher, error) {
	m, err := CompilePicomatch(p)
	if err != nil {
		return nil, err
	}
	return m, nil
}
