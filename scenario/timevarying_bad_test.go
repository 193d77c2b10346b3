package scenario_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leolab/leolab/scenario"
)

// tvBase is a time-varying fixed path; the cases edit its path lines.
const tvBase = `version: 1
name: tv
duration: 60s
path:
  profile: fixed
  rate: 100Mbps
  rtt: 50ms
  SCHEDULE
flows: [{cca: cubic}]
`

// Acceptance 6 of issue 19 for schedules and path files: one error naming
// the file, the line, the field and what is allowed.
func TestTimeVaryingBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.log")
	if err := os.WriteFile(bad, []byte("1$[-1, 5, -2]$3$[0.01, 0.02]$0.03\n2$[-1, 5, -2]$3$[0.01, 0.02]$0.07\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	short := filepath.Join(dir, "short.log")
	if err := os.WriteFile(short, []byte("1$[-1, 5, -2]$3$[0.01, 0.02]$0.03\n2$NULL\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ecdf := filepath.Join(dir, "err.dat")
	if err := os.WriteFile(ecdf, []byte("0.1 0.2\n0.3 0.1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	bp := abs(leoemBP)
	tv := func(sched string) string { return strings.Replace(tvBase, "SCHEDULE", sched, 1) }
	testBadInput(t, filepath.Join(dir, "tv.yaml"), []badInput{
		{"unknown field", tv("schedule: [{at: 10s, bandwidth: 20Mbps}]"),
			[]string{"tv.yaml:8:", "path.schedule[0].bandwidth", "unknown field", "allowed: at, ramp, rate, rtt, loss"}},
		{"out of order", tv("schedule:\n    - {at: 30s, rate: 20Mbps}\n    - {at: 20s, rate: 50Mbps}"),
			[]string{"tv.yaml:10:", "path.schedule[1].at", "20s", "before the previous change (line 9) ends at 30s", "time order"}},
		{"inside a ramp", tv("schedule:\n    - {at: 10s, ramp: 10s, rtt: 100ms}\n    - {at: 15s, rate: 50Mbps}"),
			[]string{"tv.yaml:10:", "path.schedule[1].at", "ends at 20s"}},
		{"same time", tv("schedule: [{at: 10s, rate: 20Mbps}, {at: 10s, rtt: 20ms}]"),
			[]string{"tv.yaml:8:", "path.schedule[1].at", "put both in one entry"}},
		{"no at", tv("schedule: [{rate: 20Mbps}]"),
			[]string{"tv.yaml:8:", "path.schedule[0].at", "missing or negative", "[0, duration 1m0s)"}},
		{"negative at", tv("schedule: [{at: -5s, rate: 20Mbps}]"),
			[]string{"tv.yaml:8:", "path.schedule[0].at", "missing or negative"}},
		{"after the end", tv("schedule: [{at: 90s, rate: 20Mbps}]"),
			[]string{"tv.yaml:8:", "path.schedule[0].at", "after the run ends"}},
		{"nothing", tv("schedule: [{at: 5s, ramp: 1s}]"),
			[]string{"path.schedule[0]", "changes nothing", "rate, rtt or loss"}},
		{"absurd rate", tv("schedule: [{at: 5s, rate: 1bps}]"),
			[]string{"tv.yaml:8:", "path.schedule[0].rate", "allowed: 1kbps..1Tbps"}},
		{"absurd rtt", tv("schedule: [{at: 5s, rtt: 20m}]"),
			[]string{"path.schedule[0].rtt", "allowed"}},
		{"loss", tv("schedule: [{at: 5s, loss: 1.5}]"),
			[]string{"path.schedule[0].loss"}},
		{"negative ramp", tv("schedule: [{at: 5s, ramp: -1s, rate: 1Mbps}]"),
			[]string{"path.schedule[0].ramp", "must be in [0, duration 1m0s]"}},
		{"not a list", tv("schedule: {at: 5s}"),
			[]string{"tv.yaml:8:", "path.schedule", "must be a list"}},
		{"no file", tv("delay_file: {offset: 5s}"),
			[]string{"path.delay_file.file", "missing"}},
		{"missing file", tv("delay_file: {file: nowhere.log}"),
			[]string{"tv.yaml:8:", "path.delay_file.file", "nowhere.log", "no such file"}},
		{"format", tv("delay_file: {file: " + bp + ", format: mahimahi}"),
			[]string{"path.delay_file.format", `"mahimahi"`, "allowed: leoem"}},
		{"malformed path file", tv("delay_file: {file: " + bad + "}"),
			[]string{"tv.yaml:8:", "path.delay_file.file", bad + ":2:", "not the sum of the hop delays"}},
		{"offset beyond", tv("delay_file: {file: " + bp + ", offset: 5700s}"),
			[]string{"path.delay_file.offset", "beyond the file's 1h35m32s", "offset + duration <= 1h35m32s"}},
		{"short file", tv("delay_file: {file: " + short + "}"),
			[]string{"path.delay_file.offset", "beyond the file's 2s"}},
		{"bad ecdf", tv("delay_file: {file: " + bp + ", handover_error: " + ecdf + "}"),
			[]string{"path.delay_file.handover_error", ecdf + ":2:", "must not decrease"}},
		{"error without handovers", tv("delay_file: {file: " + bp + ", handovers: false, handover_error: " + ecdf + "}"),
			[]string{"path.delay_file.handover_error", "applies when handovers is true"}},
		{"unknown delay_file field", tv("delay_file: {file: " + bp + ", loop: true}"),
			[]string{"path.delay_file.loop", "allowed: file, format, offset, handovers, handover_error, handover_outage"}},
	})
	// On a Starlink path, schedules are refused (the model has its own).
	_, err := scenario.Parse("s.yaml", []byte("version: 1\nduration: 10s\npath:\n  profile: starlink\n  schedule: [{at: 1s, rate: 1Mbps}]\nflows: [{cca: cubic}]\n"))
	if err == nil || !strings.Contains(err.Error(), "apply to profile fixed") {
		t.Errorf("starlink with a schedule: %v", err)
	}
}
