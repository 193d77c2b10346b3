package main

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/internal/irtttest"
	"github.com/leolab/leolab/trace"
)

// An irtt capture made in the test over loopback (Debian's irtt) is read
// by probe (both directions) and analyze.
func TestProbeAndAnalyzeIRTT(t *testing.T) {
	const interval, duration = 10 * time.Millisecond, 2 * time.Second
	file := irtttest.Capture(t, "dish.json.gz", interval, duration)
	// delivered counts, per direction, the packets that direction's trace
	// holds and does not count lost; the downlink's are the round trips
	// whose reply came back. Over loopback a loaded host can still lose a
	// few (irtt marks them true_up when the server's receive count shows
	// the request never arrived), so loss is bounded, not forbidden, and
	// the counts must agree with it.
	delivered := map[string]int{}
	for _, dir := range []string{"downlink", "uplink"} {
		code, out, stderr := runCLI("probe", file, "--direction", dir, "--json")
		if code != 0 {
			t.Fatalf("probe --direction %s: exit %d: %s", dir, code, stderr)
		}
		var v struct {
			Packets   int     `json:"packets"`
			Lost      int     `json:"lost"`
			SpacingMs float64 `json:"spacing_ms"`
			SizeBytes int     `json:"size_bytes"`
			MedianMs  float64 `json:"median_owd_ms"`
			Epoch     string  `json:"epoch_utc"`
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("%v in %s", err, out)
		}
		// irtt's default packet: 60 bytes of UDP payload + 28 of IPv4/UDP
		// headers; its send timer may miss sends on a loaded host. Loss
		// over loopback above 5 % is not the host's scheduling any more.
		if float64(v.Packets) < 0.8*float64(duration/interval) || float64(v.Lost) > 0.05*float64(v.Packets) || v.SpacingMs != 10 || v.SizeBytes != 88 ||
			v.MedianMs <= 0 || v.MedianMs > 1 || v.Epoch == "" {
			t.Errorf("%s: %+v", dir, v)
		}
		if v.Lost > 0 {
			t.Logf("%s: %d of %d lost over loopback (host load)", dir, v.Lost, v.Packets)
		}
		delivered[dir] = v.Packets - v.Lost
	}
	// A reply needs its request to have arrived.
	replied := delivered["downlink"]
	if replied > delivered["uplink"] {
		t.Errorf("%d replies came back but only %d requests reached the server", replied, delivered["uplink"])
	}
	code, out, stderr := runCLI("analyze", file, "--json")
	if code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, stderr)
	}
	var doc struct {
		Flows []struct {
			CCA       string  `json:"cca"`
			Bytes     int64   `json:"bytes"`
			MinRTTMs  float64 `json:"min_rtt_ms"`
			MeanRTTMs float64 `json:"mean_rtt_ms"`
		} `json:"flows"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	// Bytes: every reply's 60-byte payload; RTTs over loopback are well
	// under a millisecond.
	if len(doc.Flows) != 1 || doc.Flows[0].Bytes != int64(60*replied) ||
		doc.Flows[0].MinRTTMs <= 0 || doc.Flows[0].MeanRTTMs < doc.Flows[0].MinRTTMs || doc.Flows[0].MeanRTTMs > 5 || math.IsNaN(doc.Flows[0].MeanRTTMs) {
		t.Errorf("analyze: %s", out)
	}
}

// A broken irtt capture: probe exits 2 naming the file and field.
func TestProbeBadIRTT(t *testing.T) {
	data, err := os.ReadFile("../../irtt/testdata/loopback.json")
	if err != nil {
		t.Fatal(err)
	}
	bad := writeFile(t, "bad.json", strings.Replace(string(data), `"ip_version": "IPv4"`, `"ip_version": "IPv5"`, 1))
	code, _, stderr := runCLI("probe", bad)
	if code != 2 || !strings.Contains(stderr, bad+`: config.ip_version "IPv5": want IPv4 or IPv6`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runCLI("probe", "../../irtt/testdata/loopback.json", "--direction", "sideways"); code != 2 || !strings.Contains(stderr, `direction "sideways": want downlink or uplink`) {
		t.Errorf("--direction sideways: exit %d, stderr %q", code, stderr)
	}
}

// trace export --run turns an irtt capture made over loopback into a delay
// trace: one line per 10 ms interval up to the last send, each the
// interval's smallest loopback delay (well under 1 ms: whole ms 0 or 1
// but for the odd packet a loaded host holds up).
func TestTraceExportIRTT(t *testing.T) {
	const interval, duration = 10 * time.Millisecond, 2 * time.Second
	file := irtttest.Capture(t, "dish.json", interval, duration)
	for _, dir := range []string{"downlink", "uplink"} {
		code, out, stderr := runCLI("trace", "export", "--run", file, "--direction", dir)
		if code != 0 {
			t.Fatalf("trace export --direction %s: exit %d: %s", dir, code, stderr)
		}
		d, err := trace.ReadDelay("stdout", strings.NewReader(out), trace.DelayInterval)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		// irtt's send timer may miss sends on a loaded host; the last send
		// is before the end of the run.
		if n := len(d.D); n < int(duration/interval)*8/10 || n > int(duration/interval)+1 {
			t.Errorf("%s: %d intervals, want ~%d", dir, n, duration/interval)
		}
		// Loopback takes microseconds; a loaded host delays the odd packet
		// (each interval holds one) by a few ms.
		under := 0
		for i, v := range d.D {
			if v > 100*time.Millisecond {
				t.Fatalf("%s: interval %d: loopback delay %v", dir, i, v)
			}
			if v <= time.Millisecond {
				under++
			}
		}
		if under < len(d.D)*95/100 {
			t.Errorf("%s: only %d of %d intervals at a loopback delay <= 1 ms", dir, under, len(d.D))
		}
	}
	code, _, stderr := runCLI("trace", "export", "--run", file, "--direction", "sideways")
	if code != 2 || !strings.Contains(stderr, file+`: --direction: direction "sideways": want downlink or uplink`) {
		t.Errorf("--direction sideways: exit %d, stderr %q", code, stderr)
	}
}
