//go:build tools

// This file pins the modules cicheck is designed around, so that go.mod keeps
// them while the packages that import them are being written.
package tools

import (
	_ "github.com/bmatcuk/doublestar/v4"
	_ "github.com/fatih/color"
	_ "github.com/rhysd/actionlint"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/spf13/pflag"
	_ "gopkg.in/yaml.v3"
)
