package probe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/result"
)

// probeResult is a result with one recorded cbr flow: n packets 1 ms
// apart with a 14 ms delay, then edit's changes.
func probeResult(n int, edit func(p []result.ProbePacket)) *result.Result {
	ps := make([]result.ProbePacket, n)
	for k := range ps {
		ps[k] = result.ProbePacket{Seq: uint64(k), SentS: float64(k) / 1000, OWDMs: 14}
	}
	if edit != nil {
		edit(ps)
	}
	return &result.Result{Engine: "sim", Flows: []result.Flow{{ID: 0, CCA: "cbr", BytesAcked: int64(n) * 1000, Packets: ps}}}
}

// TestAbsurdRecordsAreRefused: issue 18 — one absurd timestamp or delay
// made the prober panic (a rate series sized by the span it implied, or a
// Duration overflowed by the conversion). Each is now an error naming the
// packet and the allowed range, and nothing panics.
func TestAbsurdRecordsAreRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(p []result.ProbePacket)
		want string
	}{
		{"sent 1e300 s", func(p []result.ProbePacket) { p[5].SentS = 1e300 }, "packets[5]: sent_s 1e+300"},
		{"sent NaN", func(p []result.ProbePacket) { p[0].SentS = math.NaN() }, "packets[0]: sent_s NaN"},
		{"sent negative", func(p []result.ProbePacket) { p[3].SentS = -1e18 }, "packets[3]: sent_s"},
		{"owd 1e300 ms", func(p []result.ProbePacket) { p[7].OWDMs = 1e300 }, "packets[7]: owd_ms 1e+300"},
		{"owd NaN", func(p []result.ProbePacket) { p[1].OWDMs = math.NaN() }, "owd_ms NaN"},
		{"owd +Inf", func(p []result.ProbePacket) { p[1].OWDMs = math.Inf(1) }, "owd_ms +Inf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FromResult(probeResult(200, tc.edit), 0)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("FromResult = %v, want an error containing %q", err, tc.want)
			}
		})
	}
	// Within the bounds but far apart: a week between two packets is
	// accepted and inferred without a week of 5 ms bins (1.2·10⁸).
	tr, err := FromResult(probeResult(200, func(p []result.ProbePacket) { p[199].SentS = maxSent.Seconds() }), 0)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Infer(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rate) != 0 {
		t.Errorf("rate series of %d bins for 200 packets", len(rep.Rate))
	}
}

// TestDelaySeriesBounds: a delay beyond quantity's longest, NaN, or a
// step that would overflow the send times are refused with the line.
func TestDelaySeriesBounds(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		step     time.Duration
		want     string
	}{
		{"huge delay", "14\n1e300\n", 10 * time.Millisecond, "x.txt:2:"},
		{"NaN", "14\nNaN\n", 10 * time.Millisecond, "x.txt:2:"},
		{"Inf", "Inf\n", 10 * time.Millisecond, "x.txt:1:"},
		{"step", "14\n15\n", 1000 * time.Hour, "step 1000h0m0s: want (0, 1m0s]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadDelaySeries("x.txt", strings.NewReader(tc.in), tc.step)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ReadDelaySeries = %v, want %q", err, tc.want)
			}
		})
	}
}

// FuzzReadDelaySeries: no series panics the reader or the inference, and
// what is read is bounded by the input's size (one sample per line).
func FuzzReadDelaySeries(f *testing.F) {
	for _, s := range []string{"14\n15\n14.5\n", "# c\n\n0\n1e300\n", "NaN\n", "14\n" + strings.Repeat("13.9\n", 300) + "60\n61\n14\n",
		"-0\n+Inf\n", "1e-300\n14\n"} {
		f.Add([]byte(s), int64(10*time.Millisecond))
	}
	f.Add([]byte("14\n15\n"), int64(time.Hour))
	f.Add([]byte("14\n15\n"), int64(-1))
	f.Fuzz(func(t *testing.T, data []byte, step int64) {
		tr, err := ReadDelaySeries("f.txt", bytes.NewReader(data), time.Duration(step))
		if err != nil {
			return
		}
		if lines := bytes.Count(data, []byte("\n")) + 1; len(tr.Samples) > lines {
			t.Fatalf("%d samples from %d lines", len(tr.Samples), lines)
		}
		inferBounded(t, tr)
	})
}

// FuzzResultReader: a result document (as `leolab probe` reads it) never
// panics the reader or the inference.
func FuzzResultReader(f *testing.F) {
	good, _ := json.Marshal(probeResult(50, nil))
	f.Add(good)
	for _, edit := range []func(p []result.ProbePacket){
		func(p []result.ProbePacket) { p[5].SentS = 1e300 },
		func(p []result.ProbePacket) { p[5].OWDMs = 1e300 },
		func(p []result.ProbePacket) { p[5].OWDMs = -1 },
		func(p []result.ProbePacket) { p[49].SentS = 6e5 },
	} {
		b, _ := json.Marshal(probeResult(50, edit))
		f.Add(b)
	}
	f.Add([]byte(`{"flows":[{"id":0,"packets":[{"seq":0,"sent_s":0,"owd_ms":1},{"seq":1,"sent_s":604800,"owd_ms":600000}]}]}`))
	f.Add([]byte(`{"epoch_utc":"bad","flows":[{"id":0,"packets":[{"sent_s":0,"owd_ms":1}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var res result.Result
		if json.Unmarshal(data, &res) != nil {
			return
		}
		for _, id := range ProbeFlows(&res) {
			tr, err := FromResult(&res, id)
			if err != nil {
				continue
			}
			inferBounded(t, tr)
		}
	})
}

// inferBounded runs the inference and checks that its series are bounded
// by the trace's size, not by the times in it.
func inferBounded(t *testing.T, tr *Trace) {
	t.Helper()
	rep, err := Infer(tr, Options{})
	if err != nil {
		return
	}
	n := len(tr.Samples)
	if len(rep.Rate) > maxEmptyBins*(n+1) || len(rep.Intervals) > 2*n+3 || len(rep.Outages) > n {
		t.Fatalf("%d samples gave %d rate bins, %d intervals, %d outages", n, len(rep.Rate), len(rep.Intervals), len(rep.Outages))
	}
	if _, err := json.Marshal(rep); err != nil {
		t.Fatal(fmt.Errorf("report does not marshal: %w", err))
	}
}
