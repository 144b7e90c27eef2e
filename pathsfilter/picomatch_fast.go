package pathsfilter

// fastGlob is a direct matcher for the common pattern shapes; see
// newFastGlob. It answers only for "clean" paths and defers otherwise.
type fastGlob struct{}

func newFastGlob(pattern string) *fastGlob { return nil }

func (f *fastGlob) match(path string) (result, ok bool) { return false, false }
