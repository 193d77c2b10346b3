package analyze

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/leolab/leolab/result"
)

// sharedData locates ../shared/data beside the repository (CI keeps it at the
// same relative place) or skips.
func sharedData(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join("..", "..", "shared", "data", rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared data not available beside the repository: %v", err)
	}
	return p
}

// endLine is the end summary a dataset trace stores in its first line.
var endLine = regexp.MustCompile(`sender: bytes=(\d+) retransmits=(\d+) min_rtt=(\d+) mean_rtt=(\d+)`)

type endSummary struct{ bytes, retr, minRTT, meanRTT int64 }

func readEndLine(t *testing.T, path string) endSummary {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<20)
	sc.Scan()
	m := endLine.FindStringSubmatch(sc.Text())
	if m == nil {
		t.Fatalf("%s: no end summary in the first line %q", path, sc.Text())
	}
	var v [4]int64
	for i := range v {
		v[i], _ = strconv.ParseInt(m[i+1], 10, 64)
	}
	return endSummary{v[0], v[1], v[2], v[3]}
}

// Acceptance: the figures computed from each trace's per-second rows
// reproduce the end summary iperf3 logged: bytes exactly (the intervals
// partition the transfer), mean RTT within 0.5% (the kernel averages per-ACK
// RTT samples, the trace holds one srtt per second).
func TestTracesReproduceEndSummary(t *testing.T) {
	dir := sharedData(t, "starlink-iperf3/traces")
	in, errs := Load([]string{dir})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	a := Analyze(in.Flows)
	files, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
	if len(files) == 0 || len(a.Flows) != len(files) {
		t.Fatalf("%d flows from %d trace files", len(a.Flows), len(files))
	}
	for _, f := range files {
		want := readEndLine(t, f)
		var got *FlowMetrics
		for i := range a.Flows {
			if a.Flows[i].File == f {
				got = &a.Flows[i]
			}
		}
		if got == nil || got.From != FromIntervals || got.Intervals < 290 {
			t.Fatalf("%s: flow %+v, want one computed from ~300 intervals", f, got)
		}
		if got.Bytes != want.bytes {
			t.Errorf("%s: bytes %d, end summary %d", f, got.Bytes, want.bytes)
		}
		meanEnd := float64(want.meanRTT) / 1000
		if rel := math.Abs(got.MeanRTTMs-meanEnd) / meanEnd; rel > 0.005 {
			t.Errorf("%s: mean RTT %.3f ms vs end summary %.3f ms: %.2f%% apart, want <= 0.5%%", f, got.MeanRTTMs, meanEnd, 100*rel)
		}
		if got.MinRTTMs != float64(want.minRTT)/1000 {
			t.Errorf("%s: min RTT %.3f ms, want the kernel's %.3f", f, got.MinRTTMs, float64(want.minRTT)/1000)
		}
		// The final short interval iperf3 does not list may hold a few
		// retransmissions: the series may miss at most a handful.
		if d := want.retr - got.Retransmits; d < 0 || d > 5 {
			t.Errorf("%s: retransmits %d, end summary %d", f, got.Retransmits, want.retr)
		}
		if got.Meta.City != "sydney" || got.Meta.Kind != KindSequential || got.Meta.Run != 1 {
			t.Errorf("%s: meta %+v", f, got.Meta)
		}
	}
}

// copyFile copies src into dir under name, truncated to n bytes when n > 0.
func copyFile(t *testing.T, src, dir, name string, n int) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if n > 0 {
		data = data[:n]
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Acceptance: a truncated and a non-JSON file among good ones give one error
// each, naming the file and the byte offset; the good files are analysed.
func TestBadFilesAmongGood(t *testing.T) {
	dir := t.TempDir()
	good := copyFile(t, "../iperf/testdata/clean_P2.json", dir, "a_good.json", 0)
	trunc := copyFile(t, "../iperf/testdata/clean_P2.json", dir, "b_truncated.json", 1500)
	junk := filepath.Join(dir, "c_junk.json")
	if err := os.WriteFile(junk, []byte("iperf3: error - unable to connect to server\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("ignored"), 0o644); err != nil {
		t.Fatal(err)
	}
	in, errs := Load([]string{dir})
	if len(errs) != 2 {
		t.Fatalf("errors %v, want 2", errs)
	}
	for i, f := range []string{trunc, junk} {
		msg := errs[i].Error()
		if !strings.Contains(msg, f) || !regexp.MustCompile(`byte \d+`).MatchString(msg) || strings.Contains(msg, "\n") {
			t.Errorf("error %q: want one line naming %s and a byte offset", msg, f)
		}
	}
	if len(in.Files) != 1 || in.Files[0] != good || len(in.Flows) != 2 {
		t.Fatalf("files %v, %d flows: want the good file's 2 streams", in.Files, len(in.Flows))
	}
	if !in.Flows[0].Concurrent || in.Flows[0].Group != in.Flows[1].Group {
		t.Errorf("the two streams of one -P 2 log must form one concurrent group: %+v", in.Flows[0])
	}
}

func TestLoadResultJSON(t *testing.T) {
	res := result.Result{Engine: "sim", Scenario: "two", Seed: 3, EpochUTC: "2026-03-30T06:56:31Z",
		Path: result.Path{Profile: "starlink", City: "sydney", Direction: "downlink"},
		Flows: []result.Flow{
			{ID: 0, CCA: "cubic", Intervals: []result.Interval{{T: 1, Bytes: 1000, SRTTMs: 30}}},
			{ID: 1, CCA: "bbr3", StartS: 1, Intervals: []result.Interval{{T: 2, Bytes: 3000, SRTTMs: 40}}},
		}}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "r.json")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	in, errs := Load([]string{p})
	if len(errs) > 0 || len(in.Flows) != 2 {
		t.Fatalf("errs %v flows %d", errs, len(in.Flows))
	}
	f := in.Flows[1]
	want := Meta{CCA: "bbr3", City: "sydney", Direction: Downlink, Kind: KindSim, Scenario: "two"}
	if f.Meta != want || !f.Concurrent || f.Group != "sim/two/seed3" || f.Epoch.IsZero() || f.Label != "r.json#1" {
		t.Errorf("flow %+v, meta want %+v", f, want)
	}
	// A truncated result is still reported with its offset.
	if err := os.WriteFile(p, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs := Load([]string{p}); len(errs) != 1 || !strings.Contains(errs[0].Error(), p) || !strings.Contains(errs[0].Error(), "byte") {
		t.Errorf("truncated result: errors %v", errs)
	}
}

func TestLoadMissingPath(t *testing.T) {
	in, errs := Load([]string{filepath.Join(t.TempDir(), "nope")})
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "nope") || len(in.Flows) != 0 {
		t.Fatalf("errs %v flows %d", errs, len(in.Flows))
	}
}

func TestSourcePath(t *testing.T) {
	got := sourcePath("MPTCP-FreeBSD/tcp-cc-starlink:downlink-sequential-logs/Sydney/x/bbr_Sydney__REV_run1.json (commit 27fe)")
	if got != "downlink-sequential-logs/Sydney/x/bbr_Sydney__REV_run1.json" {
		t.Errorf("got %q", got)
	}
}
