package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leolab/leolab/internal/quantity"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/profile"
	"go.yaml.in/yaml/v3"
)

// Load reads and validates a scenario file.
func Load(file string) (*Scenario, error) {
	data, err := ReadFile(file)
	if err != nil {
		return nil, err
	}
	return Parse(file, data)
}

// Parse reads and validates scenario YAML; file names it in errors.
func Parse(file string, data []byte) (*Scenario, error) {
	if err := checkSize(file, data); err != nil {
		return nil, err
	}
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&root); err != nil {
		return nil, &Error{File: file, Line: yamlErrLine(err), Msg: "malformed YAML: " + yamlErrMsg(err)}
	}
	d := &decoder{file: file, lines: map[string]int{}}
	s := d.scenario(&root)
	if d.err != nil {
		return nil, d.err
	}
	s.File = file
	s.lines = d.lines
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// LoadSpec is Load followed by Spec: the scenario file read, validated and
// translated into a simulator run, the steps every caller that runs a
// file takes. Errors name the file.
func LoadSpec(file string) (*Scenario, netsim.Spec, error) {
	s, err := Load(file)
	if err != nil {
		return nil, netsim.Spec{}, err
	}
	return s.specOf()
}

// ParseSpec is LoadSpec for scenario YAML already in memory (file names it
// in errors): Parse followed by Spec.
func ParseSpec(file string, data []byte) (*Scenario, netsim.Spec, error) {
	s, err := Parse(file, data)
	if err != nil {
		return nil, netsim.Spec{}, err
	}
	return s.specOf()
}

// specOf is Spec with the scenario's file named in its error (Load and
// Parse already name it in theirs).
func (s *Scenario) specOf() (*Scenario, netsim.Spec, error) {
	spec, err := s.Spec()
	if err != nil {
		return nil, netsim.Spec{}, fmt.Errorf("%s: %w", s.File, err)
	}
	return s, spec, nil
}

// decoder walks the YAML tree, keeping the first error.
type decoder struct {
	file  string
	err   error
	lines map[string]int // field path → line, for errors found after decoding
}

func (d *decoder) fail(n *yaml.Node, field, format string, args ...any) {
	if d.err != nil {
		return
	}
	line := 0
	if n != nil {
		line = n.Line
	}
	d.err = &Error{File: d.file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// fields iterates a mapping node, rejecting unknown and duplicate keys.
func (d *decoder) fields(n *yaml.Node, path string, allowed []string, f func(key string, v *yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		d.fail(n, path, "must be a mapping with fields %s", strings.Join(allowed, ", "))
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content) && d.err == nil; i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name := join(path, k.Value)
		if !slices.Contains(allowed, k.Value) {
			d.fail(k, name, "unknown field (allowed: %s)", strings.Join(allowed, ", "))
			return
		}
		if seen[k.Value] {
			d.fail(k, name, "given twice")
			return
		}
		seen[k.Value] = true
		d.lines[name] = k.Line
		f(k.Value, v)
	}
}

// list checks that n is a sequence (a non-empty one if nonEmpty) of at
// most limit entries, failing with must (what is allowed, with an example)
// or with the count of entries, named unit, and the limit: the bound that
// keeps a long list in a file from exhausting memory.
func (d *decoder) list(n *yaml.Node, path, must string, nonEmpty bool, limit int, unit string) bool {
	if n.Kind != yaml.SequenceNode || (nonEmpty && len(n.Content) == 0) {
		d.fail(n, path, "%s", must)
		return false
	}
	if len(n.Content) > limit {
		d.fail(n, path, "%d %s: at most %d", len(n.Content), unit, limit)
		return false
	}
	return true
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func (d *decoder) scalar(n *yaml.Node, path, want string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		d.fail(n, path, "must be %s", want)
		return "", false
	}
	return n.Value, true
}

func (d *decoder) str(n *yaml.Node, path string) string {
	s, _ := d.scalar(n, path, "a string")
	return s
}

func (d *decoder) duration(n *yaml.Node, path string) time.Duration {
	s, ok := d.scalar(n, path, "a duration such as 60s or 250ms")
	if !ok {
		return 0
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		d.fail(n, path, "%q is not a duration (use a number with a unit: ns, us, ms, s, m, h; e.g. 60s)", s)
	}
	return v
}

// instant reads an RFC 3339 UTC instant (fractional seconds allowed).
func (d *decoder) instant(n *yaml.Node, path string) time.Time {
	s, ok := d.scalar(n, path, "an RFC 3339 instant such as 2026-04-01T12:00:27Z")
	if !ok {
		return time.Time{}
	}
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		d.fail(n, path, "%q is not an RFC 3339 instant (e.g. 2026-04-01T12:00:27Z or 2026-04-01T12:00:27.5+02:00)", s)
	}
	return v.UTC()
}

func (d *decoder) rate(n *yaml.Node, path string) float64 {
	s, ok := d.scalar(n, path, "a rate such as 100Mbps")
	if !ok {
		return 0
	}
	v, err := profile.ParseRate(s)
	if err != nil {
		d.fail(n, path, "%v", err)
	}
	return v
}

func (d *decoder) integer(n *yaml.Node, path string) int64 {
	s, ok := d.scalar(n, path, "an integer")
	if !ok {
		return 0
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		d.fail(n, path, "%q is not an integer", s)
	}
	return v
}

// sizeUnits are the suffixes size accepts, longest first so "MiB" is not
// read as "B".
var sizeUnits = []struct {
	suffix string
	mult   int64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}

// size reads a byte count: an integer, or a number with a unit (16MiB,
// 4MB, 65536B).
func (d *decoder) size(n *yaml.Node, path string) int64 {
	s, ok := d.scalar(n, path, "a size such as 16MiB or 4194304")
	if !ok {
		return 0
	}
	num, mult := s, int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(s, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 0) || v*float64(mult) > 1<<62 { // !(v >= 0): NaN too
		d.fail(n, path, "%q is not a size (a byte count, or a number with a unit: B, KB, MB, GB, KiB, MiB, GiB; e.g. 16MiB)", s)
		return 0
	}
	return int64(v * float64(mult))
}

func (d *decoder) boolean(n *yaml.Node, path string) bool {
	s, ok := d.scalar(n, path, "true or false")
	if !ok {
		return false
	}
	v, err := strconv.ParseBool(s)
	if err != nil {
		d.fail(n, path, "%q: must be true or false", s)
	}
	return v
}

func (d *decoder) float(n *yaml.Node, path string) float64 {
	s, ok := d.scalar(n, path, "a number")
	if !ok {
		return 0
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		d.fail(n, path, "%q is not a number", s)
		return 0
	}
	// Every plain number of a scenario (loss, queue and cca parameters) is
	// finite; NaN would pass any range check written as x < lo || x > hi.
	if err := quantity.Finite(v); err != nil {
		d.fail(n, path, "%q: %v", s, err)
	}
	return v
}

// yamlErrLine extracts "line N" from a yaml.v3 error, 0 if none.
func yamlErrLine(err error) int {
	msg := err.Error()
	if i := strings.Index(msg, "line "); i >= 0 {
		rest := msg[i+5:]
		j := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
		if j > 0 {
			n, _ := strconv.Atoi(rest[:j])
			return n
		}
	}
	return 0
}

func yamlErrMsg(err error) string {
	if errors.Is(err, io.EOF) {
		return "empty document"
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if i := strings.Index(msg, ": "); i >= 0 && strings.HasPrefix(msg, "line ") {
		msg = msg[i+2:]
	}
	return strings.ReplaceAll(msg, "\n", " ")
}
