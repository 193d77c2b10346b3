package campaign

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/report"
	"github.com/leolab/leolab/scenario"
)

const sweepCampaign = `version: 1
name: rtt-asymmetry
duration: 20s
runs: 2
template:
  path: {profile: fixed, rate: 20Mbps, rtt: 50ms, queue: {limit_packets: 100}}
  flows:
    - {cca: cubic}
    - {cca: cubic, extra_rtt: 0ms}
axes:
  cca: [cubic, bbr3]
sweep:
  flows[1].extra_rtt: [50ms, 100ms, 150ms, 200ms]
  path.queue.discipline: [fq_codel, cake]
`

// A sweep runs the product of its lists for every cca and seed, each
// value set in the run's scenario where its key points.
func TestSweepExpand(t *testing.T) {
	runs := mustExpand(t, sweepCampaign)
	if want := 2 * 4 * 2 * 2; len(runs) != want {
		t.Fatalf("%d runs, want %d (seeds × extra_rtt × discipline × cca)", len(runs), want)
	}
	ids := map[string]bool{}
	points := map[string]int{}
	for _, r := range runs {
		if ids[r.ID] {
			t.Fatalf("run id %s repeated", r.ID)
		}
		ids[r.ID] = true
		sc, err := scenario.Parse(r.Name(), []byte(r.Scenario))
		if err != nil {
			t.Fatalf("%s: %v\n%s", r.Name(), err, r.Scenario)
		}
		if len(r.Sweep) != 2 || r.Sweep[0].Key != "flows[1].extra_rtt" || r.Sweep[1].Key != "path.queue.discipline" {
			t.Fatalf("%s: sweep point %v", r.Name(), r.Sweep)
		}
		want, _ := time.ParseDuration(r.Sweep[0].Value)
		if len(sc.Flows) != 2 || sc.Flows[1].ExtraRTT != want || sc.Flows[0].ExtraRTT != 0 {
			t.Errorf("%s: flows %+v, want flows[1].extra_rtt %v", r.Name(), sc.Flows, want)
		}
		if sc.Path.Queue.Discipline != r.Sweep[1].Value || sc.Path.Queue.LimitPackets != 100 {
			t.Errorf("%s: queue %+v, want discipline %s and the template's limit", r.Name(), sc.Path.Queue, r.Sweep[1].Value)
		}
		if sc.Flows[0].CCA != sc.Flows[1].CCA || sc.Flows[0].CCA != r.CCAs[0] && RegistryName(r.CCAs[0]) != sc.Flows[0].CCA {
			t.Errorf("%s: flows run %s/%s, want the axis value %s", r.Name(), sc.Flows[0].CCA, sc.Flows[1].CCA, r.CCAs[0])
		}
		points[r.Sweep[0].Value+"/"+r.Sweep[1].Value]++
	}
	if len(points) != 8 {
		t.Errorf("%d sweep points, want 8: %v", len(points), points)
	}
	// Stable ids: the same file expands to the same runs (the store resumes).
	again := mustExpand(t, sweepCampaign)
	for i := range runs {
		if runs[i].ID != again[i].ID {
			t.Fatalf("run %d: id %s then %s", i, runs[i].ID, again[i].ID)
		}
	}
}

// Campaigns without a sweep keep the run ids they had before sweeps
// existed, so their stores resume (pinned from the code before sweeps).
func TestSweepKeepsOldIDs(t *testing.T) {
	runs := mustExpand(t, okCampaign)
	if runs[0].Name() != "dedicated-downlink-sydney-cubic-s7" || runs[0].ID != "6ea11b76fa6f48fc" || runs[5].ID != "c1da4f7517c37747" {
		t.Errorf("ids changed: %s %s, %s", runs[0].Name(), runs[0].ID, runs[5].ID)
	}
}

// Profile parameters are swept under path.overrides, the rest of the key
// being one (dotted) parameter; template.flows without axes.cca runs the
// template's flows as they are.
func TestSweepProfileParameter(t *testing.T) {
	body := `version: 1
duration: 10s
template:
  path: {profile: starlink, overrides: {uplink.queue.limit_packets: 800}}
  flows: [{cca: cubic}, {cca: bbr3, start: 2s}]
axes: {city: [sydney], direction: [downlink]}
sweep:
  path.overrides.downlink.queue.limit_packets: [500, 1000]
`
	runs := mustExpand(t, body)
	if len(runs) != 2 {
		t.Fatalf("%d runs, want 2", len(runs))
	}
	for i, want := range []int{500, 1000} {
		sc, err := scenario.Parse("x", []byte(runs[i].Scenario))
		if err != nil {
			t.Fatal(err)
		}
		if got := sc.Path.Overrides["downlink.queue.limit_packets"]; got != want {
			t.Errorf("run %d: downlink limit %v, want %d", i, got, want)
		}
		if sc.Path.Overrides["uplink.queue.limit_packets"] != 800 || sc.Flows[1].CCA != "bbr3" || sc.Flows[1].Start != 2*time.Second {
			t.Errorf("run %d: template lost: %+v %+v", i, sc.Path.Overrides, sc.Flows)
		}
		if strings.Join(runs[i].CCAs, "+") != "cubic+bbr3" {
			t.Errorf("run %d: ccas %v", i, runs[i].CCAs)
		}
	}
}

// Bad sweeps: one *Error at the sweep key's line naming the field and
// what is allowed.
func TestSweepErrors(t *testing.T) {
	cases := []struct{ name, from, to, field, want string }{
		{"unknown scenario field", "path.queue.discipline:", "path.queue.discpline:", "sweep.path.queue.discpline",
			"scenario field path.queue.discpline: unknown field (allowed: discipline, limit_packets"},
		{"unknown discipline", "[fq_codel, cake]", "[fq_codel, nosuch]", "sweep.path.queue.discipline", `"nosuch"`},
		{"bad value", "[50ms, 100ms, 150ms, 200ms]", "[50ms, fast]", "sweep.flows[1].extra_rtt", `"fast" is not a duration`},
		{"flow out of range", "flows[1].extra_rtt", "flows[2].extra_rtt", "sweep.flows[2].extra_rtt", "allowed: flows[0]..flows[1]"},
		{"flows unindexed", "flows[1].extra_rtt", "flows.extra_rtt", "sweep.flows.extra_rtt", "name a flow by index"},
		{"cca twice", "flows[1].extra_rtt", "flows[1].cca", "sweep.flows[1].cca", "comes from axes.cca"},
		{"seed", "flows[1].extra_rtt", "seed", "sweep.seed", "allowed: duration, interval, epoch_utc, path, links, flows"},
		{"repeated value", "[fq_codel, cake]", "[cake, cake]", "sweep.path.queue.discipline[1]", "repeats"},
		{"empty list", "[fq_codel, cake]", "[]", "sweep.path.queue.discipline", "non-empty list"},
		{"not a list", "[fq_codel, cake]", "cake", "sweep.path.queue.discipline", "non-empty list"},
		{"bad key", "path.queue.discipline:", "path.Queue!:", "sweep.path.Queue!", "not a field name"},
		{"concurrent", "  cca: [cubic, bbr3]", "  cca: [cubic, bbr3]\n  kind: [concurrent]", "axes.kind", "allowed: dedicated"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := strings.Replace(sweepCampaign, tc.from, tc.to, 1)
			if body == sweepCampaign {
				t.Fatalf("replacement %q not found", tc.from)
			}
			c, err := Parse("s.yaml", []byte(body))
			if err == nil {
				_, err = c.Expand()
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v, want a campaign *Error", err)
			}
			if ce.File != "s.yaml" || ce.Line == 0 || ce.Field != tc.field || !strings.Contains(ce.Msg, tc.want) {
				t.Errorf("got %q (line %d, field %q), want field %q and %q", err, ce.Line, ce.Field, tc.field, tc.want)
			}
		})
	}
}

// A template's relative file names are the campaign file's, as a
// scenario's are its own: the runs name them absolutely.
func TestSweepResolvesFiles(t *testing.T) {
	dir := t.TempDir()
	log, err := os.ReadFile("../examples/seed002/leoem/Starlink_SD_NY_15_BP_path.log")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "leoem"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "leoem", "p.log"), log, 0o644); err != nil {
		t.Fatal(err)
	}
	body := `version: 1
duration: 5s
template:
  path: {profile: fixed, rate: 50Mbps, delay_file: {file: leoem/p.log, offset: 900s}}
  flows: [{cca: cubic}]
sweep: {path.delay_file.offset: [900s, 1800s]}
`
	file := filepath.Join(dir, "c.yaml")
	c, err := Parse(file, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := c.Expand()
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || !strings.Contains(runs[0].Scenario, filepath.Join(dir, "leoem", "p.log")) {
		t.Fatalf("%d runs; scenario:\n%s", len(runs), runs[0].Scenario)
	}
	// A link's delay_file is the campaign's too.
	c, err = Parse(file, []byte(`version: 1
duration: 5s
template:
  links: [{name: leo, from: a, to: b, rate: 50Mbps, delay_file: {file: leoem/p.log, offset: 900s}}]
  flows: [{cca: cubic}]
sweep:
  links[0].rate: [50Mbps, 60Mbps]
`))
	if err != nil {
		t.Fatal(err)
	}
	if runs, err = c.Expand(); err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || !strings.Contains(runs[0].Scenario, filepath.Join(dir, "leoem", "p.log")) {
		t.Fatalf("links: %d runs; scenario:\n%s", len(runs), runs[0].Scenario)
	}
}

// The swept runs run on the local pool and land in the store; each one
// moves what its swept rate allows (a fixed 1-BDP path: CUBIC above 85 %
// of the rate, never above it), and a second pass finds them all done.
func TestSweepRunsAndResumes(t *testing.T) {
	body := `version: 1
duration: 20s
template:
  path: {profile: fixed, rtt: 20ms, rate: 10Mbps, queue: {limit_packets: 50}}
  flows: [{cca: cubic}]
sweep: {path.rate: [5Mbps, 20Mbps]}
`
	c, err := Parse("r.yaml", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := c.Expand()
	if err != nil {
		t.Fatal(err)
	}
	st, err := OpenStore(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	sum, err := Execute(ctx, runs, st, Pool{}, Options{})
	if err != nil || sum.Ran != 2 {
		t.Fatalf("ran %d: %v", sum.Ran, err)
	}
	for i, rate := range []float64{5, 20} {
		res, err := st.Result(ctx, runs[i].ID)
		if err != nil {
			t.Fatal(err)
		}
		got := res.Flows[0].ThroughputMbps
		if got < 0.85*rate || got > rate*1.001 {
			t.Errorf("%s: %.2f Mbit/s, want 0.85–1.0 × %.0f", runs[i].Name(), got, rate)
		}
		if math.IsNaN(got) {
			t.Error("NaN throughput")
		}
	}
	sum, err = Execute(ctx, runs, st, Pool{}, Options{})
	if err != nil || sum.Skipped != 2 || sum.Ran != 0 {
		t.Errorf("resume: %+v, %v", sum, err)
	}
}

// start_jitter draws every flow's start from the seed: the same seed gives
// the same offsets, another seed others, each within [0, jitter) of the
// template's start.
func TestStartJitter(t *testing.T) {
	body := strings.Replace(sweepCampaign, "runs: 2", "runs: 2\nstart_jitter: 100ms", 1)
	runs := mustExpand(t, body)
	starts := map[uint64][]time.Duration{}
	for _, r := range runs {
		sc, err := scenario.Parse("x", []byte(r.Scenario))
		if err != nil {
			t.Fatal(err)
		}
		var got []time.Duration
		for _, f := range sc.Flows {
			if f.Start < 0 || f.Start >= 100*time.Millisecond {
				t.Errorf("%s: start %v outside [0, 100ms)", r.Name(), f.Start)
			}
			got = append(got, f.Start)
		}
		if prev, ok := starts[r.Seed]; ok && (prev[0] != got[0] || prev[1] != got[1]) {
			t.Errorf("seed %d: starts %v then %v", r.Seed, prev, got)
		}
		starts[r.Seed] = got
	}
	if starts[1][0] == starts[2][0] || starts[1][0] == starts[1][1] {
		t.Errorf("offsets do not depend on seed and flow: %v", starts)
	}
	c, err := Parse("j.yaml", []byte(strings.Replace(body, "100ms", "1h", 1)))
	var ce *Error
	if !errors.As(err, &ce) || ce.Field != "start_jitter" || c != nil {
		t.Errorf("1h jitter: %v", err)
	}
}

// A product of sweeps too large to expand is refused before anything is
// allocated for it.
func TestSweepTooManyRuns(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 1\nduration: 5s\nruns: 100\ntemplate: {path: {profile: fixed, rate: 10Mbps, rtt: 20ms}, flows: [{cca: reno}]}\nsweep:\n")
	for _, k := range []string{"path.rtt", "path.rate", "path.loss"} {
		b.WriteString("  " + k + ": [")
		for i := range 100 {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strings.Repeat("1", 1) + strconv.Itoa(i) + map[string]string{"path.rtt": "ms", "path.rate": "Mbps", "path.loss": "e-6"}[k])
		}
		b.WriteString("]\n")
	}
	_, err := Parse("big.yaml", []byte(b.String()))
	var ce *Error
	if !errors.As(err, &ce) || ce.Field != "sweep" || !strings.Contains(ce.Msg, "more than 200000 runs") {
		t.Errorf("error %v", err)
	}
}

// The sweep section has one row per point with the stored runs' numbers:
// a lone CUBIC flow per rate (the same runs as TestSweepRunsAndResumes).
func TestSweepSection(t *testing.T) {
	body := `version: 1
duration: 20s
runs: 2
start_jitter: 20ms
template:
  path: {profile: fixed, rtt: 20ms, rate: 10Mbps, queue: {limit_packets: 50}}
  flows: [{cca: cubic}]
sweep: {path.rate: [5Mbps, 20Mbps]}
`
	c, err := Parse("r.yaml", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := c.Expand()
	if err != nil {
		t.Fatal(err)
	}
	st, err := OpenStore(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	if _, err := Execute(ctx, runs, st, Pool{}, Options{}); err != nil {
		t.Fatal(err)
	}
	flows, err := st.Flows(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	sec, ok := SweepSection(c, runs, flows)
	if !ok || len(sec.Tables) != 1 || len(sec.Tables[0].Rows) != 2 {
		t.Fatalf("section %+v", sec)
	}
	var csv strings.Builder
	if err := reportCSV(&csv, &sec.Tables[0]); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(csv.String()), "\n")
	if !strings.HasPrefix(lines[0], "flows,path_rate,runs,goodput_mbps,goodput_mbps_ci95,jain") {
		t.Errorf("header %q", lines[0])
	}
	for i, rate := range []float64{5, 20} {
		f := strings.Split(lines[i+1], ",")
		var got float64
		fmt.Sscan(f[3], &got)
		if f[2] != "2" || got < 0.85*rate || got > rate {
			t.Errorf("row %q: want 2 runs at 0.85–1 × %g Mbit/s", lines[i+1], rate)
		}
	}
}

func reportCSV(w io.Writer, t *report.Table) error { return report.WriteCSV(w, t) }
