// Package pathsfilter reproduces the glob engines that decide which files a
// change touches: picomatch 2.3.1 as used by dorny/paths-filter, and GitHub's
// own on.<event>.paths matching, plus the paths-filter step model.
package pathsfilter
