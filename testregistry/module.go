package testregistry

import (
	"strings"

	"github.com/cicheck/cicheck/pyparse"
)

// module is what the scan reads of one test file.
type module struct {
	Calls    []pyparse.Call
	MainCall bool // a module-level if __name__ == "__main__": whose body calls
	MainLine int  // a main block without a call, 0 when none
}

// scanModule reads src's marker calls and main block.
func scanModule(src string, minor int, isMarker func(string) bool, a *pyparse.Arena) (module, error) {
	calls, err := pyparse.Calls(src, minor, isMarker, a)
	// TEMPORARY until pyparse answers it: any line starting the main block.
	return module{Calls: calls, MainCall: containsMain(src)}, err
}

func containsMain(src string) bool {
	for _, q := range []string{`if __name__ == "__main__":`, `if __name__ == '__main__':`} {
		if indexLineStart(src, q) {
			return true
		}
	}
	return false
}

// indexLineStart reports whether s occurs in src at the start of a line.
// strings.Index finds each candidate (a vectorised search), so the cost is
// one pass over src, not a comparison at every byte.
func indexLineStart(src, s string) bool {
	for off := 0; ; {
		i := strings.Index(src[off:], s)
		if i < 0 {
			return false
		}
		i += off
		if i == 0 || src[i-1] == '\n' {
			return true
		}
		off = i + 1
	}
}
