// Package plural writes counts in English for cicheck's messages.
package plural

import "strconv"

// Count is n and its noun: "1 job", "2 jobs". many is the plural where
// adding "s" is wrong ("entries").
func Count(n int, one string, many ...string) string {
	return strconv.Itoa(n) + " " + Word(n, one, many...)
}

// Word is one when n is 1, else many (one+"s" when not given).
func Word(n int, one string, many ...string) string {
	switch {
	case n == 1:
		return one
	case len(many) > 0:
		return many[0]
	}
	return one + "s"
}
