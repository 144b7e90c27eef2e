package testregistry

import "github.com/cicheck/cicheck/pyparse"

// module is what the scan reads of one test file.
type module struct {
	Calls    []pyparse.Call
	MainCall bool // a module-level if __name__ == "__main__": whose body calls
	MainLine int  // a main block without a call, 0 when none
}

// scanModule reads src's marker calls and, in one pass, its main block.
func scanModule(src string, minor int, isMarker func(string) bool, a *pyparse.Arena) (module, error) {
	m, err := pyparse.Scan(src, minor, isMarker, a)
	return module{Calls: m.Calls, MainCall: m.MainCall, MainLine: m.MainNoCallLine}, err
}
