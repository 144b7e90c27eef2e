package config

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// KeyPos returns the line and column of the deepest key of keyPath
// ("registry.roots") found in a YAML document, 0, 0 when none is.
func KeyPos(data []byte, keyPath string) (line, col int) {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return 0, 0
	}
	n := doc.Content[0]
	for _, k := range strings.Split(keyPath, ".") {
		if n.Kind != yaml.MappingNode {
			break
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				line, col, next = n.Content[i].Line, n.Content[i].Column, n.Content[i+1]
				break
			}
		}
		if next == nil {
			break
		}
		n = next
	}
	return line, col
}
