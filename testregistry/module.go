package testregistry

import "github.com/cicheck/cicheck/pyparse"

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

func indexLineStart(src, s string) bool {
	for i := 0; i+len(s) <= len(src); i++ {
		if (i == 0 || src[i-1] == '\n') && src[i:i+len(s)] == s {
			return true
		}
	}
	return false
}
