package pathsfilter

// compileGlob compiles one dorny/paths-filter pattern with the faithful
// picomatch 2.3.1 {dot:true} port. A construct it does not model is an
// error, so the filter's result becomes unknown instead of a guess.
func compileGlob(p string) (*Picomatch, error) { return CompilePicomatch(p) }
