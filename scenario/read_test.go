package scenario_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leolab/leolab/scenario"
)

// TestInputSizeBounds: issue 18 — a file of 2.5 M flow entries took 21 s
// and 2.8 GB only to be refused. A file beyond MaxFileBytes is refused
// before it is parsed, and a flows list longer than MaxFlows before its
// entries are decoded.
func TestInputSizeBounds(t *testing.T) {
	head := "version: 1\nduration: 5s\npath: {profile: fixed, rate: 10Mbps, rtt: 10ms}\nflows:\n"
	big := head + strings.Repeat("  - {cca: cubic}\n", scenario.MaxFileBytes/17+1)
	path := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(path, []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		func() error { _, err := scenario.Load(path); return err }(),
		func() error { _, err := scenario.Parse("big.yaml", []byte(big)); return err }(),
	} {
		if err == nil || !strings.Contains(err.Error(), "larger than 2097152 bytes") {
			t.Errorf("a %d-byte file: %v, want refused for its size", len(big), err)
		}
	}
	long := head + strings.Repeat("  - {cca: cubic}\n", scenario.MaxFlows+1)
	_, err := scenario.Parse("long.yaml", []byte(long))
	if err == nil || !strings.Contains(err.Error(), "long.yaml:5: flows: 10001 entries: at most 10000") {
		t.Errorf("10001 entries: %v", err)
	}
}
