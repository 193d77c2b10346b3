package profile

import (
	"embed"
	"fmt"
	"maps"
	"slices"

	"go.yaml.in/yaml/v3"
)

//go:embed profiles/*.yaml
var files embed.FS

// entry is one parameter assignment read from a file or an override.
type entry struct {
	path  string
	value any
	line  int // 0 for overrides
}

// flatten reads a YAML mapping document into dotted-path entries. Nested
// mappings extend the path; lists and scalars are values.
func flatten(data []byte) ([]entry, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	var out []entry
	if err := flattenNode(doc.Content[0], "", &out); err != nil {
		return nil, err
	}
	return out, nil
}

func flattenNode(n *yaml.Node, prefix string, out *[]entry) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: %s: expected a mapping of parameters", n.Line, prefixName(prefix))
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		path := prefix + k.Value
		if v.Kind == yaml.MappingNode {
			if err := flattenNode(v, path+".", out); err != nil {
				return err
			}
			continue
		}
		var val any
		if err := v.Decode(&val); err != nil {
			return fmt.Errorf("line %d: %s: %w", v.Line, path, err)
		}
		*out = append(*out, entry{path: path, value: val, line: v.Line})
	}
	return nil
}

func prefixName(prefix string) string {
	if prefix == "" {
		return "document"
	}
	return prefix[:len(prefix)-1]
}

// apply sets every entry on the parameters of root. Each path may appear
// once per source.
func apply(ps []param, es []entry, source string) error {
	seen := make(map[string]bool, len(es))
	for _, e := range es {
		where := source
		if e.line > 0 {
			where = fmt.Sprintf("%s:%d", source, e.line)
		}
		if seen[e.path] {
			return fmt.Errorf("%s: parameter %s set twice", where, e.path)
		}
		seen[e.path] = true
		p, err := lookup(ps, e.path)
		if err == nil {
			err = p.set(e.value)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
	}
	return nil
}

// overrideEntries turns an overrides map into entries in sorted path order,
// so errors are deterministic. Nested maps are flattened like a file.
func overrideEntries(overrides map[string]any) []entry {
	var out []entry
	for _, k := range slices.Sorted(maps.Keys(overrides)) {
		if sub, ok := overrides[k].(map[string]any); ok {
			for _, e := range overrideEntries(sub) {
				out = append(out, entry{path: k + "." + e.path, value: e.value})
			}
			continue
		}
		out = append(out, entry{path: k, value: overrides[k]})
	}
	return out
}

// loadInto applies an embedded profile file to the parameters of root.
func loadInto(ps []param, file string) error {
	data, err := files.ReadFile("profiles/" + file)
	if err != nil {
		return fmt.Errorf("leolab BUG: embedded profile %s missing: %w", file, err)
	}
	es, err := flatten(data)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return apply(ps, es, file)
}
