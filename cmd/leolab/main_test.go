package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const okScenario = `version: 1
name: cli
duration: 3s
path: {profile: fixed, rate: 20Mbps, rtt: 20ms, queue: {limit_packets: 50}}
flows:
  - {cca: cubic}
  - {cca: reno, start: 1s}
`

// Bad input: exit status 2 and one line naming file, line/field and what is allowed.
func TestBadInputExitCodes(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"unknown cca", strings.Replace(okScenario, "cca: cubic", "cca: nosuch", 1), `:6: flows[0].cca: unknown congestion control "nosuch" (allowed: `},
		{"negative duration", strings.Replace(okScenario, "3s", "-3s", 1), ":3: duration: -3s: must be > 0"},
		{"missing duration", strings.Replace(okScenario, "duration: 3s\n", "", 1), "duration: missing"},
		{"unknown field", strings.Replace(okScenario, "name: cli", "name: cli\nspeed: 3", 1), ":3: speed: unknown field (allowed: "},
		{"malformed yaml", "version: 1\npath: {profile: fixed\n", "malformed YAML"},
		{"rate 0", strings.Replace(okScenario, "20Mbps", "0Mbps", 1), ":4: path.rate: 0bps is out of range (allowed: 1kbps..1Tbps)"},
		{"empty flows", "version: 1\nduration: 3s\npath: {profile: fixed, rate: 1Mbps}\nflows: []\n", ":4: flows: empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := writeFile(t, "s.yaml", c.body)
			code, out, errOut := runCLI("sim", "-f", file)
			if code != 2 {
				t.Fatalf("exit %d, want 2 (stdout %q, stderr %q)", code, out, errOut)
			}
			lines := strings.Split(strings.TrimSpace(errOut), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], file) || !strings.Contains(lines[0], c.want) {
				t.Fatalf("stderr %q: want one line with %q and %q", errOut, file, c.want)
			}
		})
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"sim", "--rate", "fast"},
		{"sim", "--no-such-flag"},
		{"nosuchcommand"},
		{"sim", "-f", "/nonexistent/s.yaml"},
		{"sim", "-f", "x.yaml", "--rate", "1Mbps"},
	} {
		if code, _, errOut := runCLI(args...); code != 2 || errOut == "" {
			t.Errorf("%v: exit %d stderr %q, want 2 and a message", args, code, errOut)
		}
	}
}

var wallRe = regexp.MustCompile(`"wall_s": [0-9.e+-]+`)

// Same scenario + seed → byte-identical --json apart from wall_s.
func TestSimJSONDeterministic(t *testing.T) {
	file := writeFile(t, "s.yaml", okScenario)
	var outs [2]string
	for i := range outs {
		code, out, errOut := runCLI("sim", "-f", file, "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		outs[i] = wallRe.ReplaceAllString(out, `"wall_s": 0`)
	}
	if outs[0] != outs[1] {
		t.Fatal("two runs of the same scenario differ")
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(outs[0]), &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"engine", "scenario", "seed", "duration_s", "wall_s", "flows", "links", "fairness"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("result lacks %q", k)
		}
	}
	// A different seed is allowed to differ, but must still be valid.
	if code, _, errOut := runCLI("sim", "--rate", "10Mbps", "--rtt", "10ms", "--duration", "2s", "--seed", "7"); code != 0 {
		t.Fatalf("flag form: exit %d: %s", code, errOut)
	}
}

func TestCCAListAndVersion(t *testing.T) {
	code, out, _ := runCLI("cca", "list")
	if code != 0 || !strings.Contains(out, "cubic") || !strings.Contains(out, "reno") {
		t.Fatalf("cca list: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI("version")
	if code != 0 || !strings.HasPrefix(out, "leolab ") {
		t.Fatalf("version: exit %d %q", code, out)
	}
}
