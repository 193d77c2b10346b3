package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Bad topologies exit 2 with one line naming file:line and what is
// allowed, in sim and emu; emu refuses a topology it cannot route before
// it needs root.
func TestTopologyExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, flows string) string {
		f := filepath.Join(dir, name)
		src := "version: 1\nduration: 10s\nlinks:\n  - {name: a, from: x, to: y, rate: 10Mbps, rtt: 10ms}\n  - {name: b, from: y, to: z, rate: 10Mbps, rtt: 10ms}\nflows:\n" + flows
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	for _, c := range []struct {
		cmd, file string
		want      []string
	}{
		{"sim", write("unknown.yaml", "  - {cca: cubic, path: [a, c]}\n"), []string{"unknown.yaml:7:", "flows[0].path[1]", `"c" is not a link (allowed: a, b)`}},
		{"sim", write("gap.yaml", "  - {cca: cubic, path: [b, a]}\n"), []string{"gap.yaml:7:", "flows[0].path[1]", "connected"}},
		{"sim", write("order.yaml", "  - {cca: cubic, path: [a], moves: [{at: 5s, path: [a]}, {at: 4s, path: [a]}]}\n"), []string{"order.yaml:7:", "flows[0].moves[1].at", "time order"}},
		{"emu", write("lot.yaml", "  - {cca: cubic, path: [a, b]}\n  - {cca: cubic, path: [b]}\n"), []string{"lot.yaml:8:", "flows[1].path", "cannot route by flow"}},
	} {
		code, _, stderr := runCLI(c.cmd, "-f", c.file)
		if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%s %s: exit %d, stderr %q; want 2 and one line", c.cmd, filepath.Base(c.file), code, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s %s: stderr %q lacks %q", c.cmd, filepath.Base(c.file), stderr, w)
			}
		}
	}
}
