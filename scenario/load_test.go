package scenario_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	_ "github.com/leolab/leolab/cc/all"
	"github.com/leolab/leolab/scenario"
)

const good = `version: 1
name: t
duration: 60s
path:
  profile: fixed
  rate: 100Mbps
  rtt: 50ms
  queue: {discipline: droptail, limit_packets: 417}
flows:
  - {cca: cubic, count: 2}
  - {cca: cbr, rate: 1Mbps, packet_size: 1400, start: 5s}
`

func TestParseGood(t *testing.T) {
	s, spec, err := scenario.ParseSpec("good.yaml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if s.Duration != 60*time.Second || s.Path.RateBps != 100e6 || s.Path.Queue.LimitPackets != 417 {
		t.Fatalf("parsed %+v", s)
	}
	if s.Seed != scenario.DefaultSeed || s.Interval != scenario.DefaultInterval {
		t.Fatalf("defaults not applied: seed %d interval %v", s.Seed, s.Interval)
	}
	if len(spec.Flows) != 3 {
		t.Fatalf("count not expanded: %d flows", len(spec.Flows))
	}
}

// LoadSpec reads a file into the same scenario and spec as ParseSpec of
// its text, and its errors name the file: a missing one, a bad field.
func TestLoadSpec(t *testing.T) {
	file := writeScenario(t, good)
	s, spec, err := scenario.LoadSpec(file)
	if err != nil {
		t.Fatal(err)
	}
	if s.File != file || s.Path.RateBps != 100e6 || len(spec.Flows) != 3 || spec.Flows[2].RateBps != 1e6 || spec.Duration != time.Minute {
		t.Fatalf("LoadSpec(%s): scenario file %q rate %v, spec %d flows, duration %v", file, s.File, s.Path.RateBps, len(spec.Flows), spec.Duration)
	}
	missing := file + ".none"
	if _, _, err := scenario.LoadSpec(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: %v, want an error naming %s", err, missing)
	}
	bad := writeScenario(t, strings.Replace(good, "rtt: 50ms", "rtt: 50ms\n  jitter: 5ms", 1))
	if _, _, err := scenario.LoadSpec(bad); err == nil || !strings.Contains(err.Error(), bad+":8:") || !strings.Contains(err.Error(), "path.jitter") {
		t.Errorf("bad field: %v, want %s:8: naming path.jitter", err, bad)
	}
}

// TestBadInput: each bad input gives one line naming the file, the line or
// field, and what is allowed.
func TestBadInput(t *testing.T) {
	testBadInput(t, "bad.yaml", []badInput{
		{"unknown cca", strings.Replace(good, "cca: cubic", "cca: cubc", 1),
			[]string{"bad.yaml:10:", "flows[0].cca", `"cubc"`, "allowed:", "cubic"}},
		{"negative duration", strings.Replace(good, "duration: 60s", "duration: -5s", 1),
			[]string{"bad.yaml:3:", "duration", "must be > 0"}},
		{"missing duration", strings.Replace(good, "duration: 60s\n", "", 1),
			[]string{"bad.yaml", "duration", "missing"}},
		{"unknown field", strings.Replace(good, "rtt: 50ms", "rtt: 50ms\n  jitter: 5ms", 1),
			[]string{"bad.yaml:8:", "path.jitter", "unknown field", "allowed:", "rate"}},
		{"malformed yaml", "version: 1\nflows: [\n", []string{"bad.yaml:", "malformed YAML"}},
		{"rate zero", strings.Replace(good, "rate: 100Mbps", "rate: 0Mbps", 1),
			[]string{"bad.yaml:6:", "path.rate", "allowed: 1kbps..1Tbps"}},
		{"rate without unit", strings.Replace(good, "rate: 100Mbps", "rate: 100", 1),
			[]string{"bad.yaml:6:", "path.rate", "Mbps"}},
		{"empty flows", strings.Replace(good, "flows:\n  - {cca: cubic, count: 2}\n  - {cca: cbr, rate: 1Mbps, packet_size: 1400, start: 5s}\n", "flows: []\n", 1),
			[]string{"bad.yaml:9:", "flows", "at least one flow"}},
		{"unknown profile", strings.Replace(good, "profile: fixed", "profile: geo", 1),
			[]string{"bad.yaml:5:", "path.profile", "allowed:", "fixed"}},
		{"wrong version", strings.Replace(good, "version: 1", "version: 2", 1),
			[]string{"bad.yaml:1:", "version", "allowed: 1"}},
		{"unknown param", strings.Replace(good, "cca: cubic,", "cca: cubic, params: {hystrat: 0},", 1),
			[]string{"bad.yaml:10:", "flows[0].params.hystrat", "allowed:"}},
		{"start after end", strings.Replace(good, "start: 5s", "start: 90s", 1),
			[]string{"bad.yaml:11:", "flows[1].start", "must be in"}},
		{"sndbuf unit", strings.Replace(good, "cca: cubic,", "cca: cubic, sndbuf: 16Mi,", 1),
			[]string{"bad.yaml:10:", "flows[0].sndbuf", "not a size", "MiB"}},
		{"sndbuf small", strings.Replace(good, "cca: cubic,", "cca: cubic, sndbuf: 1000,", 1),
			[]string{"bad.yaml:10:", "flows[0].sndbuf", "must be in", "64KiB"}},
		{"sndbuf cbr", strings.Replace(good, "cca: cbr,", "cca: cbr, sndbuf: 1MiB,", 1),
			[]string{"bad.yaml:11:", "flows[1].sndbuf", "TCP flows only"}},
		{"rwnd large", strings.Replace(good, "cca: cubic,", "cca: cubic, rwnd: 2GiB,", 1),
			[]string{"bad.yaml:10:", "flows[0].rwnd", "must be in", "1GiB"}},
		{"rwnd cbr", strings.Replace(good, "cca: cbr,", "cca: cbr, rwnd: 1MiB,", 1),
			[]string{"bad.yaml:11:", "flows[1].rwnd", "TCP flows only"}},
		{"max_rate unit", strings.Replace(good, "cca: cubic,", "cca: cubic, max_rate: 64,", 1),
			[]string{"bad.yaml:10:", "flows[0].max_rate", "Mbps"}},
		{"max_rate tiny", strings.Replace(good, "cca: cubic,", "cca: cubic, max_rate: 10bps,", 1),
			[]string{"bad.yaml:10:", "flows[0].max_rate", "allowed: 1kbps..1Tbps"}},
		{"max_rate cbr", strings.Replace(good, "cca: cbr,", "cca: cbr, max_rate: 2Mbps,", 1),
			[]string{"bad.yaml:11:", "flows[1].max_rate", "TCP flows only"}},
		{"max_rate_burst alone", strings.Replace(good, "cca: cubic,", "cca: cubic, max_rate_burst: 1MB,", 1),
			[]string{"bad.yaml:10:", "flows[0].max_rate_burst", "needs max_rate"}},
		{"max_rate_burst small", strings.Replace(good, "cca: cubic,", "cca: cubic, max_rate: 64Mbps, max_rate_burst: 1500,", 1),
			[]string{"bad.yaml:10:", "flows[0].max_rate_burst", "must be in", "64KiB"}},
		{"discipline", strings.Replace(good, "droptail", "rde", 1),
			[]string{"bad.yaml:8:", "path.queue.discipline", `"rde"`, "allowed: droptail, headdrop, red, ared, codel, pie, sfq, fq_codel, fq_pie"}},
		{"qdisc param", strings.Replace(good, "{discipline: droptail, limit_packets: 417}", "{discipline: codel, params: {targt: 5ms}}", 1),
			[]string{"bad.yaml:8:", "path.queue.params.targt", "unknown parameter of codel", "allowed: target, interval"}},
		{"qdisc param range", strings.Replace(good, "{discipline: droptail, limit_packets: 417}", "{discipline: fq_codel, params: {quantum: 10}}", 1),
			[]string{"bad.yaml:8:", "path.queue.params.quantum", "must be in [64,"}},
		{"qdisc duration", strings.Replace(good, "{discipline: droptail, limit_packets: 417}", "{discipline: pie, params: {target: 15}}", 1),
			[]string{"bad.yaml:8:", "path.queue.params.target", "not a duration"}},
		{"qdisc ecn", strings.Replace(good, "{discipline: droptail, limit_packets: 417}", "{discipline: sfq, ecn: true}", 1),
			[]string{"bad.yaml:8:", "path.queue.ecn", "sfq does not mark", "codel"}},
		{"reverse qdisc", strings.Replace(good, "  rtt: 50ms\n", "  rtt: 50ms\n  reverse: {queue: {discipline: fq}}\n", 1),
			[]string{"bad.yaml:8:", "path.reverse.queue.discipline", `"fq"`}},
	})
}

// sndbuf takes a byte count or a size with a unit and reaches the
// simulator's flow spec.
func TestSndBuf(t *testing.T) {
	for in, want := range map[string]int{"16MiB": 16 << 20, "4194304": 4 << 20, "4MB": 4e6, "1.5MiB": 3 << 19, "65536B": 1 << 16} {
		s, err := scenario.Parse("s.yaml", []byte(strings.Replace(good, "cca: cubic,", "cca: cubic, sndbuf: "+in+",", 1)))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		spec, err := s.Spec()
		if err != nil {
			t.Fatal(err)
		}
		if got := spec.Flows[0].SndBuf; got != want || spec.Flows[2].SndBuf != 0 {
			t.Errorf("sndbuf %s: flows get %d and %d, want %d and 0 (default)", in, got, spec.Flows[2].SndBuf, want)
		}
	}
}

// rwnd reaches the simulator's flow spec; without it a flow's receiver
// keeps the default ceiling.
func TestRwnd(t *testing.T) {
	s, err := scenario.Parse("s.yaml", []byte(strings.Replace(good, "cca: cubic,", "cca: cubic, rwnd: 4784128,", 1)))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := s.Spec()
	if err != nil {
		t.Fatal(err)
	}
	if got := spec.Flows[0].Rwnd; got != 4784128 || spec.Flows[2].Rwnd != 0 {
		t.Errorf("rwnd: flows get %d and %d, want 4784128 and 0 (default)", got, spec.Flows[2].Rwnd)
	}
}

// max_rate and max_rate_burst reach the simulator's flow spec; without
// them a flow has no host limit.
func TestMaxRate(t *testing.T) {
	s, err := scenario.Parse("s.yaml", []byte(strings.Replace(good, "cca: cubic,", "cca: cubic, max_rate: 64Mbps, max_rate_burst: 118MB,", 1)))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := s.Spec()
	if err != nil {
		t.Fatal(err)
	}
	if f := spec.Flows[0]; f.MaxRateBps != 64e6 || f.MaxRateBurst != 118e6 {
		t.Errorf("flow 0: max rate %v, burst %d; want 6.4e7 and 118000000", f.MaxRateBps, f.MaxRateBurst)
	}
	if f := spec.Flows[2]; f.MaxRateBps != 0 || f.MaxRateBurst != 0 {
		t.Errorf("flow 2 (none given): max rate %v, burst %d; want 0 and 0", f.MaxRateBps, f.MaxRateBurst)
	}
}

// bytes and queue.limit_bytes take the same sizes as sndbuf.
func TestSizeFields(t *testing.T) {
	text := strings.Replace(good, "cca: cubic,", "cca: cubic, bytes: 10MB,", 1)
	text = strings.Replace(text, "limit_packets: 417}", "limit_bytes: 512KiB}", 1)
	s, err := scenario.Parse("s.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if s.Flows[0].Bytes != 10e6 || s.Path.Queue.LimitBytes != 512<<10 {
		t.Errorf("bytes %d, limit_bytes %d; want 10000000 and 524288", s.Flows[0].Bytes, s.Path.Queue.LimitBytes)
	}
	_, err = scenario.Parse("bad.yaml", []byte(strings.Replace(good, "cca: cubic,", "cca: cubic, bytes: 10 parsecs,", 1)))
	if err == nil || !strings.Contains(err.Error(), "flows[0].bytes") || !strings.Contains(err.Error(), "MiB") {
		t.Errorf("bad bytes: %v, want an error naming flows[0].bytes and the units", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte("version: 1\nflows: [\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := scenario.Parse("fuzz.yaml", data)
		if err == nil && (s.Duration <= 0 || len(s.Flows) == 0) {
			t.Fatalf("accepted an invalid scenario: %+v", s)
		}
	})
}

// Every list a scenario reads is refused past its bound, naming the field,
// the count and the bound, and refused when not a list (or empty where a
// route must name a link), naming what is allowed.
func TestListBounds(t *testing.T) {
	const head = "version: 1\nduration: 5s\n"
	entries := func(entry string, n int) string { return "[" + strings.Repeat(entry+", ", n-1) + entry + "]" }
	fixed := "path: {profile: fixed, rate: 10Mbps, rtt: 10ms, schedule: %s}\nflows: [{cca: cubic}]\n"
	links := "links: %s\nflows: [{cca: cubic, path: [a]}]\n"
	link := "{name: a, from: x, to: y, rate: 10Mbps, rtt: 10ms}"
	moves := "links: [" + link + "]\nflows: [{cca: cubic, path: [a], moves: %s}]\n"
	route := "links: [" + link + "]\nflows: [{cca: cubic, path: %s}]\n"
	testBadInput(t, "l.yaml", []badInput{
		{"schedule too long", head + fmt.Sprintf(fixed, entries("{at: 1s, rate: 1Mbps}", scenario.MaxScheduleEntries+1)), []string{"path.schedule: 4097 entries: at most 4096"}},
		{"schedule not a list", head + fmt.Sprintf(fixed, "{at: 1s}"), []string{"path.schedule: must be a list of changes such as"}},
		{"links too long", head + fmt.Sprintf(links, entries(link, scenario.MaxLinks+1)), []string{"links: 65 links: at most 64"}},
		{"links empty", head + fmt.Sprintf(links, "[]"), []string{"links: must be a non-empty list of links such as"}},
		{"moves too long", head + fmt.Sprintf(moves, entries("{at: 1s, path: [a]}", scenario.MaxMoves+1)), []string{"flows[0].moves: 1025 moves: at most 1024"}},
		{"moves not a list", head + fmt.Sprintf(moves, "a"), []string{"flows[0].moves: must be a list of moves such as"}},
		{"route too long", head + fmt.Sprintf(route, entries("a", scenario.MaxLinks+1)), []string{"flows[0].path: 65 links: at most 64"}},
		{"route empty", head + fmt.Sprintf(route, "[]"), []string{"flows[0].path: must be a non-empty list of link names such as [hop1, hop2]"}},
	})
}
